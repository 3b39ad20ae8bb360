// The worker that draws the rest of a deck's pictures (cards.js) off the page's thread:
// each message {deck, scale, items: [{key, tiles, code, lang}]} is answered with
// {done: [{key, url}]} (PNG data: URLs, as the page's own pictures: a blob: URL made on
// the page is a synchronous call to the browser each), or {failed: items, deck} when this
// browser's worker cannot draw on a canvas of its own.
import {paint, pictureSize, setFourColours} from "./cards.js";

const contexts = new Map();
let reader = null;

self.onmessage = async ({data}) => {
  try {
    reader = reader || new FileReaderSync();
    setFourColours(data.deck === "four");
    const done = [];
    for (const item of data.items) {
      const size = `${item.tiles}:${data.scale}`;
      let g = contexts.get(size);
      if (!g) {
        g = new OffscreenCanvas(...pictureSize(item.tiles, data.scale)).getContext("2d");
        contexts.set(size, g);
      }
      paint(g, item.tiles, item.code, item.lang);
      const blob = await g.canvas.convertToBlob({type: "image/png"});
      done.push({key: item.key, url: reader.readAsDataURL(blob)});
    }
    self.postMessage({done});
  } catch {
    self.postMessage({failed: data.items, deck: data.deck});
  }
};
