// Cards and tiles of the web table: names in the reader's language and the pictures.
// The pictures are this project's own drawings (see LICENSES.md), made on a canvas: a
// card has its corner indices, the pips of its rank or a framed court letter; a tile its
// number in one of the four colours, the Joly a star. Every card is a DOM element with a label
// ("Herz Dame" / "queen of hearts"); the drawing itself is hidden from screen readers.

const RANK_WORDS = {a: "ace", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six",
  7: "seven", 8: "eight", 9: "nine", 10: "ten", j: "jack", q: "queen", k: "king"};
const SUIT_WORDS = {c: "clubs", d: "diamonds", h: "hearts", s: "spades"};
const SUIT_SIGNS = {c: "♣", d: "♦", h: "♥", s: "♠"};
const COLOUR_WORDS = {r: "red", y: "yellow", b: "blue", k: "black"};
const INDEX = {en: {a: "A", j: "J", q: "Q", k: "K"}, de: {a: "A", j: "B", q: "D", k: "K"}};

/** Split an engine code: {joker}, {rank, suit} of a card or {colour, number} of a tile. */
export function parseCode(code, tiles) {
  if (code === "jk") return {joker: true};
  if (tiles) return {colour: code[0], number: Number(code.slice(1))};
  return {rank: code.slice(0, -1), suit: code.slice(-1)};
}

/** The name of a card or tile in the page's language ("Herz Dame", "red 7", "Joly"). */
export function cardName(code, tiles, t) {
  const c = parseCode(code, tiles);
  if (c.joker) return tiles ? t("Joly") : t("joker");
  if (tiles) return t("{colour} {number}").replace("{colour}", t(COLOUR_WORDS[c.colour]))
    .replace("{number}", String(c.number));
  return t("{rank} of {suit}").replace("{rank}", t(RANK_WORDS[c.rank]))
    .replace("{suit}", t(SUIT_WORDS[c.suit]));
}

/** The name of a placed card: a joker says what it stands for. */
export function placedName(entry, tiles, t) {
  if (Array.isArray(entry)) {
    return t("{joker} as {face}").replace("{joker}", cardName(entry[0], tiles, t))
      .replace("{face}", cardName(entry[1], tiles, t));
  }
  return cardName(entry, tiles, t);
}

const PIPS = {  // x, y (0-100, 0-140) of each pip; a pip below the middle is turned
  1: [[50, 70]],
  2: [[50, 30], [50, 110]],
  3: [[50, 30], [50, 70], [50, 110]],
  4: [[32, 30], [68, 30], [32, 110], [68, 110]],
  5: [[32, 30], [68, 30], [50, 70], [32, 110], [68, 110]],
  6: [[32, 30], [68, 30], [32, 70], [68, 70], [32, 110], [68, 110]],
  7: [[32, 30], [68, 30], [50, 50], [32, 70], [68, 70], [32, 110], [68, 110]],
  8: [[32, 30], [68, 30], [50, 50], [32, 70], [68, 70], [50, 90], [32, 110], [68, 110]],
  9: [[32, 28], [68, 28], [32, 56], [68, 56], [50, 70], [32, 84], [68, 84], [32, 112],
    [68, 112]],
  10: [[32, 28], [68, 28], [50, 42], [32, 56], [68, 56], [32, 84], [68, 84], [50, 98],
    [32, 112], [68, 112]],
};

// The suits' colours: red and black, or with the four-colour deck (a setting of the page,
// for colour-blind players) diamonds blue and clubs green.
const SUIT_COLOURS = {
  two: {h: "#c62828", d: "#c62828", c: "#1d1d1f", s: "#1d1d1f"},
  four: {h: "#c62828", d: "#1f5fbf", c: "#2e7d32", s: "#1d1d1f"},
};
const TILE_COLOURS = {r: "#c62828", y: "#b7860b", b: "#1f5fbf", k: "#1d1d1f"};
const FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";
let deck = "two";

/** The four-colour deck on or off (the cards drawn from now on). */
export function setFourColours(on) {
  deck = on ? "four" : "two";
}

// The drawings, in the units of a card 100 x 140 (a tile 70 x 96), on a 2D canvas. Text
// is written in one font size, scaled: a canvas's font is set only when the weight
// changes (setting a font costs more than drawing a pip).
const EM = 20;
const FONTS = new WeakMap();  // the font each context was last given

