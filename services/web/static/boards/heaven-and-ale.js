// The Heaven & Ale (+ Kegs & More) board: the main track, every player's monastery garden, production track,
// scoring spots and delivery board, drawn from the engine's description and the seat's view. Every move is
// offered from the legal commands and every preview (shed, disc, final score) comes from the view: no rule is
// re-implemented here. Contract: mount(root, ctx) -> { update(state), destroy() } (services/web/README.md).

import { redraw } from "./redraw.js";
import { adoptStyle } from "./style.js";

const SVGNS = "http://www.w3.org/2000/svg";
const RES_COLOUR = { wood: "#8d5a2b", yeast: "#efe2b0", hops: "#6aa84f", water: "#3d85c6", barley: "#e0a92a" };
const RES_TEXT = { wood: "#fff", yeast: "#3b3020", hops: "#fff", water: "#fff", barley: "#3b3020" };
const MONK_COLOUR = "#4a3b63";
const SPACE_LABEL = { start: "Start", resource: "Tiles", monk: "Monks", A: "Disc A", B: "Disc B", C: "Disc C",
  ABC: "A / B / C", barrel: "Barrels" };
const STEP_PROMPT = {
  move: "Choose a space on the track (highlighted) or a starting space.",
  buy: "Buy a tile: pick one below, then a highlighted garden spot (its price in ducats is shown).",
  disc: "Put a disc on a scoring spot (the gain is shown).",
  barrel: "Claim your barrels, or pass.",
  storage: "Use the storage tile of the shed you enclosed.",
  shed: "Choose which adjacent tiles the new shed activates.",
  privilege: "You completed a pair: place a privilege card.",
  goods: "Take kegs and bales, or pass.",
  cart: "Use the carter die to move your cart, or pass.",
};
const TILE_SHORT = { kegbale: "keg/bale", carter2: "cart +2", carter3: "cart +3", points7: "7 pts", points8: "8 pts",
  move3: "move 3", move4: "move 4" };

const CSS = `
.ha { font: 14px/1.35 system-ui, sans-serif; color: #231d14; display: flex; flex-direction: column; gap: 10px; }
.ha-card { background: #fff; border: 1px solid #0002; border-radius: 8px; padding: 8px 10px; }
.ha-prompt { font-weight: 600; margin: 0 0 6px; }
.ha-actions { display: flex; flex-wrap: wrap; gap: 6px; }
.ha-actions button { min-height: 40px; padding: 5px 10px; border-radius: 6px; border: 2px solid #c98a1b; background: #fff8e6;
  cursor: pointer; font: inherit; text-align: left; }
.ha-actions button:hover { background: #ffe9b3; }
.ha-actions button.chosen { background: #f0b400; }
.ha-actions button.minor { border-color: #bbb; background: #f6f6f6; font-size: 12px; }
.ha-actions button:disabled { opacity: .5; }
.ha-coins { margin-top: 6px; font-size: 12.5px; }
.ha-coins > summary { cursor: pointer; color: #6b655c; }
.ha-gain { color: #1b6b33; font-size: 12px; display: block; }
.ha-trackwrap, .ha-scroll { overflow-x: auto; }
.ha-track { display: block; width: 100%; min-width: 600px; height: auto; }
.ha svg text { font-family: system-ui, sans-serif; }
.ha .target { cursor: pointer; }
.ha .target > .hit, .ha .target.hit { stroke: #f0b400; stroke-width: 4; stroke-dasharray: 8 4; }
.ha .target:hover > .hit, .ha .target.hit:hover { fill: #fff1c2; }
.ha .hl polygon { stroke: #e0006a; stroke-width: 4; }
.ha-players { display: flex; flex-direction: column; gap: 8px; }
.ha-player > summary { cursor: pointer; list-style: none; display: flex; flex-wrap: wrap; gap: 4px 12px; align-items: center; }
.ha-player > summary::-webkit-details-marker { display: none; }
.ha-player > summary::before { content: "▸"; color: #888; }
.ha-player[open] > summary::before { content: "▾"; }
.ha-swatch { width: 14px; height: 14px; border-radius: 50%; border: 1px solid #0006; display: inline-block; }
.ha-name { font-weight: 700; }
.ha-stat { font-variant-numeric: tabular-nums; }
.ha-board { display: grid; grid-template-columns: minmax(0, 1fr); gap: 8px; margin-top: 6px; }
.ha-mine .ha-board { grid-template-columns: minmax(0, 5fr) minmax(0, 4fr); }
.ha-garden { width: 100%; height: auto; display: block; }
.ha-glance { flex-basis: 100%; display: flex; gap: 10px; align-items: flex-start; }
.ha-mini { flex: 0 0 150px; }
.ha-glance .ha-facts { flex: 1; min-width: 0; }
.ha-prod { width: 100%; min-width: 520px; height: auto; display: block; }
.ha-wide { grid-column: 1 / -1; min-width: 0; }
.ha-facts { font-size: 12.5px; display: flex; flex-wrap: wrap; gap: 2px 12px; }
.ha-facts b { font-weight: 600; }
.ha-sheet { border-collapse: collapse; width: 100%; font-size: 13px; }
.ha-sheet th, .ha-sheet td { padding: 3px 6px; border-bottom: 1px solid #0001; text-align: right; }
.ha-sheet th:first-child { text-align: left; }
.ha-sheet tr.total td { font-weight: 700; border-top: 2px solid #333; }
.ha-road { width: 100%; min-width: 480px; height: auto; display: block; }
.ha-muted { color: #6b655c; font-size: 12px; }
.ha-sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
@media (max-width: 700px) { .ha-mine .ha-board { grid-template-columns: minmax(0, 1fr); } }
`;

function injectStyle() {
  adoptStyle("ha-style", CSS);
}

const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
const fmt = (x) => (Number.isInteger(x) ? String(x) : x.toFixed(1));
const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
// the brewmaster starts 10 steps short of spot 1 (position -9): "on 4", or "3 steps before 1", never "-2"
const brewmasterAt = (position) => (position >= 1 ? `on ${position}` : `${plural(1 - position, "step")} before 1`);

function gainText(g) {
  const parts = [];
  for (const [c, n] of Object.entries(g.markers || {})) parts.push(`${c} +${n}`);
  if (g.brewmaster) parts.push(`brewmaster +${g.brewmaster}`);
  if (g.ducats) parts.push(`+${g.ducats} ducats`);
  return parts.length ? parts.join(", ") : "no gain";
}

// -- small drawings -------------------------------------------------------------------------------------------
function hexPoints(cx, cy, r) {
  const pts = [];
  for (let i = 0; i < 6; i++) {
    const a = Math.PI / 180 * (60 * i - 30);
    pts.push(`${(cx + r * Math.cos(a)).toFixed(1)},${(cy + r * Math.sin(a)).toFixed(1)}`);
  }
  return pts.join(" ");
}

