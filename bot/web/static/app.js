// The web table's page: signs in (Telegram Mini App or Discord Activity), opens the
// table's WebSocket and lays out every screen the server sends (bot/web/protocol.py).
// The server is authoritative: the page only sends what the person taps.
import {discordActivity, signIn, signInTo} from "./signin.js";
import {followParticipants, showParticipants} from "./activity.js";
import {applyTheme} from "./theme.js";
import {backNode, cardElement, setFourColours} from "./cards.js";
import {clockText, countText as counted} from "./format.js";
import {handView, springBack} from "./hand.js";
import {backButton, haptic} from "./platform.js";
import {play, snapshot} from "./motion.js";
import {patch, patchChildren} from "./patch.js";
import {screenSounds, setSounds} from "./sound.js";
import {ReplayWalk, SPEEDS} from "./replay.js";

const state = {
  strings: {}, locale: "en", token: null, table: null, screen: null, socket: null,
  pageId: Math.random().toString(36).slice(2, 10), presses: 0, retry: 0, busy: false,
  order: null, selected: new Set(), panel: null, log: [], rules: null, lastError: null,
  hold: false, later: false, waitHand: null, fourColours: false, sounds: false,
  replay: null, live: null,
};

export function t(msgid) {
  return state.strings[msgid] ?? msgid;
}

async function loadStrings(lang) {
  const response = await fetch(`./api/strings?lang=${encodeURIComponent(lang || "")}`);
  const data = await response.json();
  state.strings = data.strings;
  state.locale = data.locale;
  document.documentElement.lang = data.locale;
}

function status(text) {
  const app = document.getElementById("app");
  app.replaceChildren();
  const p = document.createElement("p");
  p.className = "status";
  p.id = "status";
  p.textContent = text;
  app.appendChild(p);
}

function toast(text, ok = true, kind = "reply") {
  if (!text) return;
  let box = document.getElementById("toast");
  if (!box) {
    box = document.createElement("div");
    box.id = "toast";
    box.setAttribute("role", "status");
    document.body.appendChild(box);
  }
  box.textContent = text;
  box.className = ok ? "toast" : "toast refused";
  box.dataset.kind = kind;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { box.className = "toast hidden"; }, 6000);
}

// The coach's notes after a deal: a panel of their own above the table, kept across
// redraws until closed (it lives outside #app, which every screen redraws).
function showCoach(text) {
  let panel = document.getElementById("coach");
  if (!panel) {
    panel = document.createElement("section");
    panel.id = "coach";
    panel.setAttribute("aria-labelledby", "coach-title");
    document.body.insertBefore(panel, document.body.firstChild);
  }
  panel.replaceChildren();
  const title = document.createElement("h2");
  title.id = "coach-title";
  title.textContent = t("Coach");
  const body = document.createElement("pre");
  body.className = "coach-text";
  body.textContent = text;
  const close = document.createElement("button");
  close.type = "button";
  close.textContent = t("Close");
  close.addEventListener("click", () => panel.remove());
  panel.append(title, body, close);
  panel.hidden = false;
}

// The connection is back: its "connecting again" toast goes at once.
function connected() {
  document.body.classList.remove("offline");
  const box = document.getElementById("toast");
  if (box && box.dataset.kind === "connection") box.className = "toast hidden";
}

// What changed, said once by screen readers (the page itself is not a live region, so
// a redraw is not read out again): the new lines and the start of the person's turn.
function announce(lines) {
  const box = document.getElementById("announce");
  if (box && lines.length) box.textContent = lines.join(" ");
}

// --- the WebSocket ----------------------------------------------------------------------

const FINAL_CLOSE_CODES = new Set([4001, 4002, 4003]);

function connect() {
  const url = new URL(`./ws?token=${encodeURIComponent(state.token)}`, location.href);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  const socket = new WebSocket(url);
  state.socket = socket;
  socket.onopen = () => {
    state.retry = 0;
    connected();
  };
  socket.onmessage = (event) => receive(JSON.parse(event.data));
  socket.onclose = (event) => {
    if (state.socket !== socket) return;
    state.socket = null;
    document.body.classList.add("offline");
    // 4001 the session was refused, 4002 malformed messages, 4003 too many pages of this
    // session (bot/web/protocol.py): connecting again cannot help; say why and stop.
    if (FINAL_CLOSE_CODES.has(event.code)) {
      status(state.lastError
             || t("This page was closed; open the table again from the chat."));
      return;
    }
    toast(t("Connection lost; connecting again…"), false, "connection");
    const delay = Math.min(1000 * 2 ** state.retry, 10000);
    state.retry += 1;
    setTimeout(connect, delay);
  };
}

