// The person's own hand: cards to tap (select), drag or move with Alt+arrow keys
// (reorder), the order buttons (by suit / by rank / melds first), Hint, and the moves the
// server offers for the selection as buttons.
import {cardElement} from "./cards.js";
import {countText} from "./format.js";
import {reducedMotion, SHIFT} from "./motion.js";
import {verticalSwipes} from "./platform.js";

const SORTS = [["suit", "by suit"], ["rank", "by rank"], ["melds", "melds first"]];
const DRAG_PIXELS = 12;

function button(text, attrs, onclick) {
  const node = document.createElement("button");
  node.type = "button";
  node.textContent = text;
  for (const [key, value] of Object.entries(attrs)) {
    if (value !== null && value !== undefined) node.setAttribute(key, value);
  }
  node.addEventListener("click", onclick);
  return node;
}

// Pointer dragging (mouse, touch, pen): a press that moves more than DRAG_PIXELS drags the
// card, and the selection with it when the card is selected. Let go over the discard pile
// it is discarded, over the table melded, over a meld laid off (actions.drop: only what
// the server offers); let go in the hand, a lone card moves there; anywhere else it
// springs back. A press that does not move is a tap.
function draggable(node, actions, state) {
  // the row the card is in now (a redraw may keep the row and put this card into it)
  const rowOf = () => node.closest(".hand-row");
  let start = null;
  let dragging = null;
  let over = null;
  const target = (x, y, nodes) => {
    for (const hit of document.elementsFromPoint(x, y)) {
      if (nodes.includes(hit.closest(".card"))) continue;
      const drop = hit.closest("[data-drop]");
      if (drop) return drop;
      if (hit.closest(".hand-row")) return null;
    }
    return null;
  };
  const mark = (drop) => {
    if (over === drop) return;
    if (over) over.classList.remove("drop-over");
    over = drop;
    if (over) over.classList.add("drop-over");
  };
  const move = (event) => {
    if (!start || event.pointerId !== start.id) return;
    const dx = event.clientX - start.x;
    const dy = event.clientY - start.y;
    if (!dragging && Math.hypot(dx, dy) > DRAG_PIXELS) {
      const index = Number(node.dataset.index);
      const indices = state.selected.has(index) ? [...state.selected] : [index];
      const row = rowOf();
      const nodes = indices.map((i) => row.querySelector(`.card[data-index="${i}"]`))
        .filter(Boolean);
      // the other cards of the selection gather under the pointer, behind the pressed
      // one: each one's way to there, measured once
      const home = node.getBoundingClientRect();
      const offsets = nodes.map((each, i) => {
        if (each === node) return [0, 0];
        const box = each.getBoundingClientRect();
        return [home.left - box.left + (i + 1) * 10, home.top - box.top + 6];
      });
      dragging = {indices, nodes, offsets};
      actions.hold(true);
      verticalSwipes(false);
      for (const each of nodes) each.classList.add("dragging");
    }
    if (!dragging) return;
    dragging.nodes.forEach((each, i) => {
      const [x, y] = dragging.offsets[i];
      each.style.transform = `translate(${x + dx}px, ${y + dy}px)`;
    });
    mark(target(event.clientX, event.clientY, dragging.nodes));
  };
  const finish = (event) => {
    if (!start || event.pointerId !== start.id) return;
    window.removeEventListener("pointermove", move);
    window.removeEventListener("pointerup", finish);
    window.removeEventListener("pointercancel", finish);
    const was = dragging;
    start = null;
    dragging = null;
    if (!was) return;
    mark(null);
    verticalSwipes(true);
    // the click that may follow this let-go is no tap (the next one is)
    node.dataset.dragged = "1";
    setTimeout(() => delete node.dataset.dragged, 0);
    const drop = event.type === "pointerup" ? target(event.clientX, event.clientY, was.nodes)
      : null;
    if (drop) {
      actions.drop(was.indices, drop.dataset.drop,
        drop.dataset.meld === undefined ? null : Number(drop.dataset.meld), was.nodes);
      return;
    }
    const row = rowOf();
    const inHand = event.type === "pointerup" && was.nodes.length === 1 && row &&
      document.elementsFromPoint(event.clientX, event.clientY)
        .some((hit) => hit.closest(".hand-row") === row && hit.closest(".card") !== node);
    if (inHand) {
      for (const each of was.nodes) {
        each.classList.remove("dragging");
        each.style.transform = "";
      }
      const cards = [...row.querySelectorAll(".card")];
      const position = cards.indexOf(node);
      let to = cards.length - 1;
      for (let i = 0; i < cards.length; i += 1) {
        const box = cards[i].getBoundingClientRect();
        if (event.clientX < box.left + box.width / 2 &&
            Math.abs(event.clientY - (box.top + box.height / 2)) < box.height) {
          to = i > position ? i - 1 : i;
          break;
        }
      }
      actions.hold(false);
      if (to !== position) actions.reorder(position, to);
      return;
    }
    springBack(was.nodes);
    actions.hold(false);
  };
  // the moves and the let-go are followed on the window: the pointer leaves the card
  node.addEventListener("pointerdown", (event) => {
    if (event.button !== 0 || start) return;
    start = {x: event.clientX, y: event.clientY, id: event.pointerId};
    dragging = null;
    window.addEventListener("pointermove", move);
    window.addEventListener("pointerup", finish);
    window.addEventListener("pointercancel", finish);
  });
}

