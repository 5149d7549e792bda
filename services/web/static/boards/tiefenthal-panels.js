// The Tiefenthal board's panels: the player's tavern, the shop, and the others (their taverns and the tracks).
// Where the board is wide they are all shown (tavern and shop side by side); on a phone one at a time behind a
// sticky tab strip (the stylesheet's container query decides), and the board turns to the panel the decision
// needs: the tavern while a die is chosen or dice wait to be taken off, else the shop when it has an offer to take.

import { t } from "../js/i18n.js";

export const PANELS = [
  { id: "shop", get label() { return t("Shop"); } },
  { id: "tavern", get label() { return t("My tavern"); } },
  { id: "others", get label() { return t("Others"); } },
];

export function tabsMarkup(current) {
  return `<nav class="tf-tabs" aria-label="${t("Board parts")}" data-testid="tf-tabs">${PANELS.map((p) =>
    `<button type="button" class="tf-tab ${p.id === current ? "on" : ""}" data-tab="${p.id}" aria-pressed="${p.id === current}">${p.label}<span class="n" hidden></span></button>`).join("")}</nav>`;
}

// After a redraw: each tab says how many highlighted targets its panel holds (a badge, data-has-targets).
export function markTabs(el) {
  const counts = {};
  for (const p of PANELS) {
    const panel = el.querySelector(`[data-panel="${p.id}"]`);
    counts[p.id] = panel ? panel.querySelectorAll(".target").length : 0;
    const tab = el.querySelector(`[data-tab="${p.id}"]`);
    if (!tab) continue;
    const badge = tab.querySelector(".n");
    badge.hidden = !counts[p.id];
    badge.textContent = counts[p.id] ? String(counts[p.id]) : "";
    if (counts[p.id]) tab.dataset.hasTargets = "1"; else delete tab.dataset.hasTargets;
    tab.setAttribute("aria-label", counts[p.id] ? t("{panel}: {n} to choose from", { panel: p.label, n: counts[p.id] }) : p.label);
  }
  return counts;
}

// The panel a new decision needs, or the current one when the decision needs none in particular.
export function panelFor(el, counts, current, dieChosen) {
  const tavern = el.querySelector('[data-panel="tavern"]');
  const diceToTake = tavern?.querySelector(".target[data-kind=die], .target[data-kind=space]");
  if (dieChosen || diceToTake) return "tavern";
  if (counts.shop) return "shop";
  if (counts[current]) return current;
  return counts.tavern ? "tavern" : current;
}

// Show one panel (the tabs' state) without a redraw.
export function showPanel(el, id) {
  for (const p of PANELS) {
    el.querySelector(`[data-panel="${p.id}"]`)?.classList.toggle("on", p.id === id);
    const tab = el.querySelector(`[data-tab="${p.id}"]`);
    tab?.classList.toggle("on", p.id === id);
    tab?.setAttribute("aria-pressed", String(p.id === id));
  }
}
