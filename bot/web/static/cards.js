// Cards and tiles of the web table: names in the reader's language and the pictures.
// The pictures are this project's own SVG drawings (see LICENSES.md): a card has its
// corner indices, the pips of its rank or a framed court letter; a tile its number in
// one of the four colours, the Joly a star. Every card is a DOM element with a label
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

function pip(px, py, sign, size) {
  // drawn a little inside the grid so the pips keep clear of the corner indices
  const x = Math.round(50 + (px - 50) * 0.88);
  const y = Math.round(70 + (py - 70) * 0.9);
  const turn = y > 72 ? ` transform="rotate(180 ${x} ${y})"` : "";
  return `<text x="${x}" y="${y}" font-size="${size}" text-anchor="middle"` +
    ` dominant-baseline="central"${turn}>${sign}</text>`;
}

function cardSvg(code, lang) {
  const c = parseCode(code, false);
  if (c.joker) {
    return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 140" aria-hidden="true" focusable="false">` +
      `<rect class="face" x="1" y="1" width="98" height="138" rx="8"/>` +
      `<g class="joker"><text x="12" y="22" font-size="16" font-weight="700">★</text>` +
      `<text x="50" y="76" font-size="46" text-anchor="middle">🃏</text>` +
      `<text x="50" y="118" font-size="15" font-weight="700" text-anchor="middle"` +
      ` letter-spacing="2">JOKER</text></g></svg>`;
  }
  const sign = SUIT_SIGNS[c.suit];
  const index = (INDEX[lang] || INDEX.en)[c.rank] || c.rank;
  const corner = `<text x="${index === "10" ? 16 : 14}" y="22" font-size="${index === "10" ?
    19 : 22}" font-weight="700" text-anchor="middle">${index}</text>` +
    `<text x="14" y="40" font-size="17" text-anchor="middle">${sign}</text>`;
  let middle;
  if (c.rank === "a") {
    middle = pip(50, 72, sign, 52);
  } else if (PIPS[c.rank]) {
    middle = PIPS[c.rank].map(([x, y]) => pip(x, y, sign, 19)).join("");
  } else {  // court card: a framed letter with the suit
    middle = `<rect class="frame" x="24" y="22" width="52" height="96" rx="4"/>` +
      `<text x="50" y="66" font-size="38" font-weight="700" text-anchor="middle">${index}` +
      `</text><text x="50" y="100" font-size="26" text-anchor="middle">${sign}</text>`;
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 140" aria-hidden="true" focusable="false">` +
    `<rect class="face" x="1" y="1" width="98" height="138" rx="8"/>` +
    `<g class="suit-${c.suit}">${corner}` +
    `<g transform="rotate(180 50 70)">${corner}</g>${middle}</g></svg>`;
}

function tileSvg(code) {
  const c = parseCode(code, true);
  if (c.joker) {
    return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 70 96" aria-hidden="true" focusable="false">` +
      `<rect class="tile" x="1" y="1" width="68" height="94" rx="8"/>` +
      `<text class="joly" x="35" y="50" font-size="40" text-anchor="middle"` +
      ` dominant-baseline="central">★</text>` +
      `<text class="joly" x="35" y="84" font-size="12" text-anchor="middle">JOLY</text></svg>`;
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 70 96" aria-hidden="true" focusable="false">` +
    `<rect class="tile" x="1" y="1" width="68" height="94" rx="8"/>` +
    `<text class="tile-${c.colour}" x="35" y="46" font-size="36" font-weight="800"` +
    ` text-anchor="middle" dominant-baseline="central">${c.number}</text>` +
    `<circle class="tile-${c.colour}" cx="35" cy="80" r="5"/></svg>`;
}

/** The picture of a card or tile (an SVG string). */
export function faceSvg(code, tiles, lang) {
  return tiles ? tileSvg(code) : cardSvg(code, lang);
}

// The suits' colours: red and black, or with the four-colour deck (a setting of the page,
// for colour-blind players) diamonds blue and clubs green.
const SUIT_COLOURS = {
  two: {h: "#c62828", d: "#c62828", c: "#1d1d1f", s: "#1d1d1f"},
  four: {h: "#c62828", d: "#1f5fbf", c: "#2e7d32", s: "#1d1d1f"},
};
let deck = "two";

/** The four-colour deck on or off (the cards drawn from now on). */
export function setFourColours(on) {
  deck = on ? "four" : "two";
}

// The drawings' colours: an image carries its own (the page's CSS does not reach into it).
const ART_STYLE = "<style>.face{fill:#fffdf8;stroke:#b9b4a8;stroke-width:1.5}" +
  ".frame{fill:none;stroke:currentColor;stroke-width:1.2;opacity:.6}.joker{fill:#7b1fa2}" +
  ".back{fill:#1f4f8f;stroke:#fff;stroke-width:2}" +
  ".back-pattern{fill:none;stroke:#9fc2ff;stroke-width:2;stroke-dasharray:4 3}" +
  ".tile{fill:#fbf6e9;stroke:#c9bfa6;stroke-width:1.5}.tile-r{fill:#c62828}" +
  ".tile-y{fill:#b7860b}.tile-b{fill:#1f5fbf}.tile-k{fill:#1d1d1f}.joly{fill:#c2185b}" +
  "text{font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif}</style>";

// Every drawing is an image of its SVG, the background of a span: a rule of the page's
// own style sheet per card (`.art-7`), made once. The page lays out and paints that far
// quicker than an inline SVG of a dozen texts, and a span of a known class costs a
// redraw less than an image element (whose long data: URL each one would parse again):
// this counts when a redraw on a slow phone comes while cards fly.
const ART = new Map();
let sheet = null;

function art(key, svg, tiles) {
  let name = ART.get(key);
  if (!name) {
    const suits = Object.entries(SUIT_COLOURS[deck])
      .map(([suit, colour]) => `.suit-${suit}{fill:${colour};color:${colour}}`).join("");
    const style = ART_STYLE.replace("</style>", `${suits}</style>`);
    const url = "data:image/svg+xml," +
      encodeURIComponent(svg.replace(/(<svg[^>]*>)/, `$1${style}`));
    if (!sheet) {  // a <style> of its own (older WebViews have no constructed sheets)
      const element = document.createElement("style");
      document.head.appendChild(element);
      sheet = element.sheet;
    }
    name = `art-${ART.size}`;
    sheet.insertRule(`.${name}{background-image:url("${url}")}`, sheet.cssRules.length);
    ART.set(key, name);
  }
  const node = document.createElement("span");
  node.className = `art ${tiles ? "art-tile" : "art-card"} ${name}`;
  node.setAttribute("aria-hidden", "true");
  return node;
}

/** The picture of a card or tile as a new element (an image as its background). */
export function faceNode(code, tiles, lang) {
  return art(`${tiles ? "t" : `c${deck}`}:${lang}:${code}`, faceSvg(code, tiles, lang), tiles);
}

/** A face-down card or tile as a new element (an image as its background). */
export function backNode(tiles) {
  return art(tiles ? "t:back" : "c:back", backSvg(tiles), tiles);
}

/** A face-down card or tile. */
export function backSvg(tiles) {
  return tiles
    ? `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 70 96" aria-hidden="true" focusable="false"><rect class="back"` +
      ` x="1" y="1" width="68" height="94" rx="8"/></svg>`
    : `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 140" aria-hidden="true" focusable="false"><rect class="back"` +
      ` x="1" y="1" width="98" height="138" rx="8"/><rect class="back-pattern" x="10" y="10"` +
      ` width="80" height="120" rx="4"/></svg>`;
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