/** Dragged cards go back to their places in the hand. */
export function springBack(nodes) {
  for (const each of nodes) {
    const from = each.style.transform;
    each.classList.remove("dragging");
    each.style.transform = "";
    if (from && !reducedMotion()) {
      each.animate([{transform: from}, {transform: getComputedStyle(each).transform}],
        {duration: SHIFT, easing: "ease-out"});
    }
  }
}

export function handView(screen, state, t, actions) {
  const hand = screen.hand;
  const tiles = screen.tiles;
  const order = state.order || hand.cards.map((_, i) => i);
  const section = document.createElement("section");
  section.className = "hand";
  section.setAttribute("aria-label", t(tiles ? "Your rack" : "Your hand"));

  const heading = document.createElement("h2");
  heading.textContent = `${t(tiles ? "Your rack" : "Your hand")} · ` +
    countText(t, hand.cards.length, tiles);
  section.appendChild(heading);
  if (hand.phase) {
    const phase = document.createElement("p");
    phase.className = `phase${hand.turn ? " my-turn" : ""}`;
    phase.textContent = hand.phase;
    section.appendChild(phase);
  }

  const tools = document.createElement("div");
  tools.className = "tools";
  const sorts = document.createElement("div");
  sorts.className = "segmented";
  sorts.setAttribute("role", "group");
  sorts.setAttribute("aria-label", t("Sort"));
  for (const [word, name] of SORTS) {
    const shown = tiles && word === "suit" ? "by colour" : name;  // tiles have colours
    sorts.appendChild(button(t(shown), {"aria-pressed": String(hand.sort === word &&
      !state.order), "data-sort": word}, () => actions.sort(word)));
  }
  tools.appendChild(sorts);
  tools.appendChild(button(t("Hint"), {class: "hint", "data-action": "hint"},
    () => actions.hint()));
  if (state.selected.size) {
    tools.appendChild(button(t("Clear selection"), {class: "secondary",
      "data-action": "clear"}, () => actions.clear()));
  }
  section.appendChild(tools);

  const row = document.createElement("div");
  row.className = `hand-row${tiles ? " rack" : ""}${hand.cards.length > 16 ? " many" : ""}`;
  row.setAttribute("role", "group");
  row.setAttribute("aria-label", `${t(tiles ? "Your rack" : "Your hand")} (${t(
    "Drag to reorder")})`);
  const groupOf = new Map();
  hand.groups.forEach((group, number) => group.forEach((i) => groupOf.set(i, number)));
  // a card keeps its element from one redraw to the next (its key: the code and which of
  // equal codes); its listeners read its index and place when they run
  const seen = new Map();
  for (const index of order) {
    const code = hand.cards[index];
    const node = cardElement(code, tiles, state.locale, t, {button: true});
    const chosen = state.selected.has(index);
    const n = seen.get(code) || 0;
    seen.set(code, n + 1);
    node.dataset.key = `${code}#${n}`;
    node.setAttribute("aria-pressed", String(chosen));
    node.dataset.index = String(index);
    if (chosen) node.classList.add("selected");
    if (groupOf.has(index)) node.dataset.group = String(groupOf.get(index) % 4);
    node.addEventListener("click", () => {
      if (node.dataset.dragged) {
        delete node.dataset.dragged;
        return;
      }
      actions.toggle(Number(node.dataset.index));
    });
    node.addEventListener("keydown", (event) => {
      if (event.altKey && (event.key === "ArrowLeft" || event.key === "ArrowRight")) {
        event.preventDefault();
        const cards = [...node.closest(".hand-row").querySelectorAll(".card")];
        const position = cards.indexOf(node);
        const index = node.dataset.index;
        const to = Math.max(0, Math.min(cards.length - 1,
          position + (event.key === "ArrowLeft" ? -1 : 1)));
        actions.reorder(position, to);
        requestAnimationFrame(() => {
          const again = document.querySelector(`.hand-row .card[data-index="${index}"]`);
          if (again) again.focus();
        });
      }
    });
    draggable(node, actions, state);
    row.appendChild(node);
  }
  section.appendChild(row);

  const offers = document.createElement("div");
  offers.className = "offers";
  offers.setAttribute("role", "group");
  offers.setAttribute("aria-label", hand.turn ? t("Moves") : t("Out of turn"));
  hand.offers.forEach((offer, number) => {
    const node = button(offer.label, {class: `offer tone-${offer.tone} group-${offer.group}`,
      "data-offer": String(number), "data-hint": offer.hint ? "1" : null,
      "data-kind": offer.kind || null,
      disabled: state.busy ? "" : null}, () => actions.press(number));
    offers.appendChild(node);
  });
  if (!hand.offers.length) {
    const note = document.createElement("p");
    note.className = "muted";
    note.textContent = hand.turn
      ? t(tiles ? "Select tiles to see what you can do with them."
        : "Select cards to see what you can do with them.")
      : t("Nothing to do now.");
    offers.appendChild(note);
  }
  section.appendChild(offers);
  return section;
}
