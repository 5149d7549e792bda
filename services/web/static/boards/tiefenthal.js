// The Taverns of Tiefenthal (Module 1) board: every player's tavern (tiles and their action spaces, tables with
// guests and nobles, tavern cards placed this round, dice, safe and storage), the dice draft, the guest display
// and card supply, the round and monastery tracks, and the final sheet. Drawn from the engine's description and
// the seat's view; every move is offered from the legal commands (nothing about the rules is decided here).
// Contract: mount(root, ctx) -> { update(state), destroy() } (services/web/README.md).

import { redraw } from "./redraw.js";
import { adoptStyle } from "./style.js";

const CSS = `
.tf { font: 14px/1.35 system-ui, sans-serif; color: #2a2016; display: flex; flex-direction: column; gap: 10px; }
.tf-card { background: #fffdf8; border: 1px solid #0002; border-radius: 8px; padding: 8px 10px; min-width: 0; }
.tf-prompt { font-weight: 600; margin: 0 0 6px; }
.tf-row { display: flex; flex-wrap: wrap; gap: 6px; align-items: stretch; }
.tf h3 { font-size: 13px; margin: 0 0 6px; color: #6b4a1e; text-transform: uppercase; letter-spacing: .03em; }
.tf button { font: inherit; cursor: pointer; }
.tf .target { outline: 3px dashed #e09b00; outline-offset: 1px; cursor: pointer; }
.tf .target:hover, .tf .target:focus-visible { background: #ffefc2; }
.tf-btn { min-height: 40px; padding: 5px 10px; border-radius: 6px; border: 2px solid #c98a1b; background: #fff8e6; text-align: left; }
.tf-btn.minor { border-color: #bbb; background: #f6f6f6; }
.tf-btn:disabled { opacity: .5; cursor: default; }
.tf-status { display: flex; flex-wrap: wrap; gap: 4px 14px; align-items: baseline; }
.tf-phase { font-weight: 700; font-size: 15px; }
.tf-wait { color: #6b655c; }
.tf-die { display: inline-flex; align-items: center; justify-content: center; width: 30px; height: 30px; border-radius: 6px;
  border: 2px solid #0007; background: #fff; font-weight: 800; font-size: 16px; user-select: none; position: relative; }
.tf-die.col { color: #fff; }
.tf-die.sel { box-shadow: 0 0 0 3px #e0006a; }
.tf-die .boost { position: absolute; top: -8px; right: -8px; background: #1d6fa5; color: #fff; border-radius: 8px;
  font-size: 10px; padding: 0 3px; }
.tf-dicebox { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; min-height: 34px; }
.tf-dicebox button.tf-die { padding: 0; }
.tf-players { display: grid; grid-template-columns: minmax(0, 1fr); gap: 10px; }
.tf-player { border-left: 6px solid var(--pc); }
.tf-player > header { display: flex; flex-wrap: wrap; gap: 4px 12px; align-items: center; margin-bottom: 6px; }
.tf-name { font-weight: 700; }
.tf-stat { font-variant-numeric: tabular-nums; white-space: nowrap; }
.tf-tiles { display: grid; grid-template-columns: repeat(auto-fill, minmax(118px, 1fr)); gap: 6px; }
.tf-tile { border: 1px solid #c9b48e; border-radius: 6px; padding: 4px 6px; background: #f6ecd6; min-height: 74px;
  display: flex; flex-direction: column; gap: 3px; text-align: left; }
.tf-tile.up { background: #e7d3a6; border-color: #8a6a2a; }
.tf-tile .lbl { font-weight: 700; font-size: 12.5px; }
.tf-tile .val { font-size: 12px; }
.tf-tile .val b { font-size: 14px; }
.tf-tile .acc { font-size: 11.5px; color: #5b4a33; }
.tf-tables { display: grid; grid-template-columns: repeat(auto-fill, minmax(104px, 1fr)); gap: 6px; margin-top: 6px; }
.tf-guest { border: 1px solid #8fa3b8; border-radius: 6px; padding: 4px 6px; background: #eef3f8; font-size: 12px;
  display: flex; flex-direction: column; gap: 2px; min-height: 64px; text-align: left; }
.tf-guest.noble { background: #f3e8fb; border-color: #9a6fbf; }
.tf-guest.regular { background: #f4f4ef; border-color: #aaa; }
.tf-guest .nm { font-weight: 700; font-size: 12.5px; }
.tf-guest.empty { background: repeating-linear-gradient(45deg, #fafafa, #fafafa 6px, #f0f0f0 6px, #f0f0f0 12px); color: #888; }
.tf-staff { display: flex; flex-wrap: wrap; gap: 4px; margin-top: 6px; font-size: 12px; }
.tf-chip { border: 1px solid #0003; border-radius: 10px; padding: 1px 8px; background: #fff; white-space: nowrap; }
.tf-track { display: grid; gap: 3px; }
.tf-track.round { grid-template-columns: repeat(8, minmax(0, 1fr)); }
.tf-track.mon { grid-template-columns: repeat(23, minmax(26px, 1fr)); min-width: 620px; }
.tf-scroll { overflow-x: auto; }
.tf-cell { border: 1px solid #c9b48e; border-radius: 4px; padding: 2px; font-size: 11px; text-align: center; background: #fff;
  min-height: 40px; display: flex; flex-direction: column; align-items: center; gap: 1px; }
.tf-cell.now { background: #ffe29a; border-color: #b07d00; font-weight: 700; }
.tf-cell.bonus { background: #efe6fa; }
.tf-pawn { width: 10px; height: 10px; border-radius: 50%; display: inline-block; border: 1px solid #0008; }
.tf-shop { display: grid; grid-template-columns: repeat(auto-fill, minmax(130px, 1fr)); gap: 6px; }
.tf-offer { border: 1px solid #0002; border-radius: 6px; padding: 4px 6px; background: #fff; font-size: 12px; text-align: left;
  display: flex; flex-direction: column; gap: 2px; }
.tf-offer .nm { font-weight: 700; font-size: 13px; }
.tf-muted { color: #6b655c; font-size: 12px; }
.tf-grid2 { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 10px; }
.tf-sheet { border-collapse: collapse; width: 100%; font-size: 13px; }
.tf-sheet th, .tf-sheet td { padding: 3px 6px; border-bottom: 1px solid #0001; text-align: right; }
.tf-sheet th:first-child { text-align: left; }
.tf-sheet tr.total td { font-weight: 700; border-top: 2px solid #333; }
.tf-sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.tf-drop { box-shadow: 0 0 0 3px #1d6fa5 inset; }
@media (max-width: 700px) { .tf-grid2 { grid-template-columns: minmax(0, 1fr); }
  .tf-tiles { grid-template-columns: repeat(auto-fill, minmax(100px, 1fr)); } }
`;

