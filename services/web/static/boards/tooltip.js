// Board tooltips: any element with a `data-tip` inside `container` says what it is on mouse hover, on a
// long press (touch) and on keyboard focus. One tip element per board, placed beside the element; the
// element is described by it for screen readers while it shows. `container` must be positioned.
// Usage: const tips = attachTips(boardWrap); ... tips.destroy() when the board goes.

const LONG_PRESS_MS = 450;
const MOVE_CANCELS_PX = 10;
let counter = 0;

export function attachTips(container) {
  const tip = document.createElement("div");
  tip.className = "board-tip";
  tip.id = `board-tip-${++counter}`;
  tip.setAttribute("role", "tooltip");
  tip.hidden = true;
  container.appendChild(tip);
  let shownFor = null;
  let press = null; // a touch that may become a long press: {timer, x, y}
  let swallowClick = false;

  const target = (node) => node?.closest?.("[data-tip]");

  function show(node) {
    const text = node?.getAttribute("data-tip");
    if (!text || !container.contains(node)) return;
    if (shownFor && shownFor !== node) shownFor.removeAttribute("aria-describedby");
    shownFor = node;
    tip.textContent = text;
    tip.hidden = false;
    node.setAttribute("aria-describedby", tip.id);
    // above the element, inside the board; below it when there is no room above
    const box = container.getBoundingClientRect();
    const r = node.getBoundingClientRect();
    const w = tip.offsetWidth;
    const left = Math.min(Math.max(4, r.left - box.left + r.width / 2 - w / 2), Math.max(4, box.width - w - 4));
    let top = r.top - box.top - tip.offsetHeight - 8;
    if (top < 4) top = Math.min(r.bottom - box.top + 8, box.height - tip.offsetHeight - 4);
    tip.style.left = `${left}px`;
    tip.style.top = `${Math.max(4, top)}px`;
  }
  function hide() {
    if (shownFor) shownFor.removeAttribute("aria-describedby");
    shownFor = null;
    tip.hidden = true;
  }
  const cancelPress = () => { if (press) clearTimeout(press.timer); press = null; };

  const onOver = (e) => { if (e.pointerType === "mouse") { const t = target(e.target); if (t) show(t); } };
  const onOut = (e) => {
    if (e.pointerType !== "mouse" || !shownFor) return;
    if (!shownFor.contains(e.relatedTarget)) hide();
  };
  // keyboard focus only: a tap or click also focuses the element, and the tip would then cover the board
  const onFocusIn = (e) => {
    const t = target(e.target);
    if (t && e.target.matches?.(":focus-visible")) show(t);
    else if (!t) hide();
  };
  const onFocusOut = () => hide();
  function onDown(e) {
    swallowClick = false; // a long press that ended without a click must not eat the next tap
    if (e.pointerType === "mouse") return;
    hide();
    cancelPress();
    const t = target(e.target);
    if (!t || !e.isPrimary) return;
    press = { x: e.clientX, y: e.clientY, timer: setTimeout(() => { show(t); swallowClick = true; press = null; }, LONG_PRESS_MS) };
  }
  function onMove(e) {
    if (press && Math.hypot(e.clientX - press.x, e.clientY - press.y) > MOVE_CANCELS_PX) cancelPress();
  }
  function onClick(e) {
    // the tap that ends a long press only reads the tip: it chooses nothing
    if (swallowClick) { e.stopPropagation(); e.preventDefault(); }
    swallowClick = false;
  }
  function onContextMenu(e) { if (shownFor || press) e.preventDefault(); } // a long press shows our tip, not a menu
  const onKey = (e) => { if (e.key === "Escape") hide(); };

  container.addEventListener("pointerover", onOver);
  container.addEventListener("pointerout", onOut);
  container.addEventListener("focusin", onFocusIn);
  container.addEventListener("focusout", onFocusOut);
  container.addEventListener("pointerdown", onDown);
  container.addEventListener("pointermove", onMove);
  container.addEventListener("pointerup", cancelPress);
  container.addEventListener("pointercancel", cancelPress);
  container.addEventListener("click", onClick, true);
  container.addEventListener("contextmenu", onContextMenu);
  container.addEventListener("keydown", onKey);
  return {
    show,
    hide,
    /** After a redraw: the element the tip spoke of may be gone (or moved). */
    refresh() { if (shownFor && !shownFor.isConnected) hide(); },
    destroy() {
      cancelPress();
      tip.remove();
      for (const [type, fn] of [["pointerover", onOver], ["pointerout", onOut], ["focusin", onFocusIn],
        ["focusout", onFocusOut], ["pointerdown", onDown], ["pointermove", onMove], ["pointerup", cancelPress],
        ["pointercancel", cancelPress], ["contextmenu", onContextMenu], ["keydown", onKey]]) {
        container.removeEventListener(type, fn);
      }
      container.removeEventListener("click", onClick, true);
    },
  };
}
