// The page's number words: counts with their plural and the turn clock. Pure functions,
// so a test can import them in the browser.

// German and English (the page's languages) use the singular for exactly one.
export function countText(t, n, tiles) {
  const [one, other] = tiles ? ["{n} tile", "{n} tiles"] : ["{n} card", "{n} cards"];
  return t(n === 1 ? one : other).replace("{n}", String(n));
}

// Seconds left as "m:ss", or "h:mm:ss" from an hour on (a day's turn reads 23:59:58).
export function clockText(seconds) {
  const left = Math.max(0, Math.round(seconds));
  const hours = Math.floor(left / 3600);
  const minutes = Math.floor((left % 3600) / 60);
  const secs = String(left % 60).padStart(2, "0");
  return hours ? `${hours}:${String(minutes).padStart(2, "0")}:${secs}` : `${minutes}:${secs}`;
}