const FALLBACK_COLOURS = { red: "#c0392b", blue: "#2e6fc1", green: "#2e8b57", yellow: "#d4a017" };
const GIVES = { doubloons: "¢", beer: "beer", monastery: "step" };

function injectStyle() {
  adoptStyle("tf-style", CSS);
}

const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
const diceText = (dice) => (dice.length === 6 ? "any die" : dice.join(" / "));

// A bonus spec (data.py's small dicts) in words.
export function bonusText(b, cardNames = {}, tileLabels = {}) {
  if (!b) return "";
  switch (b.kind) {
    case "card": return `${cardNames[b.card] || b.card} card`;
    case "noble": return "a noble";
    case "counter_guest": return "a counter guest";
    case "monastery": return `${plural(b.steps, "monastery step")}`;
    case "doubloons": return `${b.n} doubloons`;
    case "beer": return `${b.n} beer`;
    case "upgrade": return "a free upgrade";
    case "upgrade_tile": return `upgrade the ${tileLabels[b.tile] || b.tile}`;
    case "choice": return b.options.map((o) => bonusText(o, cardNames, tileLabels)).join(" or ");
    case "none": return "nothing";
    default: return b.kind;
  }
}

function gainText(g) {
  const parts = [];
  if (g.doubloons) parts.push(`+${g.doubloons}¢`);
  if (g.beer) parts.push(`+${g.beer} beer`);
  if (g.monastery) parts.push(`+${plural(g.monastery, "step")}`);
  return parts.join(" ") || "nothing";
}