function tileSvg(name, cx, cy, r) {
  const [kind, n] = name.split("-");
  const monk = kind === "monk";
  const fill = monk ? MONK_COLOUR : RES_COLOUR[kind];
  const ink = monk ? "#fff" : RES_TEXT[kind];
  return `<polygon points="${hexPoints(cx, cy, r)}" fill="${fill}" stroke="#0008" stroke-width="1"/>
    <text x="${cx}" y="${cy + r * 0.36}" text-anchor="middle" font-size="${r * (monk ? 0.8 : 1.05)}" font-weight="700" fill="${ink}">${monk ? `M${n}` : n}</text>
    <title>${esc(name)}</title>`;
}

function tileChip(name) {
  return `<svg width="30" height="30" viewBox="0 0 30 30" aria-hidden="true" style="vertical-align:middle">${tileSvg(name, 15, 15, 14)}</svg>`;
}

// -- the board ------------------------------------------------------------------------------------------------
export function mount(root, ctx) {
  injectStyle();
  const el = document.createElement("div");
  el.className = "ha";
  el.dataset.testid = "ha-board";
  root.appendChild(el);
  let desc = null;
  let state = null;
  let chosenTile = null; // the tile picked for buying, before its garden spot
  let chosenSlot = null; // the +2 resource starting space, before its colour
  let pending = false;
  let open = new Set(); // expanded opponent boards
  let coinsOpen = false; // the emergency-coin group stays open across redraws once opened
  // what happened since this seat last acted: outlined on the track and the gardens
  let recent = { spaces: new Set(), spots: new Set() };

  let failed = null;
  ctx.api.description().then((d) => {
    desc = d;
    if (!d) failed = "The game's description is missing.";
    render();
  }).catch((err) => {
    failed = `The board cannot be drawn: ${err?.message || err}`;
    render();
  });

  const colourOf = (seat) => ctx.seatInfo?.[seat]?.colour || ["#c0392b", "#2e86c1", "#f1c40f", "#222"][seat % 4];
  const nameOf = (seat) => ctx.seatInfo?.[seat]?.name || `Seat ${seat + 1}`;

  async function submit(index) {
    if (pending || !state) return;
    const command = state.legal[index];
    if (!command) return;
    pending = true;
    recent = { spaces: new Set(), spots: new Set() };
    chosenTile = null;
    chosenSlot = null;
    render();
    try {
      await ctx.api.submit(command);
    } catch (err) {
      // the frame shows the error; the board stays as it was
    } finally {
      pending = false;
      render();
    }
  }

  el.addEventListener("click", (e) => {
    const t = e.target.closest("[data-cmd], [data-pick-tile], [data-pick-slot]");
    if (!t || !el.contains(t)) return;
    if (t.dataset.cmd !== undefined) {
      e.preventDefault();
      submit(Number(t.dataset.cmd));
    } else if (t.dataset.pickTile !== undefined) {
      chosenTile = chosenTile === t.dataset.pickTile ? null : t.dataset.pickTile;
      render();
    } else if (t.dataset.pickSlot !== undefined) {
      chosenSlot = chosenSlot === t.dataset.pickSlot ? null : t.dataset.pickSlot;
      render();
    }
  });
  el.addEventListener("keydown", (e) => {
    if ((e.key === "Enter" || e.key === " ") && e.target.matches("g[tabindex]")) {
      e.preventDefault();
      e.target.dispatchEvent(new MouseEvent("click", { bubbles: true }));
    }
  });
  el.addEventListener("toggle", (e) => {
    const d = e.target;
    if (d.matches?.(".ha-coins")) coinsOpen = d.open;
    if (!d.matches?.("details[data-seat]")) return;
    if (d.open) open.add(d.dataset.seat); else open.delete(d.dataset.seat);
  }, true);
  // pointing at (or tabbing to) a shed choice outlines its spots on the garden
  const outline = (e) => {
    const b = e.target.closest?.("[data-spots]");
    el.querySelectorAll(".hl").forEach((n) => n.classList.remove("hl"));
    if (!b) return;
    for (const spot of b.dataset.spots.split(",")) el.querySelectorAll(`[data-spot="${spot}"][data-mine]`).forEach((n) => n.classList.add("hl"));
  };
  el.addEventListener("mouseover", outline);
  el.addEventListener("focusin", outline);

  function legalOf(type) {
    return (state?.legal || []).map((c, i) => [c, i]).filter(([c]) => c.type === type);
  }

  function render() {
    if (!state || !desc) {
      redraw(el, `<p class="ha-muted" role="status">${esc(failed || "Loading the board…")}</p>`);
      return;
    }
    const v = state.view;
    redraw(el, `
      ${actionPanel(v)}
      ${finalSheet(v)}
      <section class="ha-card" aria-label="Main track">
        <div class="ha-trackwrap">${trackSvg(v)}</div>
      </section>
      <section class="ha-players" aria-label="Players">${playerOrder(v).map((s) => playerBoard(v, s)).join("")}</section>
      <div class="ha-sr" aria-live="polite">${esc(summary(v))}</div>`);
    el.dataset.step = v.step || v.phase;
  }

  function playerOrder(v) {
    const seats = [...Array(v.players).keys()];
    const me = ctx.seat;
    return me === null || me === undefined ? seats : [me, ...seats.filter((s) => s !== me)];
  }

  // -- actions -----------------------------------------------------------------------------------------------
  function actionPanel(v) {
    const over = v.phase === "over" || ["ended", "scored"].includes(state.status);
    const legal = state.legal || [];
    const who = v.turn !== null && v.turn !== undefined ? v.turn : null;
    let prompt;
    if (over) prompt = "Game over.";
    else if (!legal.length) {
      prompt = v.phase === "arranging" ? "Players arrange their storage tiles." : v.phase === "placing"
        ? "Players place their figures on the starting spaces." : who !== null ? `${nameOf(who)} is on turn${v.step ? ` (${v.step})` : ""}.` : "Waiting…";
    } else if (chosenSlot === "resource") prompt = "+2 resource starting space: which marker moves 2 steps?";
    else if (v.phase === "placing") prompt = "Place your figure on a highlighted starting space.";
    else if (v.phase === "arranging") {
      const next = desc.garden.sheds.find((s) => !(s.name in (v.boards[ctx.seat].delivery?.storage_tiles || {})));
      prompt = `Arrange your storage tiles: which goes on shed ${next ? next.name : "?"}?`;
    } else prompt = STEP_PROMPT[v.step] || "Your decision.";
    const buttons = [];
    const btn = (i, label, extra = "", cls = "target") =>
      `<button type="button" class="${cls}" data-cmd="${i}" ${extra} ${pending ? "disabled" : ""}>${label}</button>`;
    const rest = [];
    const coins = [];
    for (const [c, i] of legal.map((c, i) => [c, i])) {
      switch (c.type) {
        case "Move": case "BuyTile": break; // chosen on the track and the garden
        case "EnterStartingArea":
          if (c.slot === "resource" && chosenSlot === "resource") buttons.push(btn(i, `+2 <b>${c.colour}</b>`, `data-kind="slot-colour"`));
          break;
        case "PlaceStorageTile":
          buttons.push(btn(i, `<b>${esc(TILE_SHORT[c.tile] || c.tile)}</b><span class="ha-gain">${esc(storageText(c.tile))}</span>`, `data-kind="storage"`));
          break;
        case "EndBuying": rest.push(btn(i, "End buying", `data-kind="end"`)); break;
        case "TakeDisc": {
          const p = (v.disc_choices || []).find((d) => d.spot === c.spot && d.number === c.number);
          buttons.push(btn(i, `Disc on <b>${esc(c.spot)}</b>${c.number ? ` naming ${c.number}` : ""}${p ? `<span class="ha-gain">${esc(gainText(p))}</span>` : ""}`, `data-kind="disc"`));
          break;
        }
        case "ClaimBarrels": {
          const goals = [...desc.barrels.goals, desc.barrels.kegs_and_more_goal];
          const choice = v.barrel_choice || { large: [], small: [] };
          const names = [...choice.large.map((g) => `large: ${goals[g].text}`), ...choice.small.map((g) => `small: ${goals[g].text}`)];
          buttons.push(btn(i, `Claim barrels<span class="ha-gain">${esc(names.join("; ") || "none")}</span>`, `data-kind="barrels"`));
          break;
        }
        case "ChooseShedTiles": {
          const p = (v.shed_choices || []).find((d) => d.spots.join() === c.spots.join());
          buttons.push(btn(i, `Activate <b>${c.spots.join(" + ") || "nothing"}</b>${p ? `<span class="ha-gain">${esc(gainText(p))}</span>` : ""}`,
            `data-kind="shed" data-spots="${c.spots.join(",")}"`));
          break;
        }
        case "PlacePrivilege": {
          const text = desc.production.privilege_cards.find((x) => x.card === c.card)?.text || "";
          buttons.push(btn(i, `Card <b>${esc(c.card)}</b>${c.colour ? ` (${c.colour})` : ""}<span class="ha-gain">${esc(text)}</span>`, `data-kind="privilege"`));
          break;
        }
        case "DeclinePrivilege": rest.push(btn(i, "Place no card", `data-kind="decline"`)); break;
        case "UseEmergencyCoin":
          coins.push(btn(i, `return “${esc(c.card)}”`, `data-kind="coin"`, "target minor"));
          break;
        case "ResolveStorageTile": buttons.push(btn(i, resolveText(v, c), `data-kind="storage-use"`)); break;
        case "TakeGoods": buttons.push(btn(i, goodsText(c), `data-kind="goods"`)); break;
        case "UseCarterDie": {
          const cv = v.boards[ctx.seat]?.delivery?.carter_value;
          const p = (v.cart_choices || []).find((x) => x.load === c.load);
          const road = desc.kegs_and_more.road;
          const where = p ? `to ${road[p.to].kind === "tavern" ? `tavern ${road[p.to].tavern}` : road[p.to].kind} (${p.to})` : "";
          const delivers = p ? p.delivered.map((n, a) => n ? `${n} to keg area ${a + 1}` : "").filter(Boolean).join(", ") : "";
          buttons.push(btn(i, `Move the cart ${cv} step${cv === 1 ? "" : "s"}${c.load ? `, loading ${plural(c.load, "keg")} (1 bale each)` : ""}
            ${p ? `<span class="ha-gain">${esc(where)}${delivers ? `, delivering ${esc(delivers)}` : ""}</span>` : ""}`, `data-kind="cart"`));
          break;
        }
        case "Pass": rest.push(btn(i, "Pass (skip this action)", `data-kind="pass"`)); break;
        default: buttons.push(btn(i, esc(JSON.stringify(c)), `data-kind="other"`));
      }
    }
    // buying: one button per tile on offer; the garden then highlights where it may go
    const buys = legalOf("BuyTile");
    if (buys.length) {
      const tiles = [...new Set(buys.map(([c]) => c.tile))];
      const picks = tiles.map((t) => {
        const costs = buys.filter(([c]) => c.tile === t).map(([c]) => c.spot[0] === "S" ? "S" : "H");
        const price = tilePrice(v, t);
        return `<button type="button" class="target ${chosenTile === t ? "chosen" : ""}" data-pick-tile="${esc(t)}" data-kind="pick-tile" ${pending ? "disabled" : ""}>
          ${tileChip(t)} ${esc(t)}<span class="ha-gain">${costs.includes("H") ? `shady ${price}` : ""}${costs.includes("H") && costs.includes("S") ? " · " : ""}${costs.includes("S") ? `sunny ${2 * price}` : ""} ducats</span></button>`;
      });
      buttons.unshift(...picks);
    }
    const me = ctx.seat !== null && ctx.seat !== undefined ? v.boards[ctx.seat] : null;
    const mine = me ? `<span class="ha-muted">You: ${me.ducats} ducats · brewmaster ${brewmasterAt(me.brewmaster)} (${me.exchange_rate}:1, ×${me.vp_per_spot}) · if the game ended now: <b data-testid="ha-score-now">${fmt(me.score_now.total)}</b> VP</span>` : "";
    return `<section class="ha-card" aria-label="Your move" data-testid="ha-actions">
      <p class="ha-prompt" data-testid="ha-prompt">Round ${v.round} of ${v.rounds} · ${esc(prompt)}</p>
      ${buttons.length || rest.length ? `<div class="ha-actions">${buttons.join("")}${rest.join("")}</div>` : ""}
      ${coins.length ? `<details class="ha-coins" ${coinsOpen || legal.every((c) => c.type === "UseEmergencyCoin") ? "open" : ""}><summary>Emergency coin: return an unplaced privilege card for ${desc.production.emergency_coin_ducats} ducats</summary><div class="ha-actions">${coins.join("")}</div></details>` : ""}
      ${mine}
    </section>`;
  }

  function tilePrice(v, tile) {
    if (tile.startsWith("monk")) return desc.track.spaces[v.current_space]?.monk_cost ?? 0;
    return Number(tile.split("-")[1]);
  }

  function storageText(tile) {
    return desc.kegs_and_more?.storage_tiles.find((t) => t.tile === tile)?.text || tile;
  }

  function resolveText(v, c) {
    const tile = v.boards[ctx.seat]?.delivery?.storage_tiles?.[v.pending_shed];
    if (c.side === "back") return `Flip <b>${esc(TILE_SHORT[tile] || tile)}</b> to its back<span class="ha-gain">${esc(desc.kegs_and_more.storage_tile_back)}</span>`;
    let what = storageText(tile);
    if (c.keg || c.bale) what = [c.keg && "1 keg", c.bale && "1 bale"].filter(Boolean).join(" + ") + (c.rental ? ` (the ${c.rental} on the rental spot)` : "");
    if (c.area) what = `keg area ${c.area} scores ${tile.replace("points", "")} per keg`;
    if (tile?.startsWith("move")) what = `move the cart ${tile.replace("move", "")}${c.load ? `, loading ${plural(c.load, "keg")}` : ""}`;
    return `Use <b>${esc(TILE_SHORT[tile] || tile)}</b><span class="ha-gain">${esc(what)}</span>`;
  }

  function goodsText(c) {
    const parts = [c.kegs && plural(c.kegs, "keg"), c.bales && plural(c.bales, "bale")].filter(Boolean).join(" + ");
    return `Take ${parts}${c.rental ? `<span class="ha-gain">the ${c.rental} on the rental spot (${desc.kegs_and_more.storage.rental_cost} ducats)</span>` : ""}`;
  }

  // -- main track --------------------------------------------------------------------------------------------
  // 28 spaces round a 9 x 7 ring, clockwise from the starting area at the top left.
  function cellOf(i) {
    if (i <= 8) return [i, 0];
    if (i <= 13) return [8, i - 8];
    if (i <= 22) return [8 - (i - 14), 6];
    return [0, 6 - (i - 22)];
  }

  function trackSvg(v) {
    const C = 88;
    const moves = Object.fromEntries(legalOf("Move").map(([c, i]) => [c.space, i]));
    const figures = {};
    v.boards.forEach((b) => {
      if (b.figure !== "start") (figures[b.figure] ||= []).push(b.seat);
    });
    const parts = [];
    parts.push(`<g data-space="0"><rect x="2" y="2" width="${C - 4}" height="${C - 4}" rx="6" fill="#fbf8f1" stroke="#8a7a60"/>
      <text x="6" y="15" font-size="11" fill="#6b5a3e">0</text><text x="${C / 2}" y="44" text-anchor="middle" font-size="12" font-weight="700">Start</text>
      <text x="${C / 2}" y="60" text-anchor="middle" font-size="10" fill="#555">see the centre</text><title>the starting area: its four starting spaces are in the centre</title></g>`);
    v.track.forEach((sp, i) => {
      if (i === 0) return;
      const [cx, cy] = cellOf(i);
      const x = cx * C, y = cy * C;
      const target = i in moves && !pending;
      const current = v.current_space === i && v.turn !== null;
      const d = desc.track.spaces[i];
      const fill = { resource: "#f6efe0", monk: "#ece6f5", barrel: "#f3e3cf" }[sp.kind] || "#e9f1f7";
      const tiles = (sp.tiles || []).map((t, k) => tileSvg(t, x + 18 + (k % 3) * 26, y + 38 + Math.floor(k / 3) * 24, 12)).join("");
      const discs = sp.discs ? `<circle cx="${x + 70}" cy="${y + 38}" r="11" fill="#7b3fa0" stroke="#fff"/><text x="${x + 70}" y="${y + 42}" text-anchor="middle" font-size="12" fill="#fff" font-weight="700">${sp.discs}</text><title>${plural(sp.discs, "disc")}</title>` : "";
      const goods = v.kegs_and_more && (sp.kegs || sp.bales) ? `<text x="${x + 5}" y="${y + 80}" font-size="11" fill="#5a3410">${sp.kegs ? `${sp.kegs} keg${sp.kegs > 1 ? "s" : ""}` : ""}${sp.kegs && sp.bales ? " · " : ""}${sp.bales ? `${sp.bales} bale${sp.bales > 1 ? "s" : ""}` : ""}</text>` : "";
      const die = v.carter_die && v.carter_die.space === i ? `<g><rect x="${x + 58}" y="${y + 54}" width="22" height="22" rx="4" fill="#fff" stroke="#222" stroke-width="1.5"/><text x="${x + 69}" y="${y + 70}" text-anchor="middle" font-size="14" font-weight="700">${v.carter_die.value}</text><title>carter die: ${v.carter_die.value}</title></g>` : "";
      const figs = (figures[i] || []).map((s, k) => pawn(x + 14 + k * 16, y + 70, colourOf(s), nameOf(s))).join("");
      parts.push(`<g ${target ? `class="target" data-cmd="${moves[i]}" data-space="${i}" data-kind="move" tabindex="0" role="button" aria-label="Move to space ${i}: ${esc(SPACE_LABEL[sp.kind])}"` : `data-space="${i}"`}>
        <rect class="hit" x="${x + 2}" y="${y + 2}" width="${C - 4}" height="${C - 4}" rx="6" fill="${fill}" stroke="${current ? "#e0006a" : "#8a7a60"}" stroke-width="${current ? 3 : 1}"/>
        <text x="${x + 6}" y="${y + 15}" font-size="11" fill="#6b5a3e">${i}</text>
        <text x="${x + C - 6}" y="${y + 15}" font-size="11" text-anchor="end" font-weight="600" fill="#3b2f1c">${esc(SPACE_LABEL[sp.kind])}${d.monk_cost ? ` ${d.monk_cost}` : ""}</text>
        ${recent.spaces.has(i) && !current ? `<rect x="5" y="5" width="${C - 10}" height="${C - 10}" rx="5" transform="translate(${x} ${y})" fill="none" stroke="#2e86c1" stroke-width="2" stroke-dasharray="5 3"><title>moved here lately</title></rect>` : ""}
        ${tiles}${discs}${goods}${die}${figs}<title>${esc(d.text)}</title></g>`);
    });
    parts.push(centre(v, C));
    return `<svg class="ha-track" viewBox="0 0 ${9 * C} ${7 * C}" role="img" aria-label="Main track">${parts.join("")}</svg>`;
  }

  function pawn(x, y, colour, who) {
    return `<g><circle cx="${x}" cy="${y - 10}" r="5.5" fill="${colour}" stroke="#000" stroke-width="1"/><path d="M${x - 7} ${y + 6} Q${x} ${y - 12} ${x + 7} ${y + 6} Z" fill="${colour}" stroke="#000" stroke-width="1"/><title>${esc(who)}</title></g>`;
  }

  function centre(v, C) {
    const x0 = C + 8, y0 = C + 8, w = 7 * C - 16;
    const out = [`<rect x="${x0 - 4}" y="${y0 - 4}" width="${w + 8}" height="${5 * C - 8}" rx="10" fill="#fbf8f1" stroke="#d9ccb3"/>`];
    // starting area, with its four starting spaces
    out.push(`<text x="${x0 + 4}" y="${y0 + 14}" font-size="13" font-weight="700">Starting area (space 0)</text>`);
    const slotCmds = legalOf("EnterStartingArea");
    desc.track.starting_spaces.forEach((slot, k) => {
      const x = x0 + 4 + k * 152, y = y0 + 22;
      const who = v.starting_spaces[slot.name];
      const cmds = slotCmds.filter(([c]) => c.slot === slot.name);
      let attrs = "";
      if (cmds.length && !pending) {
        attrs = cmds.length === 1 ? `class="target" data-cmd="${cmds[0][1]}"` : `class="target" data-pick-slot="${slot.name}"`;
        attrs += ` tabindex="0" role="button" data-kind="slot" aria-label="Starting space ${slot.name}: ${esc(slot.text)}"`;
      }
      const chosen = chosenSlot === slot.name;
      out.push(`<g ${attrs} data-slot="${slot.name}"><rect class="hit" x="${x}" y="${y}" width="146" height="56" rx="6" fill="${chosen ? "#ffe9b3" : "#fff"}" stroke="#8a7a60"/>
        <text x="${x + 6}" y="${y + 16}" font-size="12" font-weight="700">${esc(slot.name === "first" ? "First player" : slot.name === "resource" ? "+2 resource" : slot.name === "ducats" ? "+2 ducats" : "+1 brewmaster")}</text>
        <text x="${x + 6}" y="${y + 31}" font-size="10" fill="#555">${esc(slot.text.length > 30 ? slot.text.slice(0, 29) + "…" : slot.text)}</text>
        ${who !== null && who !== undefined ? pawn(x + 130, y + 46, colourOf(who), nameOf(who)) : ""}<title>${esc(slot.text)}</title></g>`);
    });
    // barrels
    const by = y0 + 96;
    out.push(`<text x="${x0 + 4}" y="${by}" font-size="13" font-weight="700">Barrel goals (large ${desc.barrels.large_vp} VP, small ${desc.barrels.small_vp} VP)</text>`);
    v.barrels.forEach((b, k) => {
      const col = k % 2, row = Math.floor(k / 2);
      const x = x0 + 4 + col * 302, y = by + 8 + row * 30;
      const owner = (s, big) => s === null || s === undefined
        ? `<circle cx="${x + (big ? 12 : 34)}" cy="${y + 12}" r="${big ? 9 : 7}" fill="none" stroke="#b58b4c" stroke-dasharray="2 2"/>`
        : `<circle cx="${x + (big ? 12 : 34)}" cy="${y + 12}" r="${big ? 9 : 7}" fill="${colourOf(s)}" stroke="#000"><title>${esc(nameOf(s))}</title></circle>`;
      out.push(`<g data-goal="${b.goal}">${owner(b.large, true)}${owner(b.small, false)}<text x="${x + 48}" y="${y + 16}" font-size="11.5">${esc(b.text)}</text></g>`);
    });
    const iy = by + 8 + 7 * 30 + 6;
    const info = [`Round ${v.round} of ${v.rounds} · face-down tiles: ${Object.entries(v.resource_piles_by_back).map(([back, n]) => `${n} (${back})`).join(" + ")} · monk piles to come: ${v.monk_piles_left}`,
      `Discs in reserve: ${v.disc_reserve}${v.kegs_and_more ? ` · kegs ${v.keg_reserve} and bales ${v.bale_reserve} in reserve` : ""}`];
    info.forEach((line, k) => out.push(`<text x="${x0 + 4}" y="${iy + k * 16}" font-size="12" fill="#444">${esc(line)}</text>`));
    return out.join("");
  }

  // -- player boards -----------------------------------------------------------------------------------------
  function playerBoard(v, seat) {
    const b = v.boards[seat];
    const mine = seat === ctx.seat;
    const onTurn = v.turn === seat;
    const isOpen = mine || open.has(String(seat)) || (ctx.seat === null && onTurn);
    const figure = b.figure === "start" ? (b.starting_space ? `starting space “${b.starting_space}”` : "starting area") : `space ${b.figure}`;
    const barrels = b.large_barrels.length + b.small_barrels.length;
    return `<details class="ha-card ha-player ${mine ? "ha-mine" : ""}" data-seat="${seat}" data-testid="ha-player-${seat}" ${isOpen ? "open" : ""}>
      <summary><span class="ha-swatch" style="background:${colourOf(seat)}"></span>
        <span class="ha-name">${esc(nameOf(seat))}${mine ? " (you)" : ""}${onTurn ? " · on turn" : ""}</span>
        <span class="ha-stat">${b.ducats} ducats</span><span class="ha-stat">figure: ${esc(figure)}</span>
        <span class="ha-stat">${plural(barrels, "barrel")}</span>
        <span class="ha-stat" title="the final scoring applied to this position">now worth <b>${fmt(b.score_now.total)}</b> VP</span>
        ${isOpen ? "" : glance(v, b)}</summary>
      ${isOpen ? `<div class="ha-board">
        <div>${gardenSvg(v, b, mine)}</div>
        <div>${scoringSpots(v, b)}${facts(v, b)}</div>
        <div class="ha-wide"><div class="ha-muted">Production track: markers, brewmaster (B) and its brackets (exchange rate, VP per spot)</div><div class="ha-scroll">${productionSvg(b)}</div></div>
        ${v.kegs_and_more ? `<div class="ha-wide">${deliveryBoard(v, b)}</div>` : ""}
      </div>` : ""}
    </details>`;
  }

  // a collapsed board still shows its garden small and the pieces on its tracks in one line
  function glance(v, b) {
    const markers = Object.entries(b.markers).map(([c, spot]) => `<span title="${c} marker"><span class="ha-swatch" style="background:${RES_COLOUR[c]};width:10px;height:10px"></span> ${spot}</span>`).join(" ");
    const d = b.delivery;
    return `<div class="ha-glance"><div class="ha-mini">${gardenSvg(v, b, false)}</div>
      <div class="ha-facts"><span><b>Markers</b> ${markers}</span><span><b>Brewmaster</b> ${brewmasterAt(b.brewmaster)} (${b.exchange_rate}:1 ×${b.vp_per_spot})</span>
      <span><b>Discs</b> ${b.discs.length ? b.discs.map(esc).join(", ") : "none"}</span>
      <span><b>Sheds</b> ${Object.keys(b.sheds).length}</span>
      ${d ? `<span><b>Kegs</b> ${d.kegs} · <b>bales</b> ${d.bales} · <b>cart</b> ${esc(d.cart_location)} (${d.cart_kegs}) · <b>delivered</b> ${d.delivered.reduce((a, x) => a + x, 0)}</span>` : ""}
      <span class="ha-muted">(open for the whole board)</span></div></div>`;
  }

  function gardenSvg(v, b, mine) {
    const R = 24, W = R * Math.sqrt(3) / 2;
    const X = (c) => 8 + W + c * W, Y = (r) => 8 + R + r * 1.5 * R;
    const spots = desc.garden.spots;
    const targetSpots = {};
    if (mine && chosenTile && !pending) for (const [c, i] of legalOf("BuyTile")) if (c.tile === chosenTile) targetSpots[c.spot] = i;
    const pend = v.turn === b.seat ? v.pending_shed : null;
    const out = [];
    // sunny and shady halves
    out.push(`<rect x="0" y="0" width="${X(6)}" height="${Y(6) + R + 8}" fill="#fff4cc"/><rect x="${X(6)}" y="0" width="${X(12) + W + 8 - X(6)}" height="${Y(6) + R + 8}" fill="#dfe7ef"/>
      <text x="6" y="14" font-size="11" fill="#8a6d00">sunny (×2 price)</text><text x="${X(12) + W}" y="14" font-size="11" fill="#44607a" text-anchor="end">shady</text>`);
    for (const s of spots) {
      const cx = X(s.col), cy = Y(s.row);
      const tile = b.garden[s.name];
      const t = s.name in targetSpots;
      const attrs = t ? `class="target" data-cmd="${targetSpots[s.name]}" tabindex="0" role="button" data-kind="spot" aria-label="Place ${esc(chosenTile)} on ${s.name}"` : "";
      out.push(`<g ${attrs} data-spot="${s.name}" ${mine ? "data-mine" : ""}><polygon class="hit" points="${hexPoints(cx, cy, R - 1)}" fill="${s.sunny ? "#fde9a0" : "#b9cadb"}" stroke="#fff" stroke-width="1.5"/>
        ${tile ? tileSvg(tile, cx, cy, R - 4) : ""}${tile && recent.spots.has(`${b.seat}:${s.name}`) ? `<polygon points="${hexPoints(cx, cy, R - 2)}" fill="none" stroke="#e0006a" stroke-width="2.5"><title>placed lately</title></polygon>` : ""}${tile ? "" : `<text x="${cx}" y="${cy + 4}" text-anchor="middle" font-size="10" fill="#7a6a50">${t ? "" : s.name}</text>
        ${t ? `<text x="${cx}" y="${cy + 5}" text-anchor="middle" font-size="14" font-weight="700" fill="#7a4d00">${costOf(targetSpots[s.name])}</text>` : ""}`}
        <title>${s.name}${tile ? `: ${tile}` : " (empty)"}</title></g>`);
    }
    for (const s of desc.garden.sheds) {
      const cx = X(s.col), cy = Y(s.row);
      const built = b.sheds[s.name];
      const storage = b.delivery?.storage_tiles?.[s.name];
      const isPend = pend === s.name || (v.turn === b.seat && (v.pending_sheds || []).includes(s.name));
      let label = s.name;
      if (built) label = `${built.activates}`;
      out.push(`<g data-shed="${s.name}"><polygon points="${hexPoints(cx, cy, R - 2)}" fill="${built ? "#8c6239" : "#fff"}" stroke="${isPend ? "#e0006a" : "#8c6239"}" stroke-width="${isPend ? 3 : 1.5}" stroke-dasharray="${built ? "" : "4 3"}"/>
        <text x="${cx}" y="${cy + (storage && !built ? -2 : 5)}" text-anchor="middle" font-size="${built ? 15 : 11}" font-weight="700" fill="${built ? "#fff" : "#8c6239"}">${label}</text>
        ${storage && !built ? `<text x="${cx}" y="${cy + 10}" text-anchor="middle" font-size="8.5" fill="#5a3410">${esc(TILE_SHORT[storage] || storage)}</text>` : ""}
        <title>shed ${s.name}${built ? `: type ${built.type}, activates ${built.activates} adjacent tile(s)` : " (not built: enclose it with six tiles)"}${storage ? `; storage tile ${storage}: ${storageText(storage)}` : ""}</title></g>`);
    }
    const w = X(12) + W + 8, h = Y(6) + R + 8;
    return `<svg class="ha-garden" viewBox="0 0 ${w.toFixed(0)} ${h.toFixed(0)}" role="img" aria-label="${esc(nameOf(b.seat))}'s monastery garden" style="max-width:${mine ? 520 : 420}px">${out.join("")}</svg>`;
  }

  function costOf(index) {
    const c = state.legal[index];
    const price = tilePrice(state.view, c.tile);
    return String(c.spot[0] === "S" ? 2 * price : price); // ducats (the prompt says so)
  }

  function productionSvg(b) {
    const p = desc.production;
    const low = p.lowest_spot, high = p.track_max, n = high - low + 1, S = 22;
    const X = (spot) => 6 + (spot - low) * S;
    const out = [];
    // the brewmaster's brackets above the numbered spots
    for (const br of p.brackets) {
      const from = br.from === null ? low : br.from, to = br.to;
      const mine = b.brewmaster >= from && b.brewmaster <= to;
      out.push(`<rect x="${X(from)}" y="2" width="${(to - from + 1) * S - 2}" height="18" rx="3" fill="${mine ? "#f0b400" : "#efe6d4"}" stroke="#b59a6a"/>
        <text x="${X(from) + ((to - from + 1) * S - 2) / 2}" y="15" text-anchor="middle" font-size="${to - from < 1 ? 7.5 : to - from < 2 ? 8.5 : 10.5}">${br.exchange_rate}:1 ×${br.vp_per_spot}</text>
        <title>brewmaster on ${br.from === null ? "0 or below" : `${from}–${to}`}: exchange ${br.exchange_rate}:1, ${br.vp_per_spot} VP per spot</title>`);
    }
    for (let s = low; s <= high; s++) {
      out.push(`<rect x="${X(s)}" y="24" width="${S - 2}" height="18" fill="${s >= 1 ? "#c49a6c" : "#e5d5bd"}"/>
        ${s >= 1 ? `<text x="${X(s) + (S - 2) / 2}" y="37" text-anchor="middle" font-size="10" fill="#fff">${s}</text>` : ""}`);
    }
    const stacks = {};
    const put = (spot, svg) => { const k = (stacks[spot] ||= 0); stacks[spot]++; out.push(svg(X(spot) + (S - 2) / 2, 54 + k * 13)); };
    put(b.brewmaster, (x, y) => `<g><rect x="${x - 6}" y="${y - 6}" width="12" height="12" rx="2" fill="#222"/><text x="${x}" y="${y + 3.5}" text-anchor="middle" font-size="9" fill="#fff">B</text><title>brewmaster ${brewmasterAt(b.brewmaster)}</title></g>`);
    for (const [c, spot] of Object.entries(b.markers)) {
      put(Math.max(low, spot), (x, y) => `<g><circle cx="${x}" cy="${y}" r="6" fill="${RES_COLOUR[c]}" stroke="#000"/><title>${c} marker on ${spot}</title></g>`);
    }
    const depth = Math.max(1, ...Object.values(stacks));
    const height = 54 + depth * 13;
    return `<svg class="ha-prod" viewBox="0 0 ${n * S + 12} ${height}" role="img" aria-label="Production track">${out.join("")}</svg>`;
  }

  function scoringSpots(v, b) {
    const discs = new Set(b.discs);
    const choices = v.turn === b.seat ? new Set((v.disc_choices || []).map((d) => d.spot)) : new Set();
    const pairs = b.pairs.map((pair) => {
      const spots = pair.spots.map((s) => {
        const colour = RES_COLOUR[s] || (s === "x" ? "#fff" : MONK_COLOUR);
        return `<span title="${esc(s)}${discs.has(s) ? ": disc" : ""}" style="display:inline-flex;align-items:center;gap:2px;margin-right:4px;${choices.has(s) ? "outline:2px dashed #f0b400;" : ""}">
          <span style="display:inline-block;width:12px;height:12px;border-radius:2px;background:${colour};border:1px solid #0006"></span>${esc(s)}${discs.has(s) ? ` <b style="color:#7b3fa0">●</b>` : ""}</span>`;
      }).join("");
      const card = pair.card ? `<span class="ha-muted"> → ${esc(pair.card)}</span>` : "";
      return `<span style="display:inline-block;border:1px solid #d9ccb3;border-radius:5px;padding:1px 4px;margin:2px">${spots}${card}</span>`;
    });
    return `<div class="ha-facts" aria-label="Scoring spots and privilege pairs"><b>Scoring spots:</b> ${pairs.join("")}</div>`;
  }

  function facts(v, b) {
    const goals = [...desc.barrels.goals, desc.barrels.kegs_and_more_goal];
    const name = (g) => goals.find((x) => x.goal === g)?.text || `goal ${g}`;
    const sheet = b.score_now;
    const rows = Object.entries(sheet.breakdown).filter(([, x]) => x).map(([k, x]) => `${k.replaceAll("_", " ")} ${fmt(x)}`);
    return `<div class="ha-facts">
      <span><b>Ducats</b> ${b.ducats}</span>
      <span><b>Brewmaster</b> ${brewmasterAt(b.brewmaster)} → exchange ${b.exchange_rate}:1, ×${b.vp_per_spot} per spot</span>
      <span><b>Privilege cards in hand</b> ${b.privilege_cards.length ? b.privilege_cards.map(esc).join(", ") : "none"}</span>
      <span><b>Large barrels</b> ${b.large_barrels.length ? b.large_barrels.map((g) => esc(name(g))).join("; ") : "none"}</span>
      <span><b>Small barrels</b> ${b.small_barrels.length ? b.small_barrels.map((g) => esc(name(g))).join("; ") : "none"}</span>
      <span><b>If the game ended now</b> least marker ${sheet.least_marker} × ${sheet.vp_per_spot} after the exchange; ${esc(rows.join(", ") || "0")} = <b>${fmt(sheet.total)}</b> VP</span>
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
      const label = loc.kind === "monastery" ? "Mon." : loc.kind === "tavern" ? `T${loc.tavern}` : loc.kind === "wood" ? "wood" : loc.points ? `${loc.points} pt` : "road";
      out.push(`<g><rect x="${x}" y="4" width="${S - 6}" height="34" rx="5" fill="${fill}" stroke="#8a7a60"/><text x="${x + (S - 6) / 2}" y="25" text-anchor="middle" font-size="10.5">${label}</text><title>${esc(loc.kind)}${loc.points ? `: ${loc.points} VP per keg on the cart at the end` : ""}</title></g>`);
      if (loc.gate_after) out.push(`<g><rect x="${x + S - 5}" y="0" width="4" height="42" fill="#5a3410"/><title>${esc(loc.gate_after.text)}</title></g>`);
    });
    const cx = 6 + d.cart * S + (S - 6) / 2;
    out.push(`<g><rect x="${cx - 14}" y="44" width="28" height="16" rx="3" fill="${colourOf(b.seat)}" stroke="#000"/><text x="${cx}" y="56" text-anchor="middle" font-size="10" font-weight="700" fill="#fff" stroke="#000" stroke-width="0.3">${d.cart_kegs}</text><title>cart with ${plural(d.cart_kegs, "keg")}</title></g>`);
    const road = `<svg class="ha-road" viewBox="0 0 ${n * S + 8} 64" role="img" aria-label="Delivery road">${out.join("")}</svg>`;
    const spots = [];
    for (let k = 0; k < d.regular_spots; k++) {
      const what = k < d.regular_kegs ? "keg" : k < d.regular_kegs + d.regular_bales ? "bale" : null;
      spots.push(storageSpot(what, false));
    }
    spots.push(storageSpot(d.rental_spot, true));
    const areas = km.keg_areas.map((a, k) => `<span style="border:1px solid #d9ccb3;border-radius:5px;padding:1px 6px">area ${a.area}: ${d.delivered[k]} × ${d.keg_area_values[k]}</span>`).join(" ");
    return `<div class="ha-facts" data-testid="ha-delivery-${b.seat}"><b>Delivery board</b> <div class="ha-scroll" style="flex-basis:100%">${road}</div>
      <span><b>Storage</b> ${spots.join("")}</span>
      <span><b>Kegs</b> ${d.kegs} · <b>bales</b> ${d.bales}</span>
      <span><b>Carter value</b> ${d.carter_value}${d.carter_bonus ? ` (die + ${d.carter_bonus})` : ""}</span>
      <span><b>Cart</b> ${esc(d.cart_location)}, ${plural(d.cart_kegs, "keg")}</span>
      <span><b>Keg areas</b> ${areas}</span>
      ${d.board_tiles.length ? `<span><b>Tiles on the board</b> ${d.board_tiles.map((t) => esc(TILE_SHORT[t] || t)).join(", ")}</span>` : ""}
      ${d.storage_tiles_in_hand.length ? `<span><b>Storage tiles to arrange</b> ${d.storage_tiles_in_hand.map((t) => esc(TILE_SHORT[t] || t)).join(", ")}</span>` : ""}
    </div>`;
  }

  function storageSpot(what, rental) {
    const fill = what === "keg" ? "#8d5a2b" : what === "bale" ? "#e6c65a" : "#fff";
    return `<span title="${rental ? "rental spot" : "storage spot"}${what ? `: ${what}` : " (empty)"}" style="display:inline-block;width:18px;height:18px;margin-right:3px;vertical-align:middle;border-radius:${what === "keg" ? "50%" : "3px"};background:${fill};border:${rental ? "2px dashed #b3261e" : "1px solid #0006"}"></span>`;
  }

  // -- end -------------------------------------------------------------------------------------------------
  function finalSheet(v) {
    if (v.phase !== "over") return "";
    const seats = [...Array(v.players).keys()];
    const keys = Object.keys(v.boards[0].score_now.breakdown);
    const rows = keys.map((k) => `<tr><th scope="row">${esc(k.replaceAll("_", " "))}</th>${seats.map((s) => `<td>${fmt(v.boards[s].score_now.breakdown[k])}</td>`).join("")}</tr>`);
    // how production was reached: the least marker after the exchange and the ducat steps, times the bracket
    rows.unshift(`<tr><th scope="row">least marker × VP per spot</th>${seats.map((s) => `<td>${v.boards[s].score_now.least_marker} × ${v.boards[s].score_now.vp_per_spot}</td>`).join("")}</tr>`);
    return `<section class="ha-card" aria-label="Final scores" data-testid="ha-final">
      <p class="ha-prompt">Final scores</p>
      <div class="ha-scroll"><table class="ha-sheet"><thead><tr><th></th>${seats.map((s) => `<th>${esc(nameOf(s))}</th>`).join("")}</tr></thead>
      <tbody>${rows.join("")}<tr class="total"><th scope="row">total</th>${seats.map((s) => `<td data-testid="ha-score-${s}">${fmt(v.boards[s].score_now.total)}</td>`).join("")}</tr></tbody></table></div>
    </section>`;
  }

  function summary(v) {
    const lines = [`Round ${v.round} of ${v.rounds}.`];
    for (const b of v.boards) {
      lines.push(`${nameOf(b.seat)}: ${b.ducats} ducats, brewmaster ${brewmasterAt(b.brewmaster)}, markers ${Object.entries(b.markers).map(([c, s]) => `${c} ${s}`).join(", ")}, ${Object.keys(b.garden).length} tiles in the garden, figure ${b.figure}, worth ${fmt(b.score_now.total)} now.`);
    }
    return lines.join(" ");
  }

  return {
    update(next) {
      if (state && next.version !== state.version) { chosenTile = null; chosenSlot = null; }
      for (const e of next.lastEvents || []) {
        const p = e.payload || {};
        if (e.type === "FigureMoved") recent.spaces.add(p.space);
        if (e.type === "TileBought") recent.spots.add(`${p.seat}:${p.spot}`);
      }
      state = next;
      render();
    },
    destroy() {
      el.remove();
    },
  };
}