export function send(message) {
  if (!state.socket || state.socket.readyState !== WebSocket.OPEN) return false;
  state.socket.send(JSON.stringify({table: state.table, ...message}));
  return true;
}

function receive(message) {
  connected();
  if (message.type === "screen") {
    if (state.replay) {  // the table goes on; it is drawn again when the replay ends
      state.live = message;
      return;
    }
    const before = state.screen;
    if (before && message.version < before.version) return;
    if (message.locale && message.locale !== state.locale) {
      loadStrings(message.locale).then(() => show(message, before));
      return;
    }
    show(message, before);
  } else if (message.type === "hand") {
    if (!state.screen || message.version !== state.screen.version) return;
    state.screen.hand = message.hand;
    state.selected = new Set(message.hand.selected);
    if (state.waitHand) state.waitHand(message.hand);
    renderHand();
  } else if (message.type === "reply") {
    state.busy = false;
    if (!message.ok) release();
    if (!message.ok) haptic("refused");
    toast(message.text, message.ok);
    renderHand();
  } else if (message.type === "coach") {
    showCoach(message.text);
  } else if (message.type === "warn" || message.type === "error") {
    if (message.type === "error") state.lastError = message.text;
    toast(message.text, false);
  }
}

// The turn timer counts down on the page from the seconds the server said were left.
function timerText(deadline) {
  return t("Turn time: {time}").replace("{time}", clockText((deadline - Date.now()) / 1000));
}

setInterval(() => {
  const node = document.querySelector("header .timer");
  if (node && state.screen && state.screen.deadline) {
    node.textContent = timerText(state.screen.deadline);
  }
}, 1000);

function show(screen, before) {
  if (state.busy) state.hold = false;  // the screen after a drop's press
  state.busy = false;
  if (screen.public && screen.public.turn_left !== null) {
    screen.deadline = Date.now() + screen.public.turn_left * 1000;
  }
  const hand = screen.hand;
  const oldHand = before && before.hand;
  if (hand) {
    state.selected = new Set(hand.selected);
    state.order = keepOrder(state.order, oldHand, hand);
  } else {
    state.order = null;
  }
  const news = [...screen.notices, ...screen.events];
  if (screen.recent) state.log = [];  // a new page: the table's last changes
  for (const line of news) state.log.push(line);
  state.log = state.log.slice(-8);
  const turnStarts = hand && hand.turn && !(oldHand && oldHand.turn);
  if (turnStarts && before) haptic("turn");
  screenSounds(before, screen);
  if (!screen.recent) announce(turnStarts && hand.phase ? [...news, hand.phase] : news);
  state.screen = screen;
  render();
}

// The person's own order (after dragging) survives a new hand: the cards still held
// keep their places, new ones come last. Without dragging the server's order is used.
function keepOrder(order, oldHand, hand) {
  if (!order || !oldHand || oldHand.sort !== hand.sort) return null;
  const wanted = order.map((i) => oldHand.cards[i]);
  const free = hand.cards.map((code, i) => [code, i]);
  const result = [];
  for (const code of wanted) {
    const at = free.findIndex(([c]) => c === code);
    if (at >= 0) result.push(free.splice(at, 1)[0][1]);
  }
  return [...result, ...free.map(([, i]) => i)];
}

// --- actions ----------------------------------------------------------------------------

