// Sounds, a setting of the page kept on the device (off unless the person turns them on):
// a short chime when the person's turn starts, a tick for a draw and a lower one for a
// discard, made with WebAudio (no sound files). With the setting off no AudioContext is
// made at all.

let on = false;
let audio = null;

const TONES = {
  turn: [[660, 0], [880, 0.12]],
  draw: [[520, 0]],
  discard: [[330, 0]],
};

/** Sounds on or off; `tapped`: turned on by a tap, which lets the browser start the
 * audio at once (else it starts with the first sound after a tap). */
export function setSounds(value, tapped = false) {
  on = value;
  if (on && tapped) context();
}

function context() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return null;
  if (!audio) audio = new Context();
  if (audio.state === "suspended") audio.resume().catch(() => {});
  return audio;
}

/** Plays `kind` ("turn", "draw", "discard") when sounds are on. */
export function sound(kind) {
  if (!on || !TONES[kind]) return;
  const ctx = context();
  if (!ctx) return;
  for (const [frequency, delay] of TONES[kind]) {
    const start = ctx.currentTime + delay;
    const tone = ctx.createOscillator();
    const gain = ctx.createGain();
    tone.type = "sine";
    tone.frequency.setValueAtTime(frequency, start);
    gain.gain.setValueAtTime(0.001, start);
    gain.gain.exponentialRampToValueAtTime(0.12, start + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.001, start + 0.14);
    tone.connect(gain);
    gain.connect(ctx.destination);
    tone.start(start);
    tone.stop(start + 0.15);
  }
}

/** The sounds of a new screen after `before`: a draw (the stock, or the pile taken
 * from), a discard (the pile grew), the person's turn starting. */
export function screenSounds(before, after) {
  const old = before && before.public;
  const now = after.public;
  if (!old || !now || old.deal !== now.deal) return;
  if (now.stock < old.stock || now.discard_size < old.discard_size) sound("draw");
  if (now.discard_size > old.discard_size) sound("discard");
  const turn = after.hand && after.hand.turn && !(before.hand && before.hand.turn);
  if (turn) sound("turn");
}