// Move-log sentences for this game's events (the frame's wording otherwise).
export function describe(event, { seats } = {}) {
  const p = event.payload || event;
  const who = (s) => seats?.[s]?.name || (seats?.[s]?.bot ? `Bot ${s + 1}` : `Seat ${s + 1}`);
  switch (event.type) {
    case "FigureMoved": return `${who(p.seat)} moved to space ${p.space}.`;
    case "TileBought": return `${who(p.seat)} bought ${p.tile} for ${p.cost} ducats and placed it on ${p.spot}.`;
    case "DiscTaken": return `${who(p.seat)} put a disc on ${p.spot}${p.number ? ` naming ${p.number}` : ""}.`;
    case "ShedBuilt": return `${who(p.seat)} built shed ${p.shed} (type ${p.shed_type}).`;
    case "StartingSpaceTaken": return `${who(p.seat)} took the starting space “${p.slot}”.`;
    case "BarrelsClaimed": return `${who(p.seat)} claimed ${p.large.length + p.small.length} barrel(s).`;
    case "CartMoved": return `${who(p.seat)} moved the cart ${p.steps} to location ${p.to}${p.loaded ? `, loading ${p.loaded}` : ""}${p.delivered.some(Boolean) ? `, delivering ${p.delivered.reduce((a, b) => a + b, 0)}` : ""}.`;
    case "StepBegan": return `${who(p.seat)}: ${p.step}${p.shed ? ` (shed ${p.shed})` : ""}.`;
    case "RewardsGained": return `${who(p.seat)} gained ${gainText({ ducats: p.ducats, brewmaster: p.brewmaster,
      markers: Object.fromEntries(Object.keys(RES_COLOUR).map((c, k) => [c, p.markers[k]]).filter(([, n]) => n)) })} (${p.reason}).`;
    case "CarterDiePlaced": return `The carter die shows ${p.value} on space ${p.space}.`;
    case "GoodsTaken": return `${who(p.seat)} took ${[p.kegs && plural(p.kegs, "keg"), p.bales && plural(p.bales, "bale")].filter(Boolean).join(" and ") || "nothing"}${p.space >= 0 ? ` from space ${p.space}` : ""}.`;
    case "GoodsAdded": return `Kegs on spaces ${p.kegs.join(", ")}; bales on ${p.bales.join(", ")}.`;
    case "TrackStocked": return `Round ${p.round}: tiles and monks drawn onto the track, discs set.`;
    case "ActionSkipped": return `${who(p.seat)} passed (${p.step}).`;
    case "GameSetUp": return `The monasteries open: ${plural(p.players, "player")}, ${plural(p.rounds, "round")}${p.kegs_and_more ? ", with Kegs & More" : ""}; ${who(p.start_player)} starts.`;
    case "RoundBegan": return `Round ${p.round} begins.`;
    case "TurnBegan": return `${who(p.seat)}'s turn.`;
    case "TurnEnded": return `${who(p.seat)} ended the turn.`;
    case "ShedsEnclosed": return p.sheds.length === 1 ? `${who(p.seat)} enclosed shed ${p.sheds[0]}: it is resolved now.`
      : `${who(p.seat)} enclosed sheds ${p.sheds.join(", ")}: they are resolved in that order.`;
    case "ShedTilesActivated": return p.spots.length
      ? `${who(p.seat)} activated ${p.spots.join(", ")} around shed ${p.shed}.`
      : `${who(p.seat)} activated no tile around shed ${p.shed}.`;
    case "PrivilegePlaced": return `${who(p.seat)} placed the “${p.card}” privilege card${p.colour ? ` (${p.colour})` : ""} on pair ${p.pair}.`;
    case "PrivilegeDeclined": return `${who(p.seat)} placed no privilege card on pair ${p.pair}.`;
    case "EmergencyCoinUsed": return `${who(p.seat)} returned the “${p.card}” privilege card for ${p.ducats} ducats.`;
    case "StorageTilePlaced": return `${who(p.seat)} put the ${TILE_SHORT[p.tile] || p.tile} storage tile on shed ${p.shed}.`;
    case "StorageTileUsed": return `${who(p.seat)} ${p.side === "back" ? "flipped" : "used"} the ${TILE_SHORT[p.tile] || p.tile} storage tile of shed ${p.shed}${p.area != null ? ` (keg area ${p.area})` : ""}.`;
    case "GameEnded": return "The last round is over.";
    default: return null;
  }
}
