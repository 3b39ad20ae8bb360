// A redraw keeps what did not change: the new tree is compared with the page's, and an
// element equal to its new one stays (the browser need not match its style or lay it out
// again, and a card that stays is not painted anew). An element with the same tag and
// attributes keeps itself and has its children compared in turn; anything else is
// replaced. Listeners are not compared: every listener of the page reads only what its
// element's attributes and place say (an offer's number, a card's index), so an element
// equal in those does the same.

function sameAttributes(old, fresh) {
  if (old.tagName !== fresh.tagName || old.attributes.length !== fresh.attributes.length) {
    return false;
  }
  for (const {name, value} of fresh.attributes) {
    if (old.getAttribute(name) !== value) return false;
  }
  return true;
}

/** Makes `old` (in the page) show `fresh`; returns the node now in the page. */
export function patch(old, fresh) {
  if (old.isEqualNode(fresh)) return old;
  if (old.nodeType !== Node.ELEMENT_NODE || fresh.nodeType !== Node.ELEMENT_NODE ||
      !sameAttributes(old, fresh)) {
    old.replaceWith(fresh);
    return fresh;
  }
  patchChildren(old, [...fresh.childNodes]);
  return old;
}

/** Makes `parent`'s children show `wanted` (nodes not in the page). */
export function patchChildren(parent, wanted) {
  const have = [...parent.childNodes];
  if (have.length !== wanted.length) {
    parent.replaceChildren(...wanted);
    return;
  }
  have.forEach((node, i) => patch(node, wanted[i]));
}
