// The keyboard's way through a board's tips (boards/tooltip.js shows them): a container marked
// `data-tip-group` (a track, a garden, a row of cards) is one Tab stop, and the arrow keys move between the
// elements with a `data-tip` inside it, so a keyboard player can read every space without tabbing through
// sixty of them. Commands keep their own Tab stops.
//
//   const keys = attachTipKeys(root);  // once, at mount
//   keys.refresh();                    // after every redraw (makes the new elements reachable)
//   keys.destroy();                    // at destroy

const FOCUSABLE = "button, a[href], input, select, textarea, summary";
const STEP = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };

export function attachTipKeys(root) {
  const onKey = (e) => {
    if (!(e.key in STEP)) return;
    const here = e.target.closest?.("[data-tip]");
    const group = here?.closest("[data-tip-group]");
    if (!group || !root.contains(group)) return;
    const members = [...group.querySelectorAll("[data-tip]")];
    e.preventDefault();
    e.stopPropagation(); // the frame's arrow keys step the history; inside a group they step through it
    members[members.indexOf(here) + STEP[e.key]]?.focus();
  };
  root.addEventListener("keydown", onKey);
  return {
    refresh() {
      for (const node of root.querySelectorAll("[data-tip]")) {
        if (!node.hasAttribute("tabindex") && !node.matches(FOCUSABLE)) node.setAttribute("tabindex", "-1");
      }
      for (const group of root.querySelectorAll("[data-tip-group]")) {
        const members = [...group.querySelectorAll("[data-tip]")];
        if (members.length && !members.some((n) => n.tabIndex >= 0)) members[0].setAttribute("tabindex", "0");
      }
    },
    destroy() { root.removeEventListener("keydown", onKey); },
  };
}

/** ` data-tip="…"` for a markup string: the element's name on the first line, then what it does now. */
export function tipAttr(title, ...lines) {
  const text = [title, ...lines.filter(Boolean)].join("\n");
  return ` data-tip="${String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c])}"`;
}