export const actions = {
  toggle(index) {
    const screen = state.screen;
    if (!screen || !screen.hand) return;
    if (state.selected.has(index)) state.selected.delete(index); else state.selected.add(index);
    haptic("select");
    send({type: "select", version: screen.version, sort: screen.hand.sort,
      selected: [...state.selected].sort((a, b) => a - b)});
    renderHand();
  },
  clear() {
    state.selected.clear();
    const screen = state.screen;
    if (screen && screen.hand) {
      send({type: "select", version: screen.version, sort: screen.hand.sort, selected: []});
    }
    renderHand();
  },
  sort(word) {
    state.order = null;
    send({type: "sort", sort: word});
  },
  hint() {
    send({type: "hint"});
  },
  press(number) {
    const screen = state.screen;
    if (!screen || !screen.hand || state.busy) return false;
    state.busy = true;
    state.presses += 1;
    const sent = send({type: "offer", version: screen.version, digest: screen.hand.digest,
      sort: screen.hand.sort, selected: [...state.selected].sort((a, b) => a - b),
      offer: number, id: `${state.pageId}-${state.presses}`});
    renderHand();
    return sent;
  },
  reorder(from, to) {
    const hand = state.screen && state.screen.hand;
    if (!hand) return;
    const order = state.order ? [...state.order] : hand.cards.map((_, i) => i);
    const [moved] = order.splice(from, 1);
    order.splice(to, 0, moved);
    state.order = order;
    renderHand();
  },
  hold(on) {
    hold(on);
  },
  // Cards dragged onto the pile, the table or a meld: the offer of that kind for exactly
  // these cards is pressed (the server's offers for this selection, asked first when the
  // selection was another); without one the cards spring back and the page says why.
  async drop(indices, where, meld, nodes) {
    const screen = state.screen;
    if (screen !== state.drawn) {  // a new screen came during the drag: its cards differ
      giveBack(nodes);
      return;
    }
    const wanted = [...indices].sort((a, b) => a - b);
    const same = (list) => list.length === wanted.length && list.every((v, i) => v === wanted[i]);
    let hand = screen && screen.hand;
    if (hand && hand.turn && !same([...state.selected].sort((a, b) => a - b))) {
      hand = await new Promise((resolve) => {
        const timer = setTimeout(() => resolve(null), 4000);
        state.waitHand = (next) => {
          if (!same(next.selected)) return;
          clearTimeout(timer);
          resolve(next);
        };
        if (!send({type: "select", version: screen.version, sort: screen.hand.sort,
          selected: wanted})) resolve(null);
      });
      state.waitHand = null;
    }
    const number = hand ? dropOffer(hand, where, meld) : -1;
    if (number < 0 || state.screen !== screen) {
      giveBack(nodes);
      haptic("refused");
      toast(dropRefusal(hand, where), false);
      return;
    }
    if (!actions.press(number)) {
      giveBack(nodes);
      return;
    }
    // the cards stay where they were let go until the new screen flies them on; a
    // screen that does not come (a lost connection) lets them go back
    setTimeout(() => {
      if (state.hold && state.screen === screen) giveBack(nodes);
    }, 5000);
  },
  // The four-colour deck (diamonds blue, clubs green), kept on this device.
  fourColours() {
    state.fourColours = !state.fourColours;
    setFourColours(state.fourColours);
    try {
      localStorage.setItem(FOUR_COLOURS, state.fourColours ? "1" : "0");
    } catch {
      // no storage (a private window): the setting lasts as long as the page
    }
    render();
  },
  // Sounds (off unless turned on), kept on this device.
  sounds() {
    state.sounds = !state.sounds;
    setSounds(state.sounds, true);
    try {
      localStorage.setItem(SOUNDS, state.sounds ? "1" : "0");
    } catch {
      // no storage: the setting lasts as long as the page
    }
    render();
  },
  async panel(name) {
    state.panel = state.panel === name ? null : name;
    backButton(state.panel !== null, () => actions.panel(null));
    if (state.panel && state.panel !== "sheet" && !state.rules) {
      const response = await fetch(`./api/rules?token=${encodeURIComponent(state.token)}`);
      if (response.ok) state.rules = await response.json();
    }
    render();
  },
};

// The offer a drop onto `where` ("pile", "table" or "meld" number `meld`) presses: a
// discard, a new meld, a lay-off onto that meld (a drop onto a meld that takes none of
// them may still be a new meld); -1 when the server offers none of them.
function dropOffer(hand, where, meld) {
  const find = (test) => hand.offers.findIndex((offer) => offer.group === "move" && test(offer));
  if (where === "pile") return find((offer) => offer.kind === "discard");
  if (where === "meld") {
    const found = find((offer) => offer.kind === "layoff" && offer.meld === meld);
    if (found >= 0) return found;
  }
  return find((offer) => offer.kind === "meld");
}

function dropRefusal(hand, where) {
  if (!hand || !hand.turn) return t("It is not your turn.");
  if (where === "pile") return t("You cannot discard that now.");
  if (where === "meld") return t("That does not fit this meld now.");
  return t("That is not a meld you can lay down now.");
}