export function mount(root, ctx) {
  injectStyle();
  const el = document.createElement("div");
  el.className = "tf";
  el.dataset.testid = "tf-board";
  root.appendChild(el);
  let desc = null;
  let state = null;
  let selected = null; // a die id chosen to place (click) or being dragged
  let pending = false;

  let descError = null;
  ctx.api.description().then((d) => { desc = d; learnWords(d); render(); })
    .catch((err) => { descError = err; render(); });

  const nameOf = (seat) => ctx.seatInfo?.[seat]?.name || `Seat ${seat + 1}`;
  const colourOf = (seat, v) => ctx.seatInfo?.[seat]?.colour
    || FALLBACK_COLOURS[v?.players?.[seat]?.colour] || "#888";
  const cardNames = () => words.types; // learnt with the description (learnWords), shared with the move log
  const tileOf = (id) => desc?.tavern?.tiles?.find((t) => t.id === id);
  const phaseLabel = (p) => words.phases[p] || `Phase ${p}`;

  // -- commands ---------------------------------------------------------------------------------------------
  const legal = () => (state && !state.readOnly ? state.legal || [] : []);
  const find = (pred) => legal().findIndex(pred);

  async function submit(index) {
    if (pending || index < 0) return;
    const command = legal()[index];
    pending = true;
    selected = null;
    try { await ctx.api.submit(command); } catch (err) { /* the frame shows the error */ } finally { pending = false; render(); }
  }

  // Buttons and targets carry data-cmd (an index into legal) or data-die (a selection, no command yet).
  el.addEventListener("click", (e) => {
    const t = e.target.closest("[data-cmd], [data-select]");
    if (!t || !el.contains(t)) return;
    if (t.dataset.cmd !== undefined) { submit(+t.dataset.cmd); return; }
    const die = +t.dataset.select;
    selected = selected === die ? null : die;
    render();
  });
  el.addEventListener("keydown", (e) => {
    if ((e.key === "Enter" || e.key === " ") && e.target.matches("[data-cmd]:not(button), [data-select]:not(button)")) {
      e.preventDefault();
      e.target.click();
    }
  });
  // Drag a die onto a highlighted space: the same PlaceDie command as clicking.
  el.addEventListener("dragstart", (e) => {
    const d = e.target.closest?.("[data-select]");
    if (!d) return;
    selected = +d.dataset.select;
    e.dataTransfer.setData("text/plain", d.dataset.select);
    e.dataTransfer.effectAllowed = "move";
    requestAnimationFrame(render);
  });
  el.addEventListener("dragover", (e) => {
    const t = e.target.closest?.("[data-space-cmd]");
    if (t) { e.preventDefault(); t.classList.add("tf-drop"); }
  });
  el.addEventListener("dragleave", (e) => { e.target.closest?.("[data-space-cmd]")?.classList.remove("tf-drop"); });
  el.addEventListener("drop", (e) => {
    const t = e.target.closest?.("[data-space-cmd]");
    if (!t) return;
    e.preventDefault();
    t.classList.remove("tf-drop"); // a refused drop redraws nothing (same drawing): the mark must go here
    const die = +e.dataTransfer.getData("text/plain");
    submit(find((c) => c.type === "PlaceDie" && c.die === die && c.space === t.dataset.space));
  });

  // -- drawing ----------------------------------------------------------------------------------------------
  function render() {
    if (!state || !state.view) { redraw(el, `<p class="tf-muted">Loading…</p>`); return; }
    const v = state.view;
    if (!desc) {
      redraw(el, descError ? `<p role="alert">The board description could not be loaded (${esc(descError.message || descError)}); reload the page.</p>`
        : `<p class="tf-muted">Loading the board…</p>`);
      return;
    }
    if (selected !== null && !legal().some((c) => c.type === "PlaceDie" && c.die === selected)
        && !legal().some((c) => c.type === "TakeDie" && c.die === selected)) selected = null;
    const me = v.you !== null && v.you !== undefined ? v.you : null;
    const order = me === null ? v.players.map((p) => p.seat) : [me, ...v.players.map((p) => p.seat).filter((s) => s !== me)];
    redraw(el, `
      ${v.phase === "end" ? finalSheet(v) : ""}
      ${statusCard(v)}
      ${actionsCard(v)}
      ${v.phase === "D" ? draftCard(v) : ""}
      <div class="tf-players">${order.map((s) => playerCard(v, v.players[s], s === me)).join("")}</div>
      <div class="tf-grid2">${guestsCard(v)}${supplyCard(v)}</div>
      ${tracksCard(v)}
      <p class="tf-sr" aria-live="polite">${esc(summary(v))}</p>`);
  }

  function statusCard(v) {
    const waiting = v.to_act.filter((s) => s !== v.you);
    const simultaneous = desc.phases.find((p) => p.id === v.phase)?.simultaneous;
    let who = "";
    if (v.phase === "end") who = "The game is over.";
    else if (simultaneous && v.to_act.length) who = `Still deciding: ${v.to_act.map((s) => esc(nameOf(s))).join(", ")}`;
    else if (v.to_act.length) who = `${esc(nameOf(v.to_act[0]))} to act`;
    const planning = v.phase === "E" ? v.players.map((p) => `<span class="tf-chip" data-testid="tf-planning-${p.seat}">${esc(nameOf(p.seat))}: ${p.planned ? "ready" : "planning…"}</span>`).join(" ") : "";
    return `<section class="tf-card tf-status" aria-label="Round and phase" data-testid="tf-status">
      <span class="tf-phase">Round ${v.round} of ${v.rounds} · ${esc(phaseLabel(v.phase))}</span>
      <span>Start player: ${esc(nameOf(v.start_player))}</span>
      <span class="tf-wait" data-testid="tf-waiting">${who}</span>
      ${planning}
      ${waiting.length && v.to_act.includes(v.you) ? `<span class="tf-muted">(you need not wait for them)</span>` : ""}
    </section>`;
  }

  function btn(index, text, kind, extra = "") {
    return `<button type="button" class="tf-btn target ${extra}" data-cmd="${index}" data-kind="${kind}">${text}</button>`;
  }

  function actionsCard(v) {
    const cmds = legal();
    if (!cmds.length) return "";
    const me = v.players[v.you];
    const out = [];
    let prompt = "";
    const names = cardNames();
    if (cmds.some((c) => c.type === "ChooseBonus")) {
      prompt = "Choose your bonus.";
      const opts = me.pending_choices[0] || [];
      const labels = Object.fromEntries(desc.tavern.tiles.map((t) => [t.id, t.label]));
      cmds.forEach((c, i) => { if (c.type === "ChooseBonus") out.push(btn(i, esc(bonusText(opts[c.option], names, labels)), "choice")); });
    } else if (v.phase === "B") {
      prompt = "Keep your tavern, or spend a counter guest to clear it and draw again.";
      cmds.forEach((c, i) => {
        if (c.type === "KeepTavern") out.push(btn(i, "Keep the tavern", "keep"));
        if (c.type === "RedrawTavern") out.push(btn(i, "Redraw (spend a counter guest)", "redraw", "minor"));
      });
    } else if (v.phase === "D") {
      prompt = "Pick a die from the coaster in front of you (highlighted below).";
    } else if (v.phase === "E") {
      prompt = selected === null ? "Plan: pick a die (or drag it) and put it on a highlighted space. Finish when done."
        : "Now click a highlighted space for the chosen die.";
      cmds.forEach((c, i) => { if (c.type === "FinishPlanning") out.push(btn(i, "Finish planning", "finish", "minor")); });
    } else if (v.phase === "F") {
      prompt = selected === null ? "Your turn: take dice off their spaces to collect, buy, recruit and upgrade; then end the turn."
        : "Take the chosen die, or move it to a highlighted space.";
      const take = cmds.findIndex((c) => c.type === "TakeDie" && c.die === selected);
      if (take >= 0) {
        const d = me.dice.find((x) => x.die === selected);
        out.push(btn(take, `Take the ${d.value} from ${esc(spaceName(me, d.space))}: ${gainText(me.spaces[d.space].gives)}`, "take"));
      }
      cmds.forEach((c, i) => {
        if (c.type === "RecruitNobles") out.push(btn(i, `Recruit ${plural(c.count, "noble")} (${v.supply.noble_prices[c.count]} beer)`, "nobles"));
        if (c.type === "UseCounterGuest") out.push(btn(i, `Counter guest: ${esc(bonusText(desc.counter_guest_use, names))}`, "counter", "minor"));
      });
      cmds.forEach((c, i) => { if (c.type === "EndTurn") out.push(btn(i, "End the turn", "end", "minor")); });
    }
    return `<section class="tf-card" aria-label="Your move" data-testid="tf-actions">
      <p class="tf-prompt">${prompt}</p>
      ${me && (v.phase === "E" || v.phase === "F") ? diceTray(v, me) : ""}
      <div class="tf-row">${out.join("")}</div>
    </section>`;
  }

  // The seat's dice not on a space yet (placed ones are drawn on their spaces, where they can be picked in phase F).
  function diceTray(v, p) {
    const loose = p.dice.filter((d) => d.space === null);
    if (!loose.length) return `<p class="tf-muted">All your dice are on spaces.</p>`;
    return `<div class="tf-dicebox" aria-label="Your dice">${loose.map((d) => die(v, p, d, true)).join("")}</div>`;
  }

  function die(v, p, d, mine) {
    const movable = mine && legal().some((c) => (c.type === "PlaceDie" || c.type === "TakeDie") && c.die === d.die);
    const bg = d.white ? "#fff" : colourOf(p.seat, v);
    const boost = d.boost ? `<span class="boost" title="raised by ${d.boost} dishwasher step(s)">+${d.boost}</span>` : "";
    const label = `${d.white ? "white" : "coloured"} die ${d.value}${d.boost ? ` raised by ${d.boost}` : ""}`;
    if (!movable) return `<span class="tf-die ${d.white ? "" : "col"}" style="background:${bg}" title="${label}">${d.value}${boost}</span>`;
    return `<button type="button" class="tf-die target ${d.white ? "" : "col"} ${selected === d.die ? "sel" : ""}" style="background:${bg}"
      draggable="true" data-select="${d.die}" data-kind="die" data-placed="${d.space === null ? 0 : 1}" aria-pressed="${selected === d.die}"
      aria-label="${label}">${d.value}${boost}</button>`;
  }

  function spaceName(p, space) {
    if (space.startsWith(desc.tavern.table_space_prefix)) {
      const i = +space.slice(desc.tavern.table_space_prefix.length);
      const top = p.tavern.tables[i]?.slice(-1)[0];
      return top ? `${top.name} (table ${i + 1})` : `table ${i + 1}`;
    }
    return tileOf(space)?.label || space;
  }

  // Attributes that make a space a target for the selected die (click or drop).
  function spaceTarget(p, space) {
    if (selected === null || p.seat !== state.view.you) return "";
    const i = find((c) => c.type === "PlaceDie" && c.die === selected && c.space === space);
    if (i < 0) return "";
    return ` target" data-cmd="${i}" data-kind="space" data-space-cmd="1" data-space="${esc(space)}" tabindex="0" role="button`;
  }

  function diceOn(v, p, space, mine) {
    const here = p.dice.filter((d) => d.space === space);
    return here.length ? `<div class="tf-dicebox">${here.map((d) => die(v, p, d, mine)).join("")}</div>` : "";
  }

  function tileBox(v, p, t, mine) {
    const state_ = p.tiles[t.id];
    const sp = p.spaces?.[t.id];
    const sides = `${t.sides[0]} / ${t.sides[1]}`;
    let acc = "";
    if (t.space) acc = `<span class="acc">${esc(diceText(t.space.dice))}${t.space.limit ? ` · ${t.space.limit}×` : ""}${sp ? ` → ${gainText(sp.gives)}` : ""}${sp?.used ? " · used" : ""}</span>`;
    let up = "";
    if (mine) {
      legal().forEach((c, i) => {
        if (c.type === "UpgradeTile" && c.tile === t.id) {
          const price = (p.upgrade_offers[t.id] || []).find((o) => o.returned === c.returned)?.price;
          const ret = c.returned ? `, return ${plural(c.returned, names1(t.special_offer?.card))}` : "";
          up += `<button type="button" class="tf-btn target" style="min-height:28px;padding:2px 6px;font-size:11.5px" data-cmd="${i}" data-kind="upgrade">Upgrade ${price}¢${esc(ret)}</button>`;
        }
      });
    }
    return `<div class="tf-tile ${state_.upgraded ? "up" : ""}${spaceTarget(p, t.id)}" data-testid="tf-tile-${p.seat}-${t.id}" title="${esc(t.label)}: ${esc(t.unit)} ${sides}${t.cost ? `; upgrade ${t.cost}¢` : ""}">
      <span class="lbl">${esc(t.label)}${state_.upgraded ? " ★" : ""}</span>
      <span class="val"><b>${state_.value}</b> ${esc(t.unit)} <span class="tf-muted">(${sides})</span></span>
      ${acc}${diceOn(v, p, t.id, mine)}${up}
    </div>`;
  }

  function names1(type) { return (cardNames()[type] || type || "card"); }

  function guestBox(v, p, i, stack, mine) {
    const top = stack[stack.length - 1];
    const space = `${desc.tavern.table_space_prefix}${i}`;
    const sp = p.spaces?.[space];
    const cls = top.kind === "noble" ? "noble" : top.kind === "regular" ? "regular" : "";
    const name = top.kind === "regular" ? "Regular" : top.name;
    const extra = stack.length > 1 ? ` ×${stack.length}` : "";
    return `<div class="tf-guest ${cls}${spaceTarget(p, space)}" data-testid="tf-table-${p.seat}-${i}">
      <span class="nm">${esc(name)}${extra}</span>
      <span>${esc(diceText(top.dice))} → ${sp ? gainText(sp.gives) : `${top.pay}¢`}</span>
      <span class="tf-muted">${top.vp} VP</span>
      ${diceOn(v, p, space, mine)}
    </div>`;
  }

  function playerCard(v, p, mine) {
    const tables = p.tiles.tables.value + (p.tavern.staff.table?.length || 0);
    const seated = p.tavern.tables.map((stack, i) => guestBox(v, p, i, stack, mine));
    for (let k = seated.length; k < tables; k++) seated.push(`<div class="tf-guest empty">free table</div>`);
    const staff = Object.entries(p.tavern.staff).map(([k, cards]) => `<span class="tf-chip">${esc(names1(k))} ×${cards.length}</span>`).join("");
    const active = v.to_act.includes(p.seat);
    const deck = mine && p.deck_top ? `<span class="tf-muted">Draw pile: ${p.deck_count}${p.deck_top.length ? `, on top: ${p.deck_top.map((c) => esc(c.name)).join(", ")}` : ""}</span>` : "";
    return `<section class="tf-card tf-player" style="--pc:${colourOf(p.seat, v)}" data-testid="tf-player-${p.seat}" aria-label="${esc(nameOf(p.seat))}'s tavern">
      <header>
        <span class="tf-name">${esc(nameOf(p.seat))}${mine ? " (you)" : ""}${active ? " ●" : ""}</span>
        <span class="tf-stat" title="victory points on all cards owned">${p.victory_points} VP</span>
        <span class="tf-stat" title="doubloons to spend this turn / in the safe">¢ ${p.doubloons} · safe ${p.safe}/${p.tiles.safe.value}</span>
        <span class="tf-stat" title="beer to spend this turn / in storage">beer ${p.beer} · storage ${p.storage}/${p.tiles.storage.value}</span>
        <span class="tf-stat">monastery ${p.monastery}</span>
        <span class="tf-stat">counter guests ${p.counter_guests}</span>
        <span class="tf-stat">deck ${p.deck_count} · discard ${p.discard.length}</span>
        <span class="tf-stat" title="dishwasher steps in use / available">dishwashers ${p.dishwashers.in_use}/${p.dishwashers.capacity}</span>
        ${v.phase === "E" ? `<span class="tf-chip">${p.planned ? "ready" : "planning"}</span>` : ""}
      </header>
      <div class="tf-tiles">${desc.tavern.tiles.filter((t) => t.id !== "host").map((t) => tileBox(v, p, t, mine)).join("")}</div>
      <div class="tf-tables" aria-label="Tables">${seated.join("")}</div>
      ${staff ? `<div class="tf-staff"><span class="tf-muted">Staff this round:</span> ${staff}</div>` : ""}
      ${deck}
    </section>`;
  }

  function draftCard(v) {
    const coasters = Object.entries(v.coasters || {}).map(([seat, values]) => {
      const own = +seat === v.you;
      const dice = values.map((val) => {
        const i = own ? find((c) => c.type === "PickDie" && c.value === val) : -1;
        return i >= 0
          ? `<button type="button" class="tf-die target" data-cmd="${i}" data-kind="pick" aria-label="pick a ${val}">${val}</button>`
          : `<span class="tf-die">${val}</span>`;
      }).join("");
      return `<div><span class="tf-muted">In front of ${esc(nameOf(+seat))}:</span> <div class="tf-dicebox">${dice || "<span class='tf-muted'>empty</span>"}</div></div>`;
    });
    return `<section class="tf-card" aria-label="Dice draft" data-testid="tf-draft"><h3>Dice draft</h3>
      <div class="tf-row" style="gap:16px">${coasters.join("")}</div>
</section>`;
  }

  function guestsCard(v) {
    const names = cardNames();
    const offer = (card, three) => {
      const i = find((c) => c.type === "RecruitGuest" && c.card === card.id);
      const body = `<span class="nm">${esc(card.name)}${three ? ` (3-beer, ${v.guests.three_beer.count} left)` : ""}</span>
        <span>${card.cost} beer · ${esc(diceText(card.dice))} → ${card.pay}¢ · ${card.vp} VP</span>
        ${card.bonus ? `<span class="tf-muted">bonus: ${esc(bonusText(card.bonus, names))}</span>` : ""}`;
      return i >= 0 ? `<button type="button" class="tf-offer target" data-cmd="${i}" data-kind="guest">${body}</button>`
        : `<div class="tf-offer">${body}</div>`;
    };
    const cards = v.guests.display.map((c) => offer(c, false));
    if (v.guests.three_beer.top) cards.push(offer(v.guests.three_beer.top, true));
    return `<section class="tf-card" aria-label="Guests" data-testid="tf-guests"><h3>Guests</h3>
      <div class="tf-shop">${cards.join("")}</div>
      <p class="tf-muted">Guest deck: ${v.guests.deck_count} · nobles: ${v.supply.nobles} (${Object.entries(v.supply.noble_prices).map(([n, b]) => `${n} for ${b} beer`).join(", ")})</p></section>`;
  }

  function supplyCard(v) {
    const out = desc.tavern_cards.map((t) => {
      const s = v.supply.tavern_cards[t.type];
      const i = find((c) => c.type === "BuyCard" && c.card_type === t.type);
      const body = `<span class="nm">${esc(t.name)}</span><span>${s.cost ?? t.cost}¢ · ${s.count} left</span><span class="tf-muted">${esc(t.effect)}</span>`;
      return i >= 0 ? `<button type="button" class="tf-offer target" data-cmd="${i}" data-kind="buy">${body}</button>`
        : `<div class="tf-offer">${body}</div>`;
    });
    return `<section class="tf-card" aria-label="Tavern cards" data-testid="tf-supply"><h3>Tavern cards</h3>
      <div class="tf-shop">${out.join("")}</div><p class="tf-muted">Counter guests in the supply: ${v.supply.counter_guests}</p></section>`;
  }

  function tracksCard(v) {
    const names = cardNames();
    const rounds = desc.round_track.slice(0, v.rounds).map((b, i) => `<div class="tf-cell ${i + 1 === v.round ? "now" : ""}" title="${esc(bonusText(b, names))}">
      <span>${i + 1}</span><span>${esc(bonusText(b, names))}</span></div>`).join("");
    const cells = [];
    for (let k = 0; k <= desc.monastery_track.last; k++) {
      const b = desc.monastery_track.bonuses[String(k)];
      const pawns = v.players.filter((p) => p.monastery === k)
        .map((p) => `<span class="tf-pawn" style="background:${colourOf(p.seat, v)}" title="${esc(nameOf(p.seat))}"></span>`).join("");
      cells.push(`<div class="tf-cell ${b ? "bonus" : ""}" title="${b ? esc(bonusText(b, names)) : ""}" data-testid="tf-mon-${k}"><span>${k}</span>${b ? `<span>★</span>` : ""}<span>${pawns}</span></div>`);
    }
    const legend = Object.entries(desc.monastery_track.bonuses).map(([k, b]) => `${k}: ${esc(bonusText(b, names))}`).join(" · ");
    return `<section class="tf-card" aria-label="Tracks" data-testid="tf-tracks"><h3>Round track</h3>
      <div class="tf-track round">${rounds}</div>
      <h3 style="margin-top:8px">Monastery track</h3>
      <div class="tf-scroll"><div class="tf-track mon">${cells.join("")}</div></div>
      <p class="tf-muted">${legend}</p></section>`;
  }

  function finalSheet(v) {
    const keys = Object.keys(v.players[0].score);
    const rows = keys.map((k) => `<tr><th scope="row">${esc(k.replaceAll("_", " "))}</th>${v.players.map((p) => `<td>${p.score[k]}</td>`).join("")}</tr>`);
    rows.push(`<tr><th scope="row">tie-break: safe + storage</th>${v.players.map((p) => `<td>${p.safe + p.storage}</td>`).join("")}</tr>`);
    return `<section class="tf-card" aria-label="Final scores" data-testid="tf-final"><p class="tf-prompt">Final scores</p>
      <div class="tf-scroll"><table class="tf-sheet"><thead><tr><th></th>${v.players.map((p) => `<th>${esc(nameOf(p.seat))}</th>`).join("")}</tr></thead>
      <tbody>${rows.join("")}<tr class="total"><th scope="row">total</th>${v.players.map((p) => `<td data-testid="tf-score-${p.seat}">${p.victory_points}</td>`).join("")}</tr></tbody></table></div></section>`;
  }

  function summary(v) {
    const lines = [`Round ${v.round} of ${v.rounds}, ${phaseLabel(v.phase)}.`];
    for (const p of v.players) {
      const guests = p.tavern.tables.map((s) => s[s.length - 1].name).join(", ");
      lines.push(`${nameOf(p.seat)}: ${p.victory_points} VP, ${p.doubloons} doubloons, ${p.beer} beer, safe ${p.safe}, storage ${p.storage}, monastery ${p.monastery}; tables: ${guests || "none"}; dice: ${p.dice.map((d) => `${d.value}${d.space ? ` on ${d.space}` : ""}`).join(", ") || "none"}.`);
    }
    return lines.join(" ");
  }

  return {
    update(next) {
      // a chosen die stays chosen while others move (render drops it once it has no legal move left)
      state = next;
      render();
    },
    destroy() { el.remove(); },
  };
}

