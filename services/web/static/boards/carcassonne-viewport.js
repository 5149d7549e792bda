// Pan and zoom of the Carcassonne board: one finger or the mouse drags, two fingers pinch, the wheel zooms
// around the pointer (pointer events on the board only, so the page scrolls as usual outside it); a drag
// is never a click. The board decides what to show (`show`); `onUserMove` says the player moved the view.

const MIN_K = 0.12;
const MAX_K = 4;

/** Attach to `svg`, transforming `world`; returns { vp, zoomBy, show, visibleArea, destroy }. */
export function panZoom(svg, world, { onUserMove, coarse }) {
  const vp = { k: 1, tx: 0, ty: 0 };
  const apply = () => world.setAttribute("transform", `translate(${vp.tx} ${vp.ty}) scale(${vp.k})`);
  function zoomAt(factor, px, py) {
    const k = Math.min(MAX_K, Math.max(MIN_K, vp.k * factor));
    vp.tx = px - (px - vp.tx) * (k / vp.k);
    vp.ty = py - (py - vp.ty) * (k / vp.k);
    vp.k = k;
    onUserMove();
    apply();
  }
  function zoomBy(factor) {
    const r = svg.getBoundingClientRect();
    zoomAt(factor, r.width / 2, r.height / 2);
  }
  // The part of the board a player sees: the zoom buttons' strip on the right, and on a phone the frame's
  // action bar over its foot (sticky at the bottom of the screen) and anything below the screen, are left out.
  function visibleArea() {
    const r = svg.getBoundingClientRect();
    let bottom = Math.min(r.bottom, window.innerHeight || r.bottom);
    const bar = document.querySelector(".action-bar");
    const b = bar && bar.getBoundingClientRect();
    if (b && b.top < bottom && b.bottom > r.top) bottom = b.top;
    return { w: (r.width || 600) - (coarse ? 62 : 52), h: Math.max(160, bottom - r.top) || 400 };
  }
  /** Centre the world box `{x, y, w, h}` (world units) in the visible area at scale `k`. */
  function show(box, k) {
    const { w, h } = visibleArea();
    vp.k = Math.min(MAX_K, Math.max(MIN_K, k));
    vp.tx = w / 2 - (box.x + box.w / 2) * vp.k;
    vp.ty = h / 2 - (box.y + box.h / 2) * vp.k;
    apply();
  }

  const pointers = new Map();
  let drag = null;
  let suppressClick = false;
  function onPointerDown(e) {
    pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (pointers.size === 1) {
      suppressClick = false; // a new gesture: a drag that ended without a click (a pinch) must not eat this one
      drag = { x: e.clientX, y: e.clientY, tx: vp.tx, ty: vp.ty, moved: false };
    }
    else if (pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      drag = { pinch: Math.hypot(a.x - b.x, a.y - b.y), k: vp.k, moved: true };
    }
  }
  function onPointerMove(e) {
    if (!pointers.has(e.pointerId) || !drag) return;
    pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (pointers.size >= 2 && drag.pinch) {
      const [a, b] = [...pointers.values()];
      const r = svg.getBoundingClientRect();
      const dist = Math.hypot(a.x - b.x, a.y - b.y);
      zoomAt((drag.k * dist) / drag.pinch / vp.k, (a.x + b.x) / 2 - r.left, (a.y + b.y) / 2 - r.top);
      return;
    }
    const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
    if (!drag.moved && Math.hypot(dx, dy) < 5) return;
    drag.moved = true;
    svg.classList.add("dragging");
    vp.tx = drag.tx + dx;
    vp.ty = drag.ty + dy;
    onUserMove();
    apply();
  }
  function onPointerUp(e) {
    if (!pointers.delete(e.pointerId)) return;
    if (drag && drag.moved) suppressClick = true;
    if (!pointers.size) { drag = null; svg.classList.remove("dragging"); return; }
    // one finger of a pinch lifted: the other one pans on from where it is
    const [rest] = pointers.values();
    drag = { x: rest.x, y: rest.y, tx: vp.tx, ty: vp.ty, moved: true };
  }
  function onClickCapture(e) {
    if (suppressClick) { e.stopPropagation(); e.preventDefault(); }
    suppressClick = false;
  }
  function onWheel(e) {
    e.preventDefault();
    const r = svg.getBoundingClientRect();
    zoomAt(Math.exp(-e.deltaY * 0.0015), e.clientX - r.left, e.clientY - r.top);
  }
  svg.addEventListener("pointerdown", onPointerDown);
  window.addEventListener("pointermove", onPointerMove);
  window.addEventListener("pointerup", onPointerUp);
  window.addEventListener("pointercancel", onPointerUp);
  svg.addEventListener("click", onClickCapture, true);
  svg.addEventListener("wheel", onWheel, { passive: false });
  return {
    vp, zoomBy, show, visibleArea,
    destroy() {
      window.removeEventListener("pointermove", onPointerMove);
      window.removeEventListener("pointerup", onPointerUp);
      window.removeEventListener("pointercancel", onPointerUp);
    },
  };
}