function text(g, value, x, y, size, {weight = 400, align = "center", middle = false,
  turn = false} = {}) {
  const font = `${weight} ${EM}px ${FONT}`;
  if (FONTS.get(g) !== font) {
    g.font = font;
    FONTS.set(g, font);
  }
  g.textAlign = align;
  g.textBaseline = middle ? "middle" : "alphabetic";
  const place = g.getTransform();
  g.translate(x, y);
  if (turn) g.rotate(Math.PI);
  g.scale(size / EM, size / EM);
  g.fillText(value, 0, 0);
  g.setTransform(place);
}

function rounded(g, x, y, width, height, radius) {
  g.beginPath();
  if (g.roundRect) g.roundRect(x, y, width, height, radius);
  else g.rect(x, y, width, height);  // an older WebView
}

function plate(g, width, height, fill, stroke, line) {
  rounded(g, 1, 1, width - 2, height - 2, 8);
  g.fillStyle = fill;
  g.fill();
  g.lineWidth = line;
  g.strokeStyle = stroke;
  g.stroke();
}

function drawCard(g, code, lang) {
  const c = parseCode(code, false);
  plate(g, 100, 140, "#fffdf8", "#b9b4a8", 1.5);
  if (c.joker) {
    g.fillStyle = "#7b1fa2";
    text(g, "★", 12, 22, 16, {weight: 700, align: "left"});
    text(g, "🃏", 50, 76, 46);
    g.letterSpacing = `${2 * EM / 15}px`;  // 2 units at the size of 15
    text(g, "JOKER", 50, 118, 15, {weight: 700});
    return;
  }
  const sign = SUIT_SIGNS[c.suit];
  const colour = SUIT_COLOURS[deck][c.suit];
  const index = (INDEX[lang] || INDEX.en)[c.rank] || c.rank;
  g.fillStyle = colour;
  const place = g.getTransform();
  for (const turn of [false, true]) {
    if (turn) {
      g.translate(50, 70);
      g.rotate(Math.PI);
      g.translate(-50, -70);
    }
    text(g, index, index === "10" ? 16 : 14, 22, index === "10" ? 19 : 22, {weight: 700});
    text(g, sign, 14, 40, 17);
    g.setTransform(place);
  }
  const pip = (px, py, size) => {
    // drawn a little inside the grid so the pips keep clear of the corner indices
    const x = Math.round(50 + (px - 50) * 0.88);
    const y = Math.round(70 + (py - 70) * 0.9);
    text(g, sign, x, y, size, {middle: true, turn: y > 72});
  };
  if (c.rank === "a") {
    pip(50, 72, 52);
  } else if (PIPS[c.rank]) {
    for (const [x, y] of PIPS[c.rank]) pip(x, y, 19);
  } else {  // court card: a framed letter with the suit
    g.save();
    g.globalAlpha = 0.6;
    g.lineWidth = 1.2;
    g.strokeStyle = colour;
    rounded(g, 24, 22, 52, 96, 4);
    g.stroke();
    g.restore();
    text(g, index, 50, 66, 38, {weight: 700});
    text(g, sign, 50, 100, 26);
  }
}

function drawTile(g, code) {
  const c = parseCode(code, true);
  plate(g, 70, 96, "#fbf6e9", "#c9bfa6", 1.5);
  if (c.joker) {
    g.fillStyle = "#c2185b";
    text(g, "★", 35, 50, 40, {middle: true});
    text(g, "JOLY", 35, 84, 12);
    return;
  }
  g.fillStyle = TILE_COLOURS[c.colour];
  text(g, String(c.number), 35, 46, 36, {weight: 800, middle: true});
  g.beginPath();
  g.arc(35, 80, 5, 0, 2 * Math.PI);
  g.fill();
}

function drawBack(g, tiles) {
  const [width, height] = tiles ? [70, 96] : [100, 140];
  plate(g, width, height, "#1f4f8f", "#fff", 2);
  if (tiles) return;
  rounded(g, 10, 10, 80, 120, 4);
  g.setLineDash([4, 3]);
  g.lineWidth = 2;
  g.strokeStyle = "#9fc2ff";
  g.stroke();
}

/** The size in pixels of a card's (or a tile's) picture drawn at `scale` pixels a unit. */
export function pictureSize(tiles, scale) {
  const [width, height] = tiles ? [70, 96] : [100, 140];
  return [Math.round(width * scale), Math.round(height * scale)];
}

