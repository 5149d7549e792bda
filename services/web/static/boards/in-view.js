// After a choice the next one must be in view without hunting for it: given the highlighted targets of the
// decision, scroll the page (once per decision, the board decides when) so that all of them are on screen when
// they fit, else the first one, between `top` (the height of a sticky prompt of the board, if any) and the frame's action bar
// at the foot. Returns the space the action bar takes at the foot, for the board's scroll margins.

export function bringIntoView(targets, top = 0) {
  const foot = document.querySelector(".action-bar");
  const bottom = foot ? Math.min(window.innerHeight, foot.getBoundingClientRect().top) : window.innerHeight;
  const shown = targets.filter((n) => n.getClientRects().length);
  if (!shown.length) return window.innerHeight - bottom;
  const rects = shown.map((n) => n.getBoundingClientRect());
  const span = { top: Math.min(...rects.map((r) => r.top)), bottom: Math.max(...rects.map((r) => r.bottom)) };
  const room = bottom - top - 8;
  // all of them when they fit, else from the first one down
  const want = span.bottom - span.top <= room ? span : { top: rects[0].top, bottom: Math.min(rects[0].top + room, rects[0].bottom) };
  let delta = 0;
  if (want.bottom > bottom - 4) delta = want.bottom - (bottom - 4);
  if (want.top - delta < top + 4) delta = want.top - (top + 4);
  if (Math.abs(delta) >= 1) window.scrollBy({ top: delta, behavior: "instant" });
  return window.innerHeight - bottom;
}
