// A redraw keeps what did not change: the new tree is compared with the page's, and an
// element equal to its new one stays (the browser need not match its style or lay it out
// again, and a card that stays is not painted anew). An element with the same tag and
// attributes keeps itself and has its children compared in turn; anything else is
// replaced. Listeners are not compared: every listener of the page reads only what its
// element's attributes and place say (an offer's number, a card's index), so an element
// equal in those does the same.
//
// Keyed elements (`data-key`, unique among their siblings: a card of a row as "7h#0") are
// matched by key, not by place: a card drawn into the middle of the hand is inserted and a
// discarded one removed, the others stay where they are. A keyed element whose other
// attributes changed (a card's index in the hand, its selection) keeps itself and takes
// the new attributes: the listeners of keyed elements read their attributes when they run.
// Its inline style must be the same (a dragged card's is the page's own, not the redraw's).
// A text that changed is written into the text node that is there.

function sameAttributes(old, fresh) {
  if (old.tagName !== fresh.tagName || old.attributes.length !== fresh.attributes.length) {
    return false;
  }
  for (const {name, value} of fresh.attributes) {
    if (old.getAttribute(name) !== value) return false;
  }
  return true;
}

function keyOf(node) {
  return node.nodeType === Node.ELEMENT_NODE ? node.getAttribute("data-key") : null;
}

// `old` takes the attributes of `fresh` (a keyed element of the same key and tag).
function morph(old, fresh) {
  if (old.tagName !== fresh.tagName || keyOf(old) === null || keyOf(old) !== keyOf(fresh) ||
      old.getAttribute("style") !== fresh.getAttribute("style")) {
    return false;
  }
  for (const name of old.getAttributeNames()) {
    if (!fresh.hasAttribute(name)) old.removeAttribute(name);
  }
  for (const {name, value} of fresh.attributes) {
    if (old.getAttribute(name) !== value) old.setAttribute(name, value);
  }
  return true;
}

/** Makes `old` (in the page) show `fresh`; returns the node now in the page. */
export function patch(old, fresh) {
  if (old.isEqualNode(fresh)) return old;
  if (old.nodeType === Node.TEXT_NODE && fresh.nodeType === Node.TEXT_NODE) {
    old.data = fresh.data;
    return old;
  }
  if (old.nodeType !== Node.ELEMENT_NODE || fresh.nodeType !== Node.ELEMENT_NODE ||
      !(sameAttributes(old, fresh) || morph(old, fresh))) {
    old.replaceWith(fresh);
    return fresh;
  }
  patchChildren(old, [...fresh.childNodes]);
  return old;
}

// The keys of `nodes`, or null unless every one is keyed and no key is there twice.
function keys(nodes) {
  const found = nodes.map(keyOf);
  if (found.some((key) => key === null) || new Set(found).size !== found.length) return null;
  return found;
}

// Children matched by key: the ones no longer wanted go first, so the ones that stay
// keep their places and only new or reordered ones are inserted.
function patchKeyed(parent, have, haveKeys, wanted, wantedKeys) {
  const byKey = new Map(haveKeys.map((key, i) => [key, have[i]]));
  const keep = new Set(wantedKeys);
  for (const [key, node] of byKey) {
    if (!keep.has(key)) {
      node.remove();
      byKey.delete(key);
    }
  }
  wanted.forEach((fresh, i) => {
    const old = byKey.get(wantedKeys[i]);
    const node = old ? patch(old, fresh) : fresh;
    const slot = parent.childNodes[i] || null;
    if (slot !== node) parent.insertBefore(node, slot);
  });
}

/** Makes `parent`'s children show `wanted` (nodes not in the page). */
export function patchChildren(parent, wanted) {
  const have = [...parent.childNodes];
  const haveKeys = have.length && wanted.length ? keys(have) : null;
  const wantedKeys = haveKeys ? keys(wanted) : null;
  if (haveKeys && wantedKeys) {
    patchKeyed(parent, have, haveKeys, wanted, wantedKeys);
    return;
  }
  if (have.length !== wanted.length) {
    parent.replaceChildren(...wanted);
    return;
  }
  have.forEach((node, i) => patch(node, wanted[i]));
}