/**
 * Draws a picture on the 2D context `g` of a canvas (an OffscreenCanvas too) of
 * `pictureSize(tiles, scale)` pixels: the face of `code` in the language `lang` (its
 * indices), or the back when `code` is null. The four-colour deck as set last.
 */
export function paint(g, tiles, code, lang) {
  const [width, height] = tiles ? [70, 96] : [100, 140];
  g.setTransform(g.canvas.width / width, 0, 0, g.canvas.height / height, 0, 0);
  g.clearRect(0, 0, width, height);
  g.setLineDash([]);
  g.letterSpacing = "0px";
  g.globalAlpha = 1;
  if (code === null) drawBack(g, tiles);
  else if (tiles) drawTile(g, code);
  else drawCard(g, code, lang);
}

const scale = () => Math.min(3, Math.max(1, window.devicePixelRatio || 1));

// A picture as a PNG data: URL, drawn on this page's thread on one canvas per size.
const CANVASES = new Map();

function picture(tiles, code, lang) {
  const key = `${tiles}:${scale()}`;
  let g = CANVASES.get(key);
  if (!g) {
    const canvas = document.createElement("canvas");
    [canvas.width, canvas.height] = pictureSize(tiles, scale());
    g = canvas.getContext("2d");
    CANVASES.set(key, g);
  }
  paint(g, tiles, code, lang);
  return g.canvas.toDataURL("image/png");
}

// Every picture is a PNG drawn once on a canvas, the background of a span: a rule of the
// page's own style sheet per picture (`.art-7`). A bitmap is decoded off the page's main
// thread and painted as one image; an SVG picture was a document of its own that the
// browser parsed when a card was first shown (up to 100 ms on a slow, busy phone) and
// painted anew for every card. This counts when a redraw on a slow phone comes while
// cards fly.
const ART = new Map();
const READY = new Map();  // pictures from the worker (data: URLs), a rule once first shown
let sheet = null;

// How many pictures the page holds, drawn or ready, on <html data-pictures> (for tests).
function counted() {
  document.documentElement.dataset.pictures = String(ART.size + READY.size);
}

function addArt(key, url) {
  if (!sheet) {  // a <style> of its own (older WebViews have no constructed sheets)
    const element = document.createElement("style");
    document.head.appendChild(element);
    sheet = element.sheet;
  }
  const name = `art-${ART.size}`;
  sheet.insertRule(`.${name}{background-image:url("${url}")}`, sheet.cssRules.length);
  ART.set(key, name);
  READY.delete(key);
  counted();
  return name;
}

const faceKey = (code, tiles, lang) => `${tiles ? "t" : `c${deck}`}:${lang}:${code}`;
const backKey = (tiles) => (tiles ? "t:back" : "c:back");

function art(name, tiles) {
  const node = document.createElement("span");
  node.className = `art ${tiles ? "art-tile" : "art-card"} ${name}`;
  node.setAttribute("aria-hidden", "true");
  return node;
}

// A picture becomes a rule of the style sheet when it is first shown (a rule added to the
// sheet makes the browser match the pictures' style again: one at a time, not a deck at
// once); one not drawn yet is drawn now, on this thread (the first screen's cards).
function artName(key, tiles, code, lang) {
  return ART.get(key) || addArt(key, READY.get(key) || picture(tiles, code, lang));
}

const faceName = (code, tiles, lang) => artName(faceKey(code, tiles, lang), tiles, code,
  lang);
const backName = (tiles) => artName(backKey(tiles), tiles, null, null);

// The rest of a deck's pictures are drawn once its first card is shown, so a card seen
// for the first time later costs its redraw nothing more: by a worker on a canvas of its
// own (painter.js: nothing of it on the page's thread, which keeps the cards flying),
// where the browser has none in idle time, a few at a time.
const DECKS = new Set();
const RANKS = ["a", "2", "3", "4", "5", "6", "7", "8", "9", "10", "j", "q", "k"];
const waiting = [];
let painter;  // the worker (null: none), made with the first deck
const asked = [];  // what the worker was asked for and has not answered yet

