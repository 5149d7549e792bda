// One tooltip for every board: an element with `data-hint` says what it is and what it does now, on hover
// (mouse), on keyboard focus and on a long press (touch). The first line of the hint is its name (bold), the
// rest what it does.
//
// Keyboard: a container marked `data-hint-group` (a track, a garden, a row of cards) is one Tab stop; the
// arrow keys move between its hinted elements, so a keyboard player can read every space without tabbing
// through sixty of them. A long press shows the hint and swallows the click it ends in, so reading a target
// never plays it.
//
//   const hints = attachHints(root);   // once, at mount
//   hints.refresh();                   // after every redraw (makes the new elements reachable)
//   hints.destroy();                   // at destroy

const LONG_PRESS_MS = 450;
const MOVE_TOLERANCE_PX = 10; // a finger that moves further is scrolling, not pressing
const FOCUSABLE = "button, a[href], input, select, textarea, summary";

const CSS = `
.board-hint { position: fixed; z-index: 1000; max-width: min(300px, calc(100vw - 16px)); padding: 6px 9px;
  background: #2b1d0e; color: #fff; border-radius: 6px; font: 13px/1.35 system-ui, sans-serif; white-space: pre-line;
  box-shadow: 0 2px 10px #0005; pointer-events: none; }
.board-hint[hidden] { display: none; }
.board-hint b { display: block; font-weight: 700; margin-bottom: 1px; }
[data-hint] { -webkit-touch-callout: none; -webkit-user-select: none; user-select: none; }
[data-hint]:focus-visible { outline: 3px solid #0a58ca; outline-offset: 1px; }
`;

let tip = null; // the one tooltip element of the page, shared by every mounted board

function tooltip() {
  if (tip && document.body.contains(tip)) return tip;
  if (!document.getElementById("board-hint-style")) {
    const style = document.createElement("style");
    style.id = "board-hint-style";
    style.textContent = CSS;
    document.head.appendChild(style);
  }
  tip = document.createElement("div");
  tip.id = "board-hint";
  tip.className = "board-hint";
  tip.setAttribute("role", "tooltip");
  tip.dataset.testid = "board-hint";
  tip.hidden = true;
  document.body.appendChild(tip);
  return tip;
}

function place(box, target) {
  const r = target.getBoundingClientRect();
  const w = box.offsetWidth, h = box.offsetHeight;
  const left = Math.max(8, Math.min(window.innerWidth - w - 8, r.left + r.width / 2 - w / 2));
  // above the element when there is room (a finger covers what is below it), else below
  const top = r.top - h - 8 >= 4 ? r.top - h - 8 : Math.min(window.innerHeight - h - 4, r.bottom + 8);
  box.style.left = `${Math.round(left)}px`;
  box.style.top = `${Math.round(top)}px`;
}

export function attachHints(root) {
  const box = tooltip();
  let shown = null; // the element whose hint is up
  let press = null; // a touch press under way: { target, x, y, timer }
  let swallowClick = false;

  function show(target) {
    const [title, ...rest] = target.dataset.hint.split("\n");
    box.replaceChildren();
    const b = document.createElement("b");
    b.textContent = title;
    box.append(b, rest.join("\n"));
    box.hidden = false;
    place(box, target);
    if (shown && shown !== target) shown.removeAttribute("aria-describedby");
    target.setAttribute("aria-describedby", box.id);
    shown = target;
  }
  function hide() {
    if (!shown) return;
    shown.removeAttribute("aria-describedby");
    shown = null;
    box.hidden = true;
  }
  const hinted = (node) => {
    const t = node?.closest?.("[data-hint]");
    return t && root.contains(t) ? t : null;
  };

  const on = [];
  const listen = (node, type, fn, opts) => { node.addEventListener(type, fn, opts); on.push([node, type, fn, opts]); };

  listen(root, "pointerover", (e) => {
    if (e.pointerType === "touch") return;
    const t = hinted(e.target);
    if (t) show(t);
  });
  listen(root, "pointerout", (e) => {
    if (e.pointerType === "touch" || !shown) return;
    if (!shown.contains(e.relatedTarget) && document.activeElement !== shown) hide();
  });
  // keyboard focus only: a click focuses too, and a pointer that has moved on should not leave a hint behind
  listen(root, "focusin", (e) => { const t = hinted(e.target); if (t && t.matches(":focus-visible")) show(t); else hide(); });
  listen(root, "focusout", (e) => { if (!hinted(e.relatedTarget)) hide(); });

  // long press: the hint comes up while the finger is still down, and the click it ends in is not a move
  const cancelPress = () => { if (press) clearTimeout(press.timer); press = null; };
  listen(root, "pointerdown", (e) => {
    cancelPress();
    swallowClick = false; // a new gesture: only the click that ends a long press is swallowed
    if (e.pointerType !== "touch") return;
    const t = hinted(e.target);
    if (!t) return;
    press = { target: t, x: e.clientX, y: e.clientY, timer: setTimeout(() => {
      show(t);
      swallowClick = true;
      press = null;
    }, LONG_PRESS_MS) };
  });
  listen(root, "pointermove", (e) => {
    if (press && Math.hypot(e.clientX - press.x, e.clientY - press.y) > MOVE_TOLERANCE_PX) cancelPress();
  });
  listen(root, "pointerup", cancelPress);
  listen(root, "pointercancel", cancelPress);
  listen(root, "click", (e) => {
    if (!swallowClick) return;
    swallowClick = false;
    e.preventDefault();
    e.stopPropagation();
  }, true);
  listen(root, "contextmenu", (e) => { if (hinted(e.target)) e.preventDefault(); });
  // a touch elsewhere, a scroll or Escape puts a hint away
  listen(document, "pointerdown", (e) => {
    if (e.pointerType === "touch" && shown && !shown.contains(e.target)) hide();
  }, true);
  listen(window, "scroll", () => { if (shown) place(box, shown); }, true);
  listen(document, "keydown", (e) => { if (e.key === "Escape") hide(); });

  // arrow keys inside a group: one Tab stop, every element readable
  const STEP = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };
  listen(root, "keydown", (e) => {
    if (!(e.key in STEP)) return;
    const t = hinted(e.target);
    const group = t?.closest("[data-hint-group]");
    if (!group) return;
    const members = [...group.querySelectorAll("[data-hint]")];
    const next = members[members.indexOf(t) + STEP[e.key]];
    e.preventDefault();
    e.stopPropagation(); // the frame's arrow keys step the history; here they step through the group
    next?.focus();
  });

  return {
    /** After a redraw: hinted elements can take focus, and every group has one Tab stop. */
    refresh() {
      for (const node of root.querySelectorAll("[data-hint]")) {
        if (!node.hasAttribute("tabindex") && !node.matches(FOCUSABLE)) node.setAttribute("tabindex", "-1");
      }
      for (const group of root.querySelectorAll("[data-hint-group]")) {
        const members = [...group.querySelectorAll("[data-hint]")];
        if (members.length && !members.some((n) => n.tabIndex >= 0)) members[0].setAttribute("tabindex", "0");
      }
      if (shown && !root.contains(shown)) hide(); // redrawn away
    },
    destroy() {
      hide();
      cancelPress();
      for (const [node, type, fn, opts] of on) node.removeEventListener(type, fn, opts);
    },
  };
}

/** ` data-hint="…"` for a markup string: the name, then what it does now (escaped). */
export function hintAttr(title, ...lines) {
  const text = [title, ...lines.filter(Boolean)].join("\n");
  return ` data-hint="${String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c])}"`;
}