// The names the move log uses, from the engine's description once a board has loaded it (until then the
// sentences say "a card" and the raw ids of tiles and phases).
let words = { cards: [], types: {}, tiles: {}, phases: {} };
let wordsLearned;
/** Resolves once a mounted board has loaded the description: the frame words the move log again then. */
export const wordsReady = new Promise((resolve) => { wordsLearned = resolve; });

function learnWords(d) {
  words = {
    cards: d.card_names || [],
    types: Object.fromEntries(d.tavern_cards.map((c) => [c.type, c.name])),
    tiles: Object.fromEntries(d.tavern.tiles.map((t) => [t.id, t.label])),
    phases: Object.fromEntries(d.phases.map((x) => [x.id, x.label])),
  };
  wordsLearned();
}

const cardWord = (id) => (Number.isInteger(id) && words.cards[id]) || "a card"; // "hidden" too: a card
const listWords = (ids) => (ids.length ? ids.map(cardWord).join(", ") : "no card");
// why a bonus came (flow.grant's reasons: "round 3", "monastery 7", "guest 82", "upgrade cashbox", "choice", ...)
function reasonWords(reason) {
  const [what, arg] = String(reason).split(" ", 2);
  switch (what) {
    case "round": return `round ${arg} bonus`;
    case "monastery": return `monastery space ${arg}`;
    case "guest": return `serving ${cardWord(Number(arg))}`;
    case "upgrade": return `upgrading the ${words.tiles[arg] || arg}`;
    default: return String(reason).replaceAll("_", " ");
  }
}
// an action space: a tavern tile ("Cashbox") or a table ("table 3"; the description's prefix is "table:")
const spaceWord = (space) => (String(space).startsWith("table:") ? `table ${Number(space.slice(6)) + 1}`
  : words.tiles[space] || space);
