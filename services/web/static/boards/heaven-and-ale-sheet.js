// A Heaven & Ale player's sheet: the production track, the scoring spots, the facts and the delivery board
// (Kegs & More), drawn from the engine's description and the seat's board in the view.
import { tipAttr } from "./tip-keys.js";
import { MONK_COLOUR, RES_COLOUR, esc, fmt } from "./heaven-and-ale-draw.js";
import { brewmasterAt, cardName, kegs, placeName, resourceName, spotName, storageShort } from "./heaven-and-ale-words.js";
import { t } from "../js/i18n.js";

// the score sheet's rows (scoring.breakdown's keys)
const ROW = {
  production: () => t("production"), large_barrels: () => t("large barrels"), small_barrels: () => t("small barrels"),
  barrel_privilege: () => t("barrel privilege"), first_player: () => t("first player"),
  kegs_delivered: () => t("kegs delivered"), kegs_stored: () => t("kegs stored"), kegs_on_cart: () => t("kegs on the cart"),
};
const rowName = (k) => ROW[k]?.() || k.replaceAll("_", " ");

/** The sheet's drawings for one description; ``colourOf(seat)`` is the seat's colour. */
export function sheet(desc, colourOf) {
  function productionSvg(b) {
    const p = desc.production;
    const low = p.lowest_spot, high = p.track_max, n = high - low + 1, S = 22;
    const X = (spot) => 6 + (spot - low) * S;
    const out = [];
    // the brewmaster's brackets above the numbered spots
    for (const br of p.brackets) {
      const from = br.from === null ? low : br.from, to = br.to;
      const mine = b.brewmaster >= from && b.brewmaster <= to;
      const q = { from, to, rate: br.exchange_rate, vp: br.vp_per_spot };
      const hint = tipAttr(br.from === null ? t("Brewmaster bracket 0 or below") : t("Brewmaster bracket {from}–{to}", q),
        t("With the brewmaster here: exchange {rate}:1 at the end, {vp} VP per spot of the least marker.", q),
        mine ? t("The brewmaster is in this bracket now.") : "");
      out.push(`<g${hint}><rect x="${X(from)}" y="2" width="${(to - from + 1) * S - 2}" height="18" rx="3" fill="${mine ? "#f0b400" : "#efe6d4"}" stroke="#b59a6a"/>
        <text x="${X(from) + ((to - from + 1) * S - 2) / 2}" y="15" text-anchor="middle" font-size="${to - from < 1 ? 7.5 : to - from < 2 ? 8.5 : 10.5}">${br.exchange_rate}:1 ×${br.vp_per_spot}</text></g>`);
    }
    for (let s = low; s <= high; s++) {
      out.push(`<rect x="${X(s)}" y="24" width="${S - 2}" height="18" fill="${s >= 1 ? "#c49a6c" : "#e5d5bd"}"/>
        ${s >= 1 ? `<text x="${X(s) + (S - 2) / 2}" y="37" text-anchor="middle" font-size="10" fill="#fff">${s}</text>` : ""}`);
    }
    const stacks = {};
    const put = (spot, svg) => { const k = (stacks[spot] ||= 0); stacks[spot]++; out.push(svg(X(spot) + (S - 2) / 2, 54 + k * 13)); };
    const brew = t("{at}: exchange {rate}:1, {vp} VP per spot at the end.", { at: brewmasterAt(b.brewmaster), rate: b.exchange_rate,
      vp: b.vp_per_spot });
    put(b.brewmaster, (x, y) => `<g${tipAttr(t("Brewmaster"), brew)}><rect x="${x - 6}" y="${y - 6}" width="12" height="12" rx="2" fill="#222"/><text x="${x}" y="${y + 3.5}" text-anchor="middle" font-size="9" fill="#fff">B</text></g>`);
    for (const [c, spot] of Object.entries(b.markers)) {
      const q = { resource: resourceName(c), spot };
      const tip = tipAttr(t("{resource} marker", q),
        t("On {spot}. Sunny {resource} tiles move it when activated; the least advanced marker scores at the end.", q));
      put(Math.max(low, spot), (x, y) => `<g${tip}><circle cx="${x}" cy="${y}" r="6" fill="${RES_COLOUR[c]}" stroke="#000"/></g>`);
    }
    const depth = Math.max(1, ...Object.values(stacks));
    const height = 54 + depth * 13;
    return `<svg class="ha-prod" viewBox="0 0 ${n * S + 12} ${height}" role="group" data-tip-group aria-label="${esc(t("Production track"))}">${out.join("")}</svg>`;
  }

  function scoringSpots(v, b) {
    const discs = new Set(b.discs);
    const choices = v.turn === b.seat ? new Set((v.disc_choices || []).map((d) => d.spot)) : new Set();
    const pairs = b.pairs.map((pair) => {
      const spots = pair.spots.map((s) => {
        const colour = RES_COLOUR[s] || (s === "x" ? "#fff" : MONK_COLOUR);
        const hint = tipAttr(t("Scoring spot {spot}", { spot: spotName(s) }), discs.has(s) ? t("A disc is on it.")
          : t("No disc yet: a disc space of the track can put one here."),
        choices.has(s) ? t("You can put your disc here now (the gain is on the button).") : "",
        t("With its pair ({pair}) full, a privilege card is placed.", { pair: pair.spots.map(spotName).join(" + ") }));
        return `<span${hint} style="display:inline-flex;align-items:center;gap:2px;margin-right:4px;${choices.has(s) ? "outline:2px dashed #f0b400;" : ""}">
          <span style="display:inline-block;width:12px;height:12px;border-radius:2px;background:${colour};border:1px solid #0006"></span>${esc(spotName(s))}${discs.has(s) ? ` <b style="color:#7b3fa0">●</b>` : ""}</span>`;
      }).join("");
      const card = pair.card ? `<span class="ha-muted"> → ${esc(cardName(pair.card))}</span>` : "";
      return `<span style="display:inline-block;border:1px solid #d9ccb3;border-radius:5px;padding:1px 4px;margin:2px">${spots}${card}</span>`;
    });
    return `<div class="ha-facts" role="group" aria-label="${esc(t("Scoring spots and privilege pairs"))}" data-tip-group>`
      + `<b>${esc(t("Scoring spots:"))}</b> ${pairs.join("")}</div>`;
  }

  function facts(v, b) {
    const goals = [...desc.barrels.goals, desc.barrels.kegs_and_more_goal];
    const name = (g) => goals.find((x) => x.goal === g)?.text || t("goal {n}", { n: g });
    const score = b.score_now;
    const rows = Object.entries(score.breakdown).filter(([, x]) => x).map(([k, x]) => `${rowName(k)} ${fmt(x)}`);
    const none = t("none");
    const list = (xs, f, sep) => esc(xs.length ? xs.map(f).join(sep) : none);
    const q = { at: brewmasterAt(b.brewmaster), rate: b.exchange_rate, vp: b.vp_per_spot, least: score.least_marker,
      per: score.vp_per_spot, rows: rows.join(", ") || "0", total: fmt(score.total) };
    return `<div class="ha-facts">
      <span><b>${esc(t("Ducats"))}</b> ${b.ducats}</span>
      <span><b>${esc(t("Brewmaster"))}</b> ${esc(t("{at} → exchange {rate}:1, ×{vp} per spot", q))}</span>
      <span><b>${esc(t("Privilege cards in hand"))}</b> ${list(b.privilege_cards, cardName, ", ")}</span>
      <span><b>${esc(t("Large barrels"))}</b> ${list(b.large_barrels, name, "; ")}</span>
      <span><b>${esc(t("Small barrels"))}</b> ${list(b.small_barrels, name, "; ")}</span>
      <span><b>${esc(t("If the game ended now"))}</b> ${esc(t("least marker {least} × {per} after the exchange; {rows} = {total} VP", q))}</span>
    </div>`;
  }

  function deliveryBoard(v, b) {
    const km = desc.kegs_and_more;
    const d = b.delivery;
    const n = km.road.length, S = 46;
    const out = [];
    km.road.forEach((loc, i) => {
      const x = 6 + i * S;
      const fill = { monastery: "#d9c7f0", tavern: "#f4c98a", wood: "#b9dba0" }[loc.kind] || "#f2eee6";
      const label = loc.kind === "monastery" ? t("Mon.") : loc.kind === "tavern" ? t("T{n}", { n: loc.tavern })
        : loc.kind === "wood" ? t("woods") : loc.points ? t("{n} pt", { n: loc.points }) : t("road");
      const hint = tipAttr(t("Road {n}: {place}", { n: i, place: placeName(loc.kind) }),
        loc.points ? t("{n} VP per keg on the cart at the end.", { n: loc.points }) : "",
        loc.gate_after ? t("Gate after it: {gate}.", { gate: loc.gate_after.text }) : "",
        d.cart === i ? t("Your cart is here with {kegs}.", { kegs: kegs(d.cart_kegs) }) : "");
      out.push(`<g${hint}><rect x="${x}" y="4" width="${S - 6}" height="34" rx="5" fill="${fill}" stroke="#8a7a60"/><text x="${x + (S - 6) / 2}" y="25" text-anchor="middle" font-size="10.5">${esc(label)}</text></g>`);
      if (loc.gate_after) out.push(`<rect x="${x + S - 5}" y="0" width="4" height="42" fill="#5a3410"/>`);
    });
    const cx = 6 + d.cart * S + (S - 6) / 2;
    out.push(`<g><rect x="${cx - 14}" y="44" width="28" height="16" rx="3" fill="${colourOf(b.seat)}" stroke="#000"/><text x="${cx}" y="56" text-anchor="middle" font-size="10" font-weight="700" fill="#fff" stroke="#000" stroke-width="0.3">${d.cart_kegs}</text></g>`);
    const road = `<svg class="ha-road" viewBox="0 0 ${n * S + 8} 64" role="group" data-tip-group aria-label="${esc(t("Delivery road"))}">${out.join("")}</svg>`;
    const spots = [];
    for (let k = 0; k < d.regular_spots; k++) {
      const what = k < d.regular_kegs ? "keg" : k < d.regular_kegs + d.regular_bales ? "bale" : null;
      spots.push(storageSpot(what, false));
    }
    spots.push(storageSpot(d.rental_spot, true));
    const areas = km.keg_areas.map((a, k) => `<span style="border:1px solid #d9ccb3;border-radius:5px;padding:1px 6px">${esc(
      t("area {area}: {n} × {value}", { area: a.area, n: d.delivered[k], value: d.keg_area_values[k] }))}</span>`).join(" ");
    const b_ = (text) => `<b>${esc(text)}</b>`;
    const tiles = (xs) => esc(xs.map(storageShort).join(", "));
    return `<div class="ha-facts" data-testid="ha-delivery-${b.seat}">${b_(t("Delivery board"))} <div class="ha-scroll" style="flex-basis:100%">${road}</div>
      <span>${b_(t("Storage"))} ${spots.join("")}</span>
      <span>${b_(t("Kegs"))} ${d.kegs} · ${b_(t("bales"))} ${d.bales}</span>
      <span>${b_(t("Carter value"))} ${d.carter_value}${d.carter_bonus ? ` ${esc(t("(die + {n})", { n: d.carter_bonus }))}` : ""}</span>
      <span>${b_(t("Cart"))} ${esc(placeName(d.cart_location))}, ${esc(kegs(d.cart_kegs))}</span>
      <span>${b_(t("Keg areas"))} ${areas}</span>
      ${d.board_tiles.length ? `<span>${b_(t("Tiles on the board"))} ${tiles(d.board_tiles)}</span>` : ""}
      ${d.storage_tiles_in_hand.length ? `<span>${b_(t("Storage tiles to arrange"))} ${tiles(d.storage_tiles_in_hand)}</span>` : ""}
    </div>`;
  }

  function storageSpot(what, rental) {
    const fill = what === "keg" ? "#8d5a2b" : what === "bale" ? "#e6c65a" : "#fff";
    const holds = what === "keg" ? t("Holds a keg.") : what === "bale" ? t("Holds a bale.") : t("Empty.");
    const hint = tipAttr(rental ? t("Rental spot") : t("Storage spot"), holds,
      rental ? t("Placing a keg or a bale here costs {n} ducats.", { n: desc.kegs_and_more.storage.rental_cost }) : "");
    return `<span${hint} style="display:inline-block;width:18px;height:18px;margin-right:3px;vertical-align:middle;border-radius:${what === "keg" ? "50%" : "3px"};background:${fill};border:${rental ? "2px dashed #b3261e" : "1px solid #0006"}"></span>`;
  }
  return { productionSvg, scoringSpots, facts, deliveryBoard };
}