// --- layout -----------------------------------------------------------------------------

const AI_LEVELS = ["easy", "normal", "hard", "expert"];
const FOUR_COLOURS = "rummy.fourColours";
const SOUNDS = "rummy.sounds";

function stored(key) {
  try {
    return localStorage.getItem(key) === "1";
  } catch {
    return false;
  }
}

// The lobby's steps, as under the chat's table message: join, leave, an AI seat of each
// level, start (the server refuses what the person may not do, e.g. start as a guest).
function lobbyButtons() {
  const lobby = (action, level) => () => send({type: "lobby", action,
    ...(level ? {level} : {})});
  const row = el("div", {class: "lobby-actions", role: "group"},
    el("button", {type: "button", "data-action": "join", text: t("Join"),
      onclick: lobby("join")}),
    el("button", {type: "button", class: "secondary", "data-action": "leave",
      text: t("Leave"), onclick: lobby("leave")}));
  for (const level of AI_LEVELS) {
    row.appendChild(el("button", {type: "button", class: "secondary",
      "data-action": `addbot-${level}`, text: `+🤖 ${t(level)}`,
      onclick: lobby("addbot", level)}));
  }
  row.appendChild(el("button", {type: "button", "data-action": "start", text: t("Start"),
    onclick: lobby("start")}));
  return row;
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (value !== false && value !== null && value !== undefined) {
      node.setAttribute(key, value === true ? "" : value);
    }
  }
  for (const child of children) if (child) node.append(child);
  return node;
}

function countText(n, tiles) {
  return counted(t, n, tiles);
}

// Where each seat sits on a desktop table: the person's own at the bottom, the others
// from the left over the top to the right in playing order (one other: at the top).
function seatPlaces(screen) {
  const count = screen.public.players.length;
  const mine = screen.seat;
  const others = [];
  for (let step = 1; step <= count; step += 1) {
    const seat = ((mine ?? -1) + step) % count;
    if (seat !== mine) others.push(seat);
  }
  const places = new Map();
  if (mine !== null) places.set(mine, {at: "mine"});
  if (others.length === 1) {
    places.set(others[0], {at: "top", col: 2});
    return {places, top: 1};
  }
  let col = 2;
  others.forEach((seat, i) => {
    if (i === 0) places.set(seat, {at: "left"});
    else if (i === others.length - 1) places.set(seat, {at: "right"});
    else places.set(seat, {at: "top", col: col++});
  });
  return {places, top: Math.max(1, col - 2)};
}

function seatsView(screen, places) {
  const pub = screen.public;
  const list = el("ol", {class: "seats", "aria-label": t("Players")});
  pub.players.forEach((player, seat) => {
    const marks = [];
    if (player.dealer) marks.push(t("dealer"));
    if (player.melded) marks.push(t("melded"));
    if (player.ai) marks.push(t("AI"));
    if (player.away) marks.push(t("the AI plays for now"));
    const current = pub.current === seat;
    const place = places.get(seat) || {at: "top"};
    const item = el("li", {class: `seat at-${place.at}${current ? " current" : ""}${
      seat === screen.seat ? " mine" : ""}`, "aria-current": current ? "true" : null,
    "data-seat": String(seat), style: place.col ? `--col: ${place.col}` : null},
    el("span", {class: "name", text: player.name + (seat === screen.seat ? ` (${t("You")})` :
      "")}),
    seat === screen.seat ? null : seatBacks(player.cards, screen.tiles),
    el("span", {class: "count", text: countText(player.cards, screen.tiles)}),
    el("span", {class: "score", text: player.score}),
    marks.length ? el("span", {class: "marks", text: marks.join(" · ")}) : null);
    list.appendChild(item);
  });
  return list;
}

// A seat's cards face down, a few of them fanned (a picture only: the count says it).
function seatBacks(count, tiles) {
  const fan = el("span", {class: "seat-backs", "aria-hidden": "true"});
  for (let i = 0; i < Math.min(count, 5); i += 1) {
    fan.appendChild(el("span", {class: "seat-back"}, backNode(tiles)));
  }
  return fan;
}

