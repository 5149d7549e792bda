// The Tiefenthal round track (each round's start bonus) and monastery track (the players' pawns and the bonuses
// along it), with a tip on every space.

import { tipAttr } from "./tip-keys.js";
import { bonusText, esc } from "./tiefenthal-words.js";
import { t } from "../js/i18n.js";

// board: { cardNames(), nameOf(seat), colourOf(seat, view) }
export function tracksMarkup(v, desc, board) {
  const names = board.cardNames();
  const { nameOf, colourOf } = board;
  const rounds = desc.round_track.slice(0, v.rounds).map((b, i) => `<div class="tf-cell ${i + 1 === v.round ? "now" : ""}" data-key="round-${i}"${tipAttr(i + 1 === v.round ? t("Round {n} (now)", { n: i + 1 }) : t("Round {n}", { n: i + 1 }),
    t("Start bonus: {bonus}.", { bonus: bonusText(b, names) }))}>
    <span>${i + 1}</span><span>${esc(bonusText(b, names))}</span></div>`).join("");
  const cells = [];
  for (let k = 0; k <= desc.monastery_track.last; k++) {
    const b = desc.monastery_track.bonuses[String(k)];
    const pawns = v.players.filter((p) => p.monastery === k)
      .map((p) => `<span class="tf-pawn" style="background:${colourOf(p.seat, v)}"></span>`).join("");
    const here = v.players.filter((p) => p.monastery === k).map((p) => nameOf(p.seat));
    const hint = tipAttr(t("Monastery space {n}", { n: k }), b ? t("Reaching it gives {bonus}.", { bonus: bonusText(b, names) })
      : t("No bonus here."), here.length ? t("Here: {names}.", { names: here.join(", ") }) : "");
    cells.push(`<div class="tf-cell ${b ? "bonus" : ""}" data-testid="tf-mon-${k}" data-key="mon-${k}"${hint}><span>${k}</span>${b ? `<span>★</span>` : ""}<span>${pawns}</span></div>`);
  }
  const legend = Object.entries(desc.monastery_track.bonuses).map(([k, b]) => `${k}: ${esc(bonusText(b, names))}`).join(" · ");
  const [tracks, round, monastery] = [t("Tracks"), t("Round track"), t("Monastery track")].map(esc);
  return `<section class="tf-card" aria-label="${tracks}" data-testid="tf-tracks"><h3>${round}</h3>
    <div class="tf-track round" role="group" aria-label="${round}" data-tip-group>${rounds}</div>
    <h3 style="margin-top:8px">${monastery}</h3>
    <div class="tf-scroll"><div class="tf-track mon" role="group" aria-label="${monastery}" data-tip-group>${cells.join("")}</div></div>
    <p class="tf-muted">${legend}</p></section>`;
}
