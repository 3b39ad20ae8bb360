// The replay of a table's finished deals (GET api/replay, bot/web/replay_json.py): the
// positions in order, where the page stands, and playing at 1x, 2x or 4x (a move a
// second at 1x). Pure state, so the page draws each position as it draws a screen.

export const SPEEDS = [1, 2, 4];

export class ReplayWalk {
  constructor(data, onChange) {
    this.data = data;
    this.at = 0;
    this.speed = 1;
    this.timer = null;
    this.onChange = onChange;
  }

  get position() {
    return this.data.positions[this.at];
  }

  // The deals of the replay, each with the index of its first position.
  deals() {
    const starts = [];
    this.data.positions.forEach((p, i) => {
      if (p.number === 0) starts.push({deal: p.deal, at: i});
    });
    return starts;
  }

  go(at) {
    const last = this.data.positions.length - 1;
    this.at = Math.max(0, Math.min(last, at));
    if (this.at === last) this.pause();
    this.onChange();
  }

  step(by) {
    this.pause();
    this.go(this.at + by);
  }

  jump(deal) {
    this.pause();
    const start = this.deals().find((d) => d.deal === deal);
    if (start) this.go(start.at);
  }

  get playing() {
    return this.timer !== null;
  }

  play() {
    if (this.timer !== null) return;
    if (this.at >= this.data.positions.length - 1) this.at = 0;
    this.timer = setInterval(() => this.go(this.at + 1), 1000 / this.speed);
    this.onChange();
  }

  pause() {
    if (this.timer === null) return;
    clearInterval(this.timer);
    this.timer = null;
    this.onChange();
  }

  setSpeed(speed) {
    this.speed = speed;
    if (this.timer !== null) {
      clearInterval(this.timer);
      this.timer = setInterval(() => this.go(this.at + 1), 1000 / this.speed);
    }
    this.onChange();
  }
}