// A row of cards; each card keyed by its code and which of equal codes it is, so a card
// added to the pile or a meld is inserted and the others stay (patch.js).
function strip(cards, tiles, label) {
  const row = el("div", {class: "strip", role: "group", "aria-label": label});
  const seen = new Map();
  for (const entry of cards) {
    const node = cardElement(entry, tiles, state.locale, t);
    const n = seen.get(node.dataset.card) || 0;
    seen.set(node.dataset.card, n + 1);
    node.dataset.key = `${node.dataset.card}#${n}`;
    row.appendChild(node);
  }
  return row;
}

function pilesView(screen) {
  const pub = screen.public;
  const tiles = screen.tiles;
  const box = el("div", {class: "piles"});
  const stockLabel = `${t(tiles ? "Wall" : "Stock")}: ${t("{n} left").replace("{n}",
    String(pub.stock))}`;
  const stock = el("div", {class: "pile stock", role: "img", "aria-label": stockLabel});
  stock.appendChild(backNode(tiles));
  stock.appendChild(el("span", {class: "pile-count", text: String(pub.stock),
    "aria-hidden": "true"}));
  box.appendChild(el("figure", {class: "pile-box"}, stock,
    el("figcaption", {text: t(tiles ? "Wall" : "Stock")})));
  if (pub.face_up) {
    box.appendChild(el("figure", {class: "pile-box face-up"},
      cardElement(pub.face_up, tiles, state.locale, t),
      el("figcaption", {text: t("Face-up tile")})));
  }
  const title = t(tiles ? "Discard row" : "Discard pile");
  const discard = pub.discard.length ? strip(pub.discard, tiles, title)
    : el("div", {class: "pile empty", "aria-label": title});
  if (pub.discard.length > 1) discard.classList.add("spread");
  box.appendChild(el("figure", {class: "pile-box discard", "data-drop": "pile"}, discard,
    el("figcaption", {text: `${title} (${pub.discard_size})`})));
  return box;
}

function meldsView(screen) {
  const pub = screen.public;
  const section = el("section", {class: "melds", "aria-label": t("Melds"),
    "data-drop": "table"});
  if (!pub.melds.length) {
    section.appendChild(el("p", {class: "muted", text: t("No melds on the table yet.")}));
    return section;
  }
  pub.melds.forEach((meld, number) => {
    const owner = pub.players[meld.owner].name;
    const label = `${number + 1}. ${owner}`;
    section.appendChild(el("div", {class: "meld", "data-meld": String(number),
      "data-drop": "meld"},
    el("span", {class: "meld-owner", text: label}),
    strip(meld.cards, screen.tiles, label)));
  });
  return section;
}

function logView() {
  if (!state.log.length) return null;
  const list = el("ul", {class: "log"});
  for (const line of state.log.slice(-5)) list.appendChild(el("li", {text: line}));
  return el("section", {class: "last-moves", "aria-label": t("Last moves")},
    el("h2", {text: t("Last moves")}), list);
}

// The score sheet as a table: a row per player (this deal, the total, what was left),
// the lines below it (the deal's secret, the winners) and every deal so far.
function sheetTable(sheet) {
  const table = el("table", {class: "scores"}, el("caption", {text: sheet.title}));
  const head = el("tr");
  sheet.head.forEach((name) => head.appendChild(el("th", {scope: "col", text: name})));
  table.appendChild(el("thead", {}, head));
  const body = el("tbody");
  for (const row of sheet.rows) {
    const line = el("tr", {}, el("th", {scope: "row", text: row[0]}));
    for (const cell of row.slice(1)) line.appendChild(el("td", {text: cell}));
    body.appendChild(line);
  }
  table.appendChild(body);
  return table;
}

function sheetView(screen) {
  if (!screen.sheet) return null;
  const sheet = screen.sheet;
  const box = el("section", {class: "sheet", "aria-label": t("Score sheet")},
    el("h2", {text: t("Score sheet")}));
  if (sheet.rows) {
    box.appendChild(sheetTable(sheet));
    for (const line of sheet.lines) box.appendChild(el("p", {class: "sheet-line", text: line}));
    box.appendChild(el("details", {}, el("summary", {text: t("Every deal")}),
      el("pre", {text: sheet.scores})));
  } else {
    box.appendChild(el("pre", {text: sheet.text}));
  }
  screen.sheet.hands.forEach((hand, seat) => {
    if (!hand.length) return;
    box.appendChild(el("div", {class: "meld"},
      el("span", {class: "meld-owner", text: screen.public.players[seat].name}),
      strip(hand, screen.tiles, screen.public.players[seat].name)));
  });
  return box;
}

