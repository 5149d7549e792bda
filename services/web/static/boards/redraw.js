// Redrawing a board from an HTML string without taking the keyboard's place away.
//
// Boards draw themselves with innerHTML on every update (another seat's move, a clock tick, the stream
// reconnecting). Replacing the nodes drops focus on <body>: a keyboard player who had tabbed to a button
// pressed Enter on nothing. So an unchanged drawing is left alone, and a changed one gives focus back to
// the element that stands for the same thing (same command index and kind, same selectable die, same id).

const KEYS = ["cmd", "select", "space", "kind", "spot", "slot", "shed", "goal", "key"];

function focusKey(node) {
  if (node.id) return `#${CSS.escape(node.id)}`;
  const parts = KEYS.filter((k) => node.dataset[k] !== undefined)
    .map((k) => `[data-${k}="${CSS.escape(node.dataset[k])}"]`);
  return parts.length ? parts.join("") : null;
}

export function redraw(el, markup) {
  if (el.__drawn === markup) return false; // nothing changed: keep the very nodes (and focus, hover, selection)
  const active = document.activeElement;
  const key = active && active !== el && el.contains(active) ? focusKey(active) : null;
  const text = key ? active.textContent : null;
  el.innerHTML = markup;
  el.__drawn = markup;
  if (key) {
    const matches = [...el.querySelectorAll(key)];
    // the same command index may now be another command: prefer the one that still reads the same
    const again = matches.find((n) => n.textContent === text) || (matches.length === 1 ? matches[0] : null);
    again?.focus({ preventScroll: true });
  }
  return true;
}
