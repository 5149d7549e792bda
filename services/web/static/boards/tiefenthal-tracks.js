// The Tiefenthal round track (each round's start bonus) and monastery track (the players' pawns and the bonuses
// along it), with a tip on every space.

import { tipAttr } from "./tip-keys.js";
import { bonusText, esc } from "./tiefenthal-words.js";

// board: { cardNames(), nameOf(seat), colourOf(seat, view) }
export function tracksMarkup(v, desc, board) {
  const names = board.cardNames();
  const { nameOf, colourOf } = board;
  const rounds = desc.round_track.slice(0, v.rounds).map((b, i) => `<div class="tf-cell ${i + 1 === v.round ? "now" : ""}" data-key="round-${i}"${tipAttr(`Round ${i + 1}${i + 1 === v.round ? " (now)" : ""}`, `Start bonus: ${bonusText(b, names)}.`)}>
    <span>${i + 1}</span><span>${esc(bonusText(b, names))}</span></div>`).join("");
  const cells = [];
  for (let k = 0; k <= desc.monastery_track.last; k++) {
    const b = desc.monastery_track.bonuses[String(k)];
    const pawns = v.players.filter((p) => p.monastery === k)
      .map((p) => `<span class="tf-pawn" style="background:${colourOf(p.seat, v)}"></span>`).join("");
    const here = v.players.filter((p) => p.monastery === k).map((p) => nameOf(p.seat));
    const hint = tipAttr(`Monastery space ${k}`, b ? `Reaching it gives ${bonusText(b, names)}.` : "No bonus here.", here.length ? `Here: ${here.join(", ")}.` : "");
    cells.push(`<div class="tf-cell ${b ? "bonus" : ""}" data-testid="tf-mon-${k}" data-key="mon-${k}"${hint}><span>${k}</span>${b ? `<span>★</span>` : ""}<span>${pawns}</span></div>`);
  }
  const legend = Object.entries(desc.monastery_track.bonuses).map(([k, b]) => `${k}: ${esc(bonusText(b, names))}`).join(" · ");
  return `<section class="tf-card" aria-label="Tracks" data-testid="tf-tracks"><h3>Round track</h3>
    <div class="tf-track round" role="group" aria-label="Round track" data-tip-group>${rounds}</div>
    <h3 style="margin-top:8px">Monastery track</h3>
    <div class="tf-scroll"><div class="tf-track mon" role="group" aria-label="Monastery track" data-tip-group>${cells.join("")}</div></div>
    <p class="tf-muted">${legend}</p></section>`;
}