function panelView() {
  if (!state.panel || !state.rules) return null;
  const box = el("section", {class: "panel", role: "dialog", "aria-modal": "false",
    "aria-label": t(state.panel === "rules" ? "Rules of this table" : "How to play")});
  box.appendChild(el("button", {class: "close", type: "button", text: t("Close"),
    onclick: () => actions.panel(null)}));
  if (state.panel === "rules") {
    box.appendChild(el("h2", {text: t("Rules of this table")}));
    box.appendChild(el("pre", {text: state.rules.rules}));
  } else {
    box.appendChild(el("h2", {text: t("How to play")}));
    for (const section of state.rules.sections) {
      const part = el("details", {}, el("summary", {text: section.title}));
      for (const paragraph of section.paragraphs) part.appendChild(el("p", {text: paragraph}));
      for (const meld of section.melds) {
        part.appendChild(strip(meld.map((code) => (code.includes("=") ?
          code.split("=") : code)), state.screen ? state.screen.tiles : false, t("Example")));
      }
      if (section.example) part.appendChild(el("pre", {text: section.example}));
      box.appendChild(part);
    }
  }
  return box;
}

// The control that had the focus, as a selector that finds it again after a redraw (a
// card by its index in the hand, an offer by its number, a tool by its action), so a
// press keeps the focus where it was.
const FOCUS_KEYS = ["index", "offer", "sort", "action", "panel", "table"];

function focusKey(node) {
  if (!node || !node.dataset) return null;
  for (const key of FOCUS_KEYS) {
    const value = node.dataset[key];
    if (value !== undefined) return `[data-${key}="${CSS.escape(value)}"]`;
  }
  return null;
}

// A drag holds the page still: a screen that comes meanwhile is drawn when it ends.
export function hold(on) {
  state.hold = on;
  if (!on && state.later) render();
}

function release() {
  if (state.hold) hold(false);
}

// Dragged cards that were not played go back to the hand: the screen that came meanwhile
// is drawn (its cards fly back from where they were let go), or they spring back.
function giveBack(nodes) {
  if (state.later) {
    hold(false);
  } else {
    springBack(nodes);
    state.hold = false;
  }
}

// Only the hand changed (a selection and its offers, the order, a press under way): its
// section alone is drawn again, the rest of the table stays (a tap costs a slow phone
// less); anything else draws the whole table. Cards fly only when their order changed: a
// selected card rises by its own transition, and where nothing moves no box is read (the
// page is laid out once, in the next frame, not in this task).
function renderHand() {
  const screen = state.screen;
  const app = document.getElementById("app");
  const old = app.querySelector(".board > .hand");
  if (!screen || !screen.hand || screen !== state.drawn || !old || state.hold) {
    render();
    return;
  }
  const focused = focusKey(document.activeElement);
  const view = handView(screen, state, t, actions);
  const keys = (node) => [...node.querySelectorAll(".hand-row .card")]
    .map((card) => card.dataset.key).join(" ");
  const before = keys(old) === keys(view) ? null : snapshot(app, screen);
  patch(old, view);
  play(app, before, screen);
  if (focused) {
    const again = app.querySelector(focused);
    if (again) again.focus({preventScroll: true});
  }
}