const money = (doubloons, beer) => [doubloons && `${doubloons}¢`, beer && `${beer} beer`].filter(Boolean).join(" and ");

// Move-log sentences for this game's events (the frame's wording otherwise).
export function describe(event, { seats } = {}) {
  const p = event.payload || event;
  const who = (s) => seats?.[s]?.name || `Seat ${s + 1}`;
  switch (event.type) {
    case "GameSetUp": return `The taverns open: ${plural(p.players, "player")}, ${plural(p.rounds, "round")}; ${who(p.start_player)} starts.`;
    case "RoundStarted": return `Round ${p.round} begins.`;
    case "PhaseStarted": return `Phase ${p.phase}${words.phases[p.phase] ? `: ${words.phases[p.phase]}` : ""}.`;
    case "ChoiceOffered": return `${who(p.seat)} chooses a bonus (${reasonWords(p.reason)}).`;
    case "BonusChosen": return `${who(p.seat)} chose ${bonusText(p.option, words.types, words.tiles)}.`;
    case "CardGained": return `${who(p.seat)} gained ${cardWord(p.card)} (${reasonWords(p.reason)}).`;
    case "CounterGuestGained": return `${who(p.seat)} gained a counter guest.`;
    case "CounterGuestUsed": return `${who(p.seat)} spent a counter guest.`;
    case "MonasteryMoved": return `${who(p.seat)} moved ${plural(p.steps, "step")} to monastery space ${p.position}.`;
    case "CurrencyGained": return `${who(p.seat)} gained ${money(p.doubloons, p.beer) || "nothing"}${p.stored ? " (kept in storage)" : ""}.`;
    case "TavernFilled": return `${who(p.seat)} filled the tavern: ${listWords(p.cards)}.`;
    case "TavernKept": return `${who(p.seat)} kept the tavern.`;
    case "TavernCleared": return `${who(p.seat)} cleared the tavern to draw again.`;
    case "WaitressDiceRolled": return `${who(p.seat)}'s waitress rolled ${p.values.join(", ") || "no die"}.`;
    case "WhiteDiceRolled": return `White dice: ${p.values.map((v, s) => `${who(s)} ${v.join(" ")}`).join("; ")}.`;
    case "DiePicked": return `${who(p.seat)} drafted a die.`;
    case "DiePlaced": return `${who(p.seat)} put a die on ${spaceWord(p.space)}${p.boost ? ` (+${p.boost} dishwasher)` : ""}.`;
    case "PlanningFinished": return `${who(p.seat)} finished planning.`;
    case "TurnStarted": {
      const brought = money(p.from_safe, p.from_storage);
      return `${who(p.seat)}'s turn${brought ? `, with ${brought} kept from last round` : ""}${p.merchant_beer ? ` and ${p.merchant_beer} beer from the merchant` : ""}.`;
    }
    case "DieTaken": return `${who(p.seat)} took a die from ${spaceWord(p.space)}${p.doubloons ? `: +${p.doubloons}¢` : ""}${p.beer ? `: +${p.beer} beer` : ""}.`;
    case "CardBought": return `${who(p.seat)} bought ${cardWord(p.card)} for ${p.price}¢.`;
    case "TileUpgraded": return `${who(p.seat)} upgraded the ${words.tiles[p.tile] || p.tile} for ${p.price}¢.`;
    case "GuestRecruited": return `${who(p.seat)} recruited ${cardWord(p.card)} for ${p.price} beer.`;
    case "NoblesRecruited": return `${who(p.seat)} recruited ${plural(p.cards.length, "noble")} for ${p.price} beer.`;
    case "TurnEnded": {
      const kept = money(p.stored_doubloons, p.stored_beer);
      const lost = money(p.lost_doubloons, p.lost_beer);
      return `${who(p.seat)} ended the turn${kept ? `, keeping ${kept}` : ""}${lost ? `${kept ? " and" : ","} losing ${lost}` : ""}.`;
    }
    case "RoundClosed": return `Round ${p.round} is over; ${who(p.next_start)} starts the next.`;
    case "GameEnded": return "The last round is over.";
    default: return null;
  }
}
