// Cards that move: the Web Animations API, nothing else. Every animation moves a card node
// from where it was to where the page has just drawn it (transform only, so the browser
// composites it without laying the page out again). Under prefers-reduced-motion nothing
// moves: the page is drawn at once where it ends.

export const STEP_MS = 200;        // one move played out
export const SEQUENCE_MS = 4000;   // a whole autocomplete (or a run of automatic moves), at most
export const MIN_STEP_MS = 20;     // the shortest step of a long sequence
export const DRAW_MS = 90;         // a long sequence is drawn at most this often (moves grouped)
export const DEAL_MS = 650;        // the whole deal, at most
export const SLIDE_MS = 180;       // a refused drag sliding back

export function reducedMotion() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

// How long each step of a sequence of `count` moves takes: a single move STEP_MS, a long
// run shared out over SEQUENCE_MS (never under MIN_STEP_MS a move: 200 moves take 4 s).
export function stepMs(count) {
  return count <= 1 ? STEP_MS : Math.max(MIN_STEP_MS, Math.min(STEP_MS * 0.8, SEQUENCE_MS / count));
}

// Where each card node is now on the board, by pile and index: where it is drawn, and a
// dragged card where it was let go (read from the styles: no layout is forced).
export function cardBoxes(nodes) {
  const boxes = new Map();
  for (const [key, node] of nodes) {
    let left = parseFloat(node.style.left);
    let top = parseFloat(node.style.top);
    const moved = /translate\((-?[\d.]+)px, (-?[\d.]+)px\)/.exec(node.style.transform || "");
    if (moved) { left += Number(moved[1]); top += Number(moved[2]); }
    boxes.set(key, { left, top });
  }
  return boxes;
}

// Move `node` from the board position `from` to where it is drawn now.
export function fly(node, from, duration, delay = 0) {
  const to = { left: parseFloat(node.style.left), top: parseFloat(node.style.top) };
  const dx = from.left - to.left;
  const dy = from.top - to.top;
  if (Math.abs(dx) < 1 && Math.abs(dy) < 1) return null;
  node.classList.add("flying");
  const animation = node.animate(
    [{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "translate(0, 0)" }],
    { duration, delay, easing: "cubic-bezier(.2, .7, .3, 1)", fill: "backwards" });
  animation.onfinish = animation.oncancel = () => node.classList.remove("flying");
  return animation;
}

// Cards dragged and let go where no move takes them: back where they came from.
export function slideBack(nodes) {
  if (reducedMotion()) return Promise.resolve();
  const runs = nodes.map((node) => {
    const from = node.style.transform || "none";
    node.style.transform = "";
    return node.animate([{ transform: from }, { transform: "translate(0, 0)" }], { duration: SLIDE_MS, easing: "ease-out" }).finished;
  });
  return Promise.all(runs).catch(() => undefined);
}