function render() {
  const screen = state.screen;
  const app = document.getElementById("app");
  if (!screen) return;
  if (state.hold) {
    state.later = true;
    return;
  }
  state.later = false;
  const parts = [];
  const head = el("header", {class: "top"},
    el("h1", {text: t("Table {number}").replace("{number}", String(screen.table))}));
  if (screen.public) {
    head.appendChild(el("span", {class: "deal", text: t("Deal {number}").replace("{number}",
      String(screen.public.deal))}));
    if (screen.public.turn_left !== null) {
      head.appendChild(el("span", {class: "timer", role: "timer",
        text: timerText(screen.deadline)}));
    }
  }
  parts.push(head);
  if (state.replay) parts.push(replayControls());
  if (screen.status === "closed") {
    parts.push(el("p", {class: "status", text: t("The table is closed.")}));
  } else if (!screen.public) {
    parts.push(el("p", {class: "status", text: t("The game has not started yet.")}));
    if (screen.lobby) parts.push(el("pre", {class: "lobby", text: screen.lobby}));
    if (screen.status === "lobby") parts.push(lobbyButtons());
  } else {
    const lines = el("div", {class: "lines"});
    for (const line of screen.public.lines) lines.appendChild(el("p", {text: line}));
    parts.push(lines);
    parts.push(sheetView(screen));
    // the table: the seats around it, the piles and melds in the middle, the hand below
    const {places, top} = seatPlaces(screen);
    const board = el("div", {class: `board players-${screen.public.players.length}`,
      style: `--top: ${top}`},
    seatsView(screen, places),
    el("section", {class: "table-area"}, pilesView(screen), meldsView(screen)));
    if (screen.replayHands) {
      board.appendChild(replayHands(screen));
    } else if (screen.hand) {
      board.appendChild(handView(screen, state, t, actions));
    } else if (screen.seat === null) {
      board.appendChild(el("p", {class: "status spectator", text: t("You watch this table.")}));
    }
    parts.push(board);
    parts.push(logView());
  }
  parts.push(el("nav", {class: "bottom"},
    state.replay || !screen.public ? null : el("button", {type: "button",
      class: "secondary", "data-action": "replay", text: t("Replay"),
      onclick: () => openReplay(true)}),
    el("button", {type: "button", class: "secondary", text: t("Rules of this table"),
      "data-panel": "rules", "aria-expanded": state.panel === "rules" ? "true" : "false",
      onclick: () => actions.panel("rules")}),
    el("button", {type: "button", class: "secondary", text: t("How to play"),
      "data-panel": "howto", "aria-expanded": state.panel === "howto" ? "true" : "false",
      onclick: () => actions.panel("howto")}),
    screen.tiles ? null : el("button", {type: "button", class: "secondary",
      "data-action": "four-colours", text: t("Four-colour deck"),
      "aria-pressed": state.fourColours ? "true" : "false",
      onclick: () => actions.fourColours()}),
    el("button", {type: "button", class: "secondary", "data-action": "sounds",
      text: t("Sounds"), "aria-pressed": state.sounds ? "true" : "false",
      onclick: () => actions.sounds()})));
  parts.push(panelView());
  const focused = focusKey(document.activeElement);
  const before = snapshot(app, state.drawn);
  patchChildren(app, parts.filter(Boolean));
  play(app, before, screen);
  state.drawn = screen;
  if (focused) {
    const again = app.querySelector(focused);
    if (again) again.focus({preventScroll: true});
  }
  app.dataset.version = String(screen.version);
  app.dataset.status = screen.status;
  app.dataset.phase = screen.public ? screen.public.phase : "";
  if (state.replay) {
    app.dataset.replayDeal = String(state.replay.position.deal);
    app.dataset.replayMove = String(state.replay.position.number);
    app.dataset.replayAt = String(state.replay.at);
  } else {
    delete app.dataset.replayDeal;
    delete app.dataset.replayMove;
    delete app.dataset.replayAt;
  }
}

// --- the replay -------------------------------------------------------------------------

// The position the replay stands at, as a screen the table's drawing lays out.
function replayScreen() {
  const walk = state.replay;
  const data = walk.data;
  const position = walk.position;
  return {type: "screen", table: data.table, version: walk.at, status: "replay",
    seat: data.seat, tiles: data.tiles, variant: data.variant, public: position.public,
    hand: null, replayHands: position.hands, events: position.events, notices: [],
    lobby: null, sheet: position.sheet, recent: true};
}

function showReplay() {
  state.log = [...state.replay.position.events];
  state.screen = replayScreen();
  render();
}

// The hands the person may see at this position: their own while the game ran, every
// hand after it.
function replayHands(screen) {
  const box = el("section", {class: "replay-hands", "aria-label": t("Hands")});
  screen.replayHands.forEach((hand, seat) => {
    if (hand === null) return;
    const name = screen.public.players[seat].name;
    box.appendChild(el("div", {class: "meld replay-hand", "data-hand-seat": String(seat)},
      el("span", {class: "meld-owner", text: name}), strip(hand, screen.tiles, name)));
  });
  return box;
}

