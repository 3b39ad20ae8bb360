// Cards that fly (FLIP: First, Last, Invert, Play). Before a new screen is drawn the page
// records where every card of the table and the hand was (`snapshot`); after it is drawn
// each card that is new in its place starts where it came from and moves to where it is
// now (`play`): a drawn card from the stock or the pile to the hand, a discard from the
// hand to the pile, melds and lay-offs from the hand to the table; another seat's cards
// come from that seat, its draws fly face down from the stock or pile to the seat. Every
// flight takes FLIGHT ms (a card that only moves along the hand SHIFT ms), none when the
// person asks for reduced motion. Only elements already on the page move (or a face-down
// back), so a flight never shows a card the page may not show.
import {backNode} from "./cards.js";

export const FLIGHT = 260;
export const SHIFT = 180;
const EASING = "cubic-bezier(0.2, 0.7, 0.3, 1)";

export function reducedMotion() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

// Where a card is: "hand", "pile", "faceup" or "meld:<n>" (cards of the score sheet and
// the panels never fly).
function zoneOf(node) {
  if (node.closest(".hand-row")) return "hand";
  if (node.closest(".sheet, .panel")) return null;
  const meld = node.closest(".meld[data-meld]");
  if (meld) return `meld:${meld.dataset.meld}`;
  if (node.closest(".discard")) return "pile";
  if (node.closest(".face-up")) return "faceup";
  return null;
}

// Every card of the app with its zone and a key unique in it (a code can be there twice
// with two decks: the second is "7h#1").
function cards(root) {
  const seen = new Map();
  const out = [];
  for (const node of root.querySelectorAll(".card[data-card]")) {
    const zone = zoneOf(node);
    if (!zone) continue;
    const base = `${zone}|${node.dataset.card}`;
    const n = seen.get(base) || 0;
    seen.set(base, n + 1);
    out.push({node, zone, code: node.dataset.card, key: `${base}#${n}`});
  }
  return out;
}

function box(node) {
  const r = node.getBoundingClientRect();
  return {left: r.left, top: r.top, width: r.width, height: r.height};
}

/** Where everything is before a redraw (null when nothing should move). */
export function snapshot(root, screen) {
  if (!screen || !screen.public || reducedMotion()) return null;
  const before = {screen, cards: new Map(), seats: new Map(), stock: null, hand: null};
  for (const entry of cards(root)) {
    before.cards.set(entry.key, {...entry, box: box(entry.node)});
  }
  for (const seat of root.querySelectorAll(".seat[data-seat]")) {
    before.seats.set(Number(seat.dataset.seat), box(seat));
  }
  const stock = root.querySelector(".pile.stock");
  if (stock) before.stock = box(stock);
  const row = root.querySelector(".hand-row");
  if (row) before.hand = box(row);
  return before;
}

// The keyframes of a card now at `to` that starts at `from` (null: it did not move).
function flight(from, to) {
  if (!to.width || !to.height) return null;
  const dx = from.left - to.left;
  const dy = from.top - to.top;
  const sx = from.width / to.width;
  const sy = from.height / to.height;
  if (Math.abs(dx) < 1 && Math.abs(dy) < 1 && Math.abs(sx - 1) < 0.02) return null;
  return [
    {translate: `${dx}px ${dy}px`, scale: `${sx} ${sy}`, transformOrigin: "0 0"},
    {translate: "0 0", scale: "1 1", transformOrigin: "0 0"},
  ];
}

// A face-down card flying from `from` to `to` over the page (another seat's draw).
function ghost(from, to, tiles) {
  const node = document.createElement("div");
  node.className = "ghost-card";
  node.setAttribute("aria-hidden", "true");
  node.appendChild(backNode(tiles));
  const width = Math.min(from.width, 60);
  Object.assign(node.style, {left: `${from.left}px`, top: `${from.top}px`,
    width: `${width}px`});
  document.body.appendChild(node);
  const dx = to.left + to.width / 2 - (from.left + width / 2);
  const dy = to.top + to.height / 2 - (from.top + width * 0.7);
  const animation = node.animate([
    {translate: "0 0", opacity: 1},
    {translate: `${dx}px ${dy}px`, opacity: 0.2},
  ], {duration: FLIGHT, easing: EASING});
  animation.finished.catch(() => {}).then(() => node.remove());
  return animation;
}

// The seat that moved between two screens: the one whose count of cards went down,
// else the one whose turn it was.
function mover(before, after) {
  const old = before.public.players;
  const now = after.public.players;
  for (let seat = 0; seat < now.length; seat += 1) {
    if (old[seat] && now[seat].cards < old[seat].cards) return seat;
  }
  return before.public.current;
}

/** Lets every card that moved fly from where it was; returns the animations started. */
export function play(root, before, after) {
  if (!before || !after || !after.public || reducedMotion()) return [];
  if (before.screen.public.deal !== after.public.deal) return [];  // a new deal: no flights
  const started = [];
  const now = cards(root);
  const kept = new Set(now.map((entry) => entry.key));
  // cards gone from their place: where a card of the same code now comes from
  const gone = new Map();
  for (const [key, entry] of before.cards) {
    if (kept.has(key)) continue;
    const list = gone.get(entry.code) || [];
    list.push(entry);
    gone.set(entry.code, list);
  }
  const seat = mover(before.screen, after);
  const row = root.querySelector(".hand-row");
  const rowBox = row ? box(row) : null;
  // first every box is read (one layout), then every flight starts (no layout between)
  const flights = [];
  for (const entry of now) {
    const old = before.cards.get(entry.key);
    let from = null;
    let duration = FLIGHT;
    if (old) {
      // still in its place: a hand card slides when the order changed (not when the
      // whole hand moved with the page)
      if (entry.zone === "hand" && rowBox && before.hand) {
        from = {...old.box, left: old.box.left - before.hand.left + rowBox.left,
          top: old.box.top - before.hand.top + rowBox.top};
        duration = SHIFT;
      }
    } else {
      const source = (gone.get(entry.code) || []).shift();
      if (source) from = source.box;
      else if (entry.zone === "hand") from = before.stock;
      else if (seat !== null && seat !== after.seat) from = before.seats.get(seat) || null;
    }
    const frames = from && flight(from, box(entry.node));
    if (frames) flights.push({node: entry.node, frames, duration, new: !old});
  }
  // another seat drew: a face-down card from the stock (or the pile it took from)
  const ghosts = [];
  after.public.players.forEach((player, number) => {
    const old = before.screen.public.players[number];
    if (number === after.seat || !old || player.cards <= old.cards) return;
    const to = root.querySelector(`.seat[data-seat="${number}"]`);
    if (!to) return;
    const pile = [...before.cards.values()].find((entry) => entry.zone === "pile" &&
      !kept.has(entry.key));
    const from = after.public.stock < before.screen.public.stock ? before.stock
      : (pile && pile.box) || before.stock;
    if (from) ghosts.push([from, box(to)]);
  });
  for (const {node, frames, duration, new: arrived} of flights) {
    const animation = node.animate(frames, {duration, easing: EASING});
    if (arrived) {
      node.classList.add("flying");
      animation.finished.catch(() => {}).then(() => node.classList.remove("flying"));
    }
    started.push(animation);
  }
  for (const [from, to] of ghosts) started.push(ghost(from, to, after.tiles));
  return started;
}