function wholeDeck(tiles, lang) {
  const key = `${tiles ? "t" : `c${deck}`}:${lang}`;
  if (DECKS.has(key)) return;
  DECKS.add(key);
  const items = [{key: backKey(tiles), tiles, code: null, lang: null}];
  for (const first of tiles ? ["r", "y", "b", "k"] : ["c", "d", "h", "s"]) {
    RANKS.forEach((rank, i) => {
      const code = tiles ? `${first}${i + 1}` : `${rank}${first}`;
      items.push({key: faceKey(code, tiles, lang), tiles, code, lang});
    });
  }
  items.push({key: faceKey("jk", tiles, lang), tiles, code: "jk", lang});
  const wanted = items.filter((item) => !ART.has(item.key) && !READY.has(item.key));
  if (painter === undefined) painter = startPainter();
  if (painter) {
    asked.push({deck, items: wanted});
    painter.postMessage({deck, scale: scale(), items: wanted});
  } else {
    drawLater(wanted, deck);
  }
}

function startPainter() {
  if (typeof OffscreenCanvas !== "function" || typeof Worker !== "function" ||
      !OffscreenCanvas.prototype.convertToBlob) {
    return null;
  }
  try {
    const worker = new Worker(new URL("./painter.js", import.meta.url), {type: "module"});
    worker.onerror = () => {  // the worker did not start: the page draws what it asked
      painter = null;
      for (const {deck: shown, items} of asked.splice(0)) {
        drawLater(items.filter((item) => !ART.has(item.key)), shown);
      }
    };
    worker.onmessage = ({data}) => {
      asked.shift();
      if (data.failed) {  // this browser's worker cannot draw: the page draws the rest
        painter = null;
        drawLater(data.failed.filter((item) => !ART.has(item.key)), data.deck);
        return;
      }
      for (const {key, url} of data.done) {
        if (!ART.has(key)) READY.set(key, url);
      }
      counted();
    };
    return worker;
  } catch {
    return null;
  }
}

function drawLater(items, shown) {
  if (!items.length) return;
  if (!waiting.length) idle(drawWaiting);
  for (const {key, tiles, code, lang} of items) {
    waiting.push(() => shown === deck && artName(key, tiles, code, lang));
  }
}

function idle(callback) {
  if (window.requestIdleCallback) requestIdleCallback(callback, {timeout: 3000});
  else setTimeout(() => callback({timeRemaining: () => 0}), 50);
}

// An idle callback draws while more than 30 of its (at most 50) ms are left: at most a
// picture past 20 ms, a short task even on a slow phone.
function drawWaiting(deadline) {
  do {
    waiting.shift()();
  } while (waiting.length && deadline.timeRemaining() > 30);
  if (waiting.length) idle(drawWaiting);
}

/** The picture of a card or tile as a new element (an image as its background). */
export function faceNode(code, tiles, lang) {
  wholeDeck(tiles, lang);
  return art(faceName(code, tiles, lang), tiles);
}

/** A face-down card or tile as a new element (an image as its background). */
export function backNode(tiles) {
  return art(backName(tiles), tiles);
}

/**
 * A card element: `<span class="card" role="img" aria-label=... data-card=code>` (or a
 * button when `button` is set). A joker on the table (`entry` = [joker, face]) is labelled
 * with what it stands for and shows the face in a badge.
 */
export function cardElement(entry, tiles, lang, t, {button = false} = {}) {
  const code = Array.isArray(entry) ? entry[0] : entry;
  const node = document.createElement(button ? "button" : "span");
  node.className = tiles ? "card tile-card" : "card";
  node.dataset.card = code;
  const label = placedName(entry, tiles, t);
  if (button) {
    node.type = "button";
    node.setAttribute("aria-label", label);
  } else {
    node.setAttribute("role", "img");
    node.setAttribute("aria-label", label);
  }
  node.appendChild(faceNode(code, tiles, lang));
  if (Array.isArray(entry)) {
    const badge = document.createElement("span");
    badge.className = "stands-for";
    badge.dataset.face = entry[1];
    badge.setAttribute("aria-hidden", "true");
    badge.textContent = shortText(entry[1], tiles, lang);
    node.appendChild(badge);
  }
  return node;
}

/** The short display form of a code: "D♥" / "Q♥", tiles "r7" as "7". */
export function shortText(code, tiles, lang) {
  const c = parseCode(code, tiles);
  if (c.joker) return "★";
  if (tiles) return String(c.number);
  return ((INDEX[lang] || INDEX.en)[c.rank] || c.rank) + SUIT_SIGNS[c.suit];
}