function replayControls() {
  const walk = state.replay;
  const position = walk.position;
  const last = walk.data.positions.length - 1;
  const where = position.number === 0
    ? t("Deal {deal} as dealt").replace("{deal}", String(position.deal))
    : t("Deal {deal}, move {number}").replace("{deal}", String(position.deal))
      .replace("{number}", String(position.number));
  const deals = el("select", {"data-action": "replay-deal", "aria-label": t("Jump to a deal"),
    onchange: (event) => walk.jump(Number(event.target.value))});
  for (const start of walk.deals()) {
    const option = el("option", {value: String(start.deal),
      text: t("Deal {number}").replace("{number}", String(start.deal))});
    if (start.deal === position.deal) option.selected = true;
    deals.appendChild(option);
  }
  const row = el("nav", {class: "replay-controls", "aria-label": t("Replay")},
    el("span", {class: "replay-where", text: where}),
    el("button", {type: "button", class: "secondary", "data-action": "replay-back",
      text: t("Back"), disabled: walk.at === 0, onclick: () => walk.step(-1)}),
    el("button", {type: "button", "data-action": "replay-play",
      text: walk.playing ? t("Pause") : t("Play"),
      onclick: () => (walk.playing ? walk.pause() : walk.play())}),
    el("button", {type: "button", class: "secondary", "data-action": "replay-next",
      text: t("Next"), disabled: walk.at === last, onclick: () => walk.step(1)}),
    deals);
  for (const speed of SPEEDS) {
    row.appendChild(el("button", {type: "button", class: "secondary",
      "data-action": `replay-speed-${speed}`, text: `${speed}x`,
      "aria-pressed": walk.speed === speed ? "true" : "false",
      onclick: () => walk.setSpeed(speed)}));
  }
  if (state.socket) {
    row.appendChild(el("button", {type: "button", class: "secondary",
      "data-action": "replay-close", text: t("Back to the table"), onclick: closeReplay}));
  }
  return row;
}

// Asks the server for the replay of the session's table; `live`: the table's page
// stays connected and comes back when the replay is closed.
async function openReplay(live) {
  const response = await fetch(`./api/replay?token=${encodeURIComponent(state.token)}`);
  const data = await response.json().catch(() => ({}));
  if (!response.ok || !data.positions || !data.positions.length) {
    const text = data.text || t("Signing in failed: {reason}").replace("{reason}",
      String(response.status));
    if (live) toast(text, false); else status(text);
    return;
  }
  if (data.locale !== state.locale) await loadStrings(data.locale);
  if (live) state.live = state.screen;
  state.replay = new ReplayWalk(data, showReplay);
  showReplay();
}

function closeReplay() {
  state.replay.pause();
  state.replay = null;
  state.log = [];
  state.screen = state.live;
  state.live = null;
  render();
}

// --- start ------------------------------------------------------------------------------

async function main() {
  const platform = document.documentElement.dataset.platform;
  state.fourColours = stored(FOUR_COLOURS);
  state.sounds = stored(SOUNDS);
  setSounds(state.sounds);
  setFourColours(state.fourColours);
  applyTheme(platform);
  await loadStrings(navigator.language);
  status(t("Connecting…"));
  let session;
  try {
    session = await signIn(platform);
  } catch (error) {
    status(error.needsChat ? t("Open this table from the chat: the button under the table " +
      "message, or the web table button of your hand.") :
      t("Signing in failed: {reason}").replace("{reason}", error.message));
    return;
  }
  if (session.choose) {
    if (session.locale !== state.locale) await loadStrings(session.locale);
    chooseTable(session);
    return;
  }
  await openTable(session);
  const activity = discordActivity();
  if (activity) {
    followParticipants(activity, (people) => showParticipants(people, t("In this Activity")));
  }
}

async function openTable(session) {
  state.token = session.token;
  state.table = session.table;
  if (session.locale !== state.locale) await loadStrings(session.locale);
  if (session.replay) {
    await openReplay(false);
    return;
  }
  connect();
}

// The Main Mini App opened without a table: the person's open tables, one tap each.
function chooseTable(session) {
  const app = document.getElementById("app");
  const list = el("ul", {class: "choose"});
  for (const entry of session.choose) {
    list.appendChild(el("li", {}, el("button", {type: "button", class: "secondary",
      "data-table": String(entry.table), text: entry.title, onclick: async () => {
        status(t("Connecting…"));
        try {
          await openTable(await signInTo(entry.table));
        } catch (error) {
          status(t("Signing in failed: {reason}").replace("{reason}", error.message));
        }
      }})));
  }
  const parts = [el("p", {class: "status", id: "status", text: session.text})];
  if (session.choose.length) parts.push(list);
  app.replaceChildren(...parts);
}

main();
