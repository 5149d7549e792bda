// The Heaven & Ale (+ Kegs & More) board: the main track, every player's monastery garden, production track,
// scoring spots and delivery board, drawn from the engine's description and the seat's view. Every move is
// offered from the legal commands and every preview (shed, disc, final score) comes from the view: no rule is
// re-implemented here. Contract: mount(root, ctx) -> { update(state), destroy() } (services/web/README.md).

import { redraw } from "./redraw.js";
import { attachTips } from "./tooltip.js";
import { attachTipKeys, tipAttr } from "./tip-keys.js";
import { MONK_COLOUR, RES_COLOUR, SPACE_LABEL, esc, fmt, hexPoints, plural, priceWords, tileChip, tileSvg, tileWords } from "./heaven-and-ale-draw.js";
import { centreMarkup, trackMarkup } from "./heaven-and-ale-track.js";
import { bringIntoView } from "./in-view.js";

const WIDE_PX = 600; // narrower than this, the track is drawn as a compact grid and the garden goes under it
import { adoptStyle } from "./style.js";

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
.ha-wrap { position: relative; }
.ha-wrap .board-tip { white-space: pre-line; }
.ha-wrap .board-tip::first-line { font-weight: 700; }
.ha [data-tip] { -webkit-touch-callout: none; -webkit-user-select: none; user-select: none; }
.ha { font: 14px/1.35 system-ui, sans-serif; color: #231d14; display: flex; flex-direction: column; gap: 10px; }
.ha-card { background: #fff; border: 1px solid #0002; border-radius: 8px; padding: 8px 10px; min-width: 0; }
/* the decision stays in view while the player looks at the track or the garden */
.ha-card.ha-bar { position: sticky; top: 0; z-index: 5; max-height: 45vh; overflow-y: auto; box-shadow: 0 2px 8px #0002; }
/* the track and the garden of the seat that acts, side by side when there is room */
.ha-main { display: grid; grid-template-columns: minmax(0, 1fr); gap: 10px; }
.ha-wide-layout .ha-main { grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); align-items: start; }
.ha-own, .ha-trackcard, .ha-card { scroll-margin-top: var(--ha-bar-h, 0px); scroll-margin-bottom: var(--ha-foot-h, 0px); }
.ha-own .ha-garden { max-width: none !important; }

.ha-prompt { font-weight: 600; margin: 0 0 6px; }
.ha-actions { display: flex; flex-wrap: wrap; gap: 6px; }
.ha-actions button { min-height: 44px; min-width: 44px; padding: 5px 10px; border-radius: 6px; border: 2px solid #c98a1b; background: #fff8e6;
  cursor: pointer; font: inherit; text-align: left; }
.ha-actions button:hover { background: #ffe9b3; }
.ha-actions button.chosen { background: #f0b400; }
.ha-actions button.minor { border-color: #bbb; background: #f6f6f6; font-size: 12px; }
.ha-actions button:disabled { opacity: .5; }
.ha-coins { margin-top: 6px; font-size: 12.5px; }
.ha-coins > summary { cursor: pointer; color: #6b655c; min-height: 44px; display: flex; align-items: center; }
.ha-gain { color: #1b6b33; font-size: 12px; display: block; }
.ha-trackwrap, .ha-scroll { overflow-x: auto; }
.ha-track { display: block; width: 100%; height: auto; }
.ha svg text { font-family: system-ui, sans-serif; }
.ha .target { cursor: pointer; }
.ha .target > .hit, .ha .target.hit { stroke: #f0b400; stroke-width: 4; stroke-dasharray: 8 4; }
.ha .target:hover > .hit, .ha .target.hit:hover { fill: #fff1c2; }
.ha .hl polygon { stroke: #e0006a; stroke-width: 4; }
.ha-players { display: flex; flex-direction: column; gap: 8px; }
.ha-player > summary { cursor: pointer; list-style: none; min-height: 44px; display: flex; flex-wrap: wrap; gap: 4px 12px; align-items: center; }
.ha-player > summary::-webkit-details-marker { display: none; }
.ha-player > summary::before { content: "▸"; color: #888; }
.ha-player[open] > summary::before { content: "▾"; }
.ha-swatch { width: 14px; height: 14px; border-radius: 50%; border: 1px solid #0006; display: inline-block; }
.ha-name { font-weight: 700; }
.ha-stat { font-variant-numeric: tabular-nums; }
.ha-board { display: grid; grid-template-columns: minmax(0, 1fr); gap: 8px; margin-top: 6px; }
.ha-board.split { grid-template-columns: minmax(0, 5fr) minmax(0, 4fr); }
.ha-garden { width: 100%; height: auto; display: block; }
.ha-glance { flex-basis: 100%; display: flex; gap: 10px; align-items: flex-start; }
.ha-mini { flex: 0 0 150px; }
.ha-glance .ha-facts { flex: 1; min-width: 0; }
.ha-prod { width: 100%; min-width: 520px; height: auto; display: block; }
.ha-wide { grid-column: 1 / -1; min-width: 0; }
.ha-facts { font-size: 12.5px; display: flex; flex-wrap: wrap; gap: 2px 12px; }
.ha-facts b { font-weight: 600; }
.ha-road { width: 100%; min-width: 480px; height: auto; display: block; }
.ha-muted { color: #6b655c; font-size: 12px; }
.ha-sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
@media (max-width: 700px) { .ha-board.split { grid-template-columns: minmax(0, 1fr); } }
`;

function injectStyle() {
  adoptStyle("ha-style", CSS);
}

// the brewmaster starts 10 steps short of spot 1 (position -9): "on 4", or "3 steps before 1", never "-2"
const brewmasterAt = (position) => (position >= 1 ? `on ${position}` : `${plural(1 - position, "step")} before 1`);

function gainText(g) {
  const parts = [];
  for (const [c, n] of Object.entries(g.markers || {})) parts.push(`${c} +${n}`);
  if (g.brewmaster) parts.push(`brewmaster +${g.brewmaster}`);
  if (g.ducats) parts.push(`+${g.ducats} ducats`);
  return parts.length ? parts.join(", ") : "no gain";
}

// -- the board ------------------------------------------------------------------------------------------------
export function mount(root, ctx) {
  injectStyle();
  // the tips live in a wrapper the redraws never replace (tooltip.js places its tip inside the container)
  const wrap = document.createElement("div");
  wrap.className = "ha-wrap";
  const el = document.createElement("div");
  el.className = "ha";
  el.dataset.testid = "ha-board";
  wrap.appendChild(el);
  root.appendChild(wrap);
  const tips = attachTips(wrap);
  const keys = attachTipKeys(el);
  let desc = null;
  let state = null;
  let chosenTile = null; // the tile picked for buying, before its garden spot
  let chosenSlot = null; // the +2 resource starting space, before its colour
  let pending = false;
  let open = new Set(); // expanded opponent boards
  let coinsOpen = false; // the emergency-coin group stays open across redraws once opened
  // what happened since this seat last acted: outlined on the track and the gardens
  let recent = { spaces: new Set(), spots: new Set() };
  let barContent = null; // what the frame's action bar shows for this decision (set by actionPanel)

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
    const before = { recent, chosenTile, chosenSlot };
    recent = { spaces: new Set(), spots: new Set() };
    chosenTile = null;
    chosenSlot = null;
    render();
    try {
      await ctx.api.submit(command);
    } catch (err) {
      // the frame shows the error; a move taken back before it was sent (move confirmation) leaves the board
      // as it was before the choice, the picked tile still picked
      if (err?.code === "cancelled") ({ recent, chosenTile, chosenSlot } = before);
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

  let wide = null; // the layout last drawn: the ring beside the garden, or the compact track over it
  const resized = new ResizeObserver(() => { if ((el.clientWidth >= WIDE_PX) !== wide) render(); });
  resized.observe(el);

  function render() {
    if (!state || !desc) {
      redraw(el, `<p class="ha-muted" role="status">${esc(failed || "Loading the board…")}</p>`);
      return;
    }
    const v = state.view;
    wide = el.clientWidth >= WIDE_PX;
    el.classList.toggle("ha-wide-layout", wide);
    const featured = featuredSeat(v);
    const track = { desc, moves: Object.fromEntries(legalOf("Move").map(([c, i]) => [c.space, i])), slotCmds: legalOf("EnterStartingArea"),
      pending, chosenSlot, recent, colourOf, nameOf };
    redraw(el, `
      ${actionPanel(v)}
      <div class="ha-main">
        <section class="ha-card ha-trackcard" aria-label="Main track" data-testid="ha-track">${trackMarkup(v, track, wide)}</section>
        ${featured === null ? "" : ownGarden(v, featured)}
        ${wide ? "" : `<section class="ha-card ha-trackcard" aria-label="Starting area and barrels" data-testid="ha-centre">${centreMarkup(v, track)}</section>`}
      </div>
      <section class="ha-players" aria-label="Players">${playerOrder(v).map((s) => playerBoard(v, s, s === featured)).join("")}</section>
      <div class="ha-sr" aria-live="polite">${esc(summary(v))}</div>`);
    el.dataset.step = v.step || v.phase;
    if (barContent) ctx.bar?.set(barContent); else ctx.bar?.clear();
    tips.refresh();
    keys.refresh();
    const bar = el.querySelector(".ha-bar");
    el.style.setProperty("--ha-bar-h", `${bar ? bar.offsetHeight + 6 : 0}px`);
    bringDecisionIntoView();
  }

  // The garden drawn beside the track: the player's own, or for a spectator the garden of the seat on turn.
  function featuredSeat(v) {
    if (ctx.seat !== null && ctx.seat !== undefined) return ctx.seat;
    return v.turn ?? null;
  }

  function ownGarden(v, seat) {
    const mine = seat === ctx.seat;
    const b = v.boards[seat];
    return `<section class="ha-card ha-own" aria-label="${esc(mine ? "Your" : `${nameOf(seat)}'s`)} garden" data-testid="ha-own">
      <div class="ha-muted">${esc(mine ? "Your monastery garden" : `${nameOf(seat)}'s monastery garden`)} · ${b.ducats} ducats</div>
      ${gardenSvg(v, b, mine)}${scoringSpots(v, b)}
    </section>`;
  }

  // After a choice the next one must be in view without hunting: once per decision, when the highlighted targets
  // on the track or the garden are off screen (or under the sticky prompt), their drawing is scrolled into view.
  let broughtFor = null;
  function bringDecisionIntoView() {
    if (state.readOnly || !state.legal?.length) return;
    const key = `${state.version}:${chosenTile}:${chosenSlot}`;
    if (key === broughtFor) return;
    broughtFor = key;
    // the choice on the board drawing (track, garden), else the choice buttons of the card
    let targets = [...el.querySelectorAll(".ha-own .target, .ha-trackcard .target")];
    if (!targets.length) targets = [...el.querySelectorAll("[data-testid=ha-actions] .target")];
    // a shed's choices are outlined on the garden (and a storage tile belongs to a shed there): show it with them
    if (["shed", "storage"].includes(state.view.step)) targets.push(...el.querySelectorAll(".ha-own .ha-garden"));
    // a sticky prompt card (no action bar) stays on screen by itself: the rest must fit under it
    const sticky = el.querySelector(".ha-bar");
    targets = targets.filter((n) => !sticky?.contains(n));
    el.style.setProperty("--ha-foot-h", `${bringIntoView(targets, sticky ? sticky.offsetHeight : 0) + 6}px`);
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
    } else prompt = stepPrompt(v, legal);
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
        case "EndBuying": rest.push({ i, label: "End buying", kind: "end" }); break;
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
        case "DeclinePrivilege": rest.push({ i, label: "Place no card", kind: "decline" }); break;
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
        case "Pass": rest.push({ i, label: "Pass (skip this action)", kind: "pass" }); break;
        default: buttons.push(btn(i, esc(JSON.stringify(c)), `data-kind="other"`));
      }
    }
    // buying: one button per tile on offer; the garden then highlights where it may go
    const buys = legalOf("BuyTile");
    if (buys.length) {
      const tiles = [...new Set(buys.map(([c]) => c.tile))];
      const picks = tiles.map((t) => {
        const sides = new Set(buys.filter(([c]) => c.tile === t).map(([c]) => (sunnySpot(c.spot) ? "sunny" : "shady")));
        const price = priceOf(v, t);
        const can = ["shady", "sunny"].filter((side) => sides.has(side)).map((side) => `${side} ${price?.[side]}`).join(" · ");
        const hint = tipAttr(tileWords(t), `Costs ${priceWords(price)}; you can afford: ${can} ducats.`, activationWords(t),
          "Pick it, then a highlighted spot of your garden.");
        return `<button type="button" class="target ${chosenTile === t ? "chosen" : ""}" data-pick-tile="${esc(t)}" data-kind="pick-tile" ${pending ? "disabled" : ""}${hint}>
          ${tileChip(t)} ${esc(t)}<span class="ha-gain">${can} ducats</span></button>`;
      });
      buttons.unshift(...picks);
    }
    const me = ctx.seat !== null && ctx.seat !== undefined ? v.boards[ctx.seat] : null;
    const mine = me ? `<span class="ha-muted">You: ${me.ducats} ducats · brewmaster ${brewmasterAt(me.brewmaster)} (${me.exchange_rate}:1, ×${me.vp_per_spot}) · if the game ended now: <b data-testid="ha-score-now">${fmt(me.score_now.total)}</b> VP</span>` : "";
    // With the frame's action bar, the prompt and the Done-style buttons go there (in view at the foot on every
    // screen); the choices stay here, beside what they choose. Without it (an older frame, a test harness) the
    // card keeps them all and stays in view itself (sticky).
    const inBar = !!ctx.bar;
    const text = `Round ${v.round} of ${v.rounds} · ${prompt}`;
    barContent = legal.length ? { prompt: text, actions: rest.map((r) => ({ id: `ha-${r.kind}`, cmd: r.i, label: r.label, disabled: pending,
      onClick: () => submit(r.i) })) } : null;
    const ends = inBar ? "" : rest.map((r) => btn(r.i, r.label, `data-kind="${r.kind}"`)).join("");
    return `<section class="ha-card ${legal.length && !inBar ? "ha-bar" : ""}" aria-label="Your move" data-testid="ha-actions">
      ${inBar && legal.length ? "" : `<p class="ha-prompt" data-testid="ha-prompt">${esc(text)}</p>`}
      ${buttons.length || ends ? `<div class="ha-actions">${buttons.join("")}${ends}</div>` : ""}
      ${coins.length ? `<details class="ha-coins" ${coinsOpen || legal.every((c) => c.type === "UseEmergencyCoin") ? "open" : ""}><summary>Emergency coin: return an unplaced privilege card for ${desc.production.emergency_coin_ducats} ducats</summary><div class="ha-actions">${coins.join("")}</div></details>` : ""}
      ${mine}
    </section>`;
  }

  // the engine's price of a tile on the current space, from the view (never worked out here)
  const priceOf = (v, tile) => v.track[v.current_space]?.prices?.[tile];
  const sunnySpot = (name) => desc.garden.spots.find((x) => x.name === name)?.sunny;
  function activationWords(tile) {
    const a = desc.garden.activation;
    return tile.startsWith("monk") ? `Activated: ${a.monk}.` : `Activated on a sunny spot it ${a.sunny}; on a shady spot it ${a.shady}.`;
  }

  // What the highlighted choices will do, in the prompt.
  function stepPrompt(v, legal) {
    const me = v.boards[ctx.seat];
    if (v.step === "move") {
      const spaces = legal.filter((c) => c.type === "Move").map((c) => `${c.space} (${SPACE_LABEL[v.track[c.space].kind]})`);
      const which = spaces.length <= 5 ? spaces.join(", ") : `${spaces.slice(0, 4).join(", ")} and ${spaces.length - 4} more`;
      return `Move your figure forward to a highlighted space: ${which}. Point at (or long-press) a space to see what it offers.`;
    }
    if (v.step === "buy" && chosenTile) {
      const price = priceOf(v, chosenTile);
      return `Place the ${tileWords(chosenTile)} on a highlighted spot: ${priceWords(price)} (you have ${me.ducats}).`;
    }
    if (v.step === "buy") return `Buy a tile (you have ${me.ducats} ducats): the buttons are the tiles you can afford, with their prices; then pick a highlighted garden spot.`;
    return STEP_PROMPT[v.step] || "Your decision.";
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

  // -- player boards -----------------------------------------------------------------------------------------
  function playerBoard(v, seat, featured) {
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
      ${isOpen ? `<div class="ha-board ${featured ? "" : "split"}">
        ${featured ? "" : `<div>${gardenSvg(v, b, mine)}</div>`}
        <div class="${featured ? "ha-wide" : ""}">${featured ? "" : scoringSpots(v, b)}${facts(v, b)}</div>
        <div class="ha-wide"><div class="ha-muted">Production track: markers, brewmaster (B) and its brackets (exchange rate, VP per spot)</div><div class="ha-scroll">${productionSvg(b)}</div></div>
        ${v.kegs_and_more ? `<div class="ha-wide">${deliveryBoard(v, b)}</div>` : ""}
      </div>` : ""}
    </details>`;
  }

  // a collapsed board still shows its garden small and the pieces on its tracks in one line
  function glance(v, b) {
    const markers = Object.entries(b.markers).map(([c, spot]) => `<span title="${c} marker"><span class="ha-swatch" style="background:${RES_COLOUR[c]};width:10px;height:10px"></span> ${spot}</span>`).join(" ");
    const d = b.delivery;
    return `<div class="ha-glance"><div class="ha-mini">${gardenSvg(v, b, false, true)}</div>
      <div class="ha-facts"><span><b>Markers</b> ${markers}</span><span><b>Brewmaster</b> ${brewmasterAt(b.brewmaster)} (${b.exchange_rate}:1 ×${b.vp_per_spot})</span>
      <span><b>Discs</b> ${b.discs.length ? b.discs.map(esc).join(", ") : "none"}</span>
      <span><b>Sheds</b> ${Object.keys(b.sheds).length}</span>
      ${d ? `<span><b>Kegs</b> ${d.kegs} · <b>bales</b> ${d.bales} · <b>cart</b> ${esc(d.cart_location)} (${d.cart_kegs}) · <b>delivered</b> ${d.delivered.reduce((a, x) => a + x, 0)}</span>` : ""}
      <span class="ha-muted">(open for the whole board)</span></div></div>`;
  }

  // small: the thumbnail of a folded board (no hints there: the open board has them)
  function gardenSvg(v, b, mine, small = false) {
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
      const hint = small ? "" : spotHint(v, s, tile, t ? targetSpots[s.name] : null);
      out.push(`<g ${attrs} data-spot="${s.name}" ${mine ? "data-mine" : ""}${hint}><polygon class="hit" points="${hexPoints(cx, cy, R - 1)}" fill="${s.sunny ? "#fde9a0" : "#b9cadb"}" stroke="#fff" stroke-width="1.5"/>
        ${tile ? tileSvg(tile, cx, cy, R - 4) : ""}${tile && recent.spots.has(`${b.seat}:${s.name}`) ? `<polygon points="${hexPoints(cx, cy, R - 2)}" fill="none" stroke="#e0006a" stroke-width="2.5"/>` : ""}${tile ? "" : `<text x="${cx}" y="${cy + 4}" text-anchor="middle" font-size="10" fill="#7a6a50">${t ? "" : s.name}</text>
        ${t ? `<text x="${cx}" y="${cy + 5}" text-anchor="middle" font-size="14" font-weight="700" fill="#7a4d00">${costOf(targetSpots[s.name])}</text>` : ""}`}</g>`);
    }
    for (const s of desc.garden.sheds) {
      const cx = X(s.col), cy = Y(s.row);
      const built = b.sheds[s.name];
      const storage = b.delivery?.storage_tiles?.[s.name];
      const isPend = pend === s.name || (v.turn === b.seat && (v.pending_sheds || []).includes(s.name));
      let label = s.name;
      if (built) label = `${built.activates}`;
      const hint = small ? "" : tipAttr(`Shed ${s.name}`, built ? `Type ${built.type}: when built it activated ${plural(built.activates, "adjacent tile")}.`
        : "Not built yet: surround it with six tiles and it is built, activating its neighbours.", storage ? `Storage tile: ${TILE_SHORT[storage] || storage}, ${storageText(storage)}` : "");
      out.push(`<g data-shed="${s.name}"${hint}><polygon points="${hexPoints(cx, cy, R - 2)}" fill="${built ? "#8c6239" : "#fff"}" stroke="${isPend ? "#e0006a" : "#8c6239"}" stroke-width="${isPend ? 3 : 1.5}" stroke-dasharray="${built ? "" : "4 3"}"/>
        <text x="${cx}" y="${cy + (storage && !built ? -2 : 5)}" text-anchor="middle" font-size="${built ? 15 : 11}" font-weight="700" fill="${built ? "#fff" : "#8c6239"}">${label}</text>
        ${storage && !built ? `<text x="${cx}" y="${cy + 10}" text-anchor="middle" font-size="8.5" fill="#5a3410">${esc(TILE_SHORT[storage] || storage)}</text>` : ""}</g>`);
    }
    const w = X(12) + W + 8, h = Y(6) + R + 8;
    return `<svg class="ha-garden" viewBox="0 0 ${w.toFixed(0)} ${h.toFixed(0)}" ${small ? `role="img"` : `role="group" data-tip-group`} aria-label="${esc(nameOf(b.seat))}'s monastery garden" style="max-width:${mine ? 520 : 420}px">${out.join("")}</svg>`;
  }

  // the price of the chosen tile on this spot, in ducats (the prompt says so), as the engine states it
  function costOf(index) {
    const c = state.legal[index];
    return String(priceOf(state.view, c.tile)?.[sunnySpot(c.spot) ? "sunny" : "shady"] ?? "?");
  }

  function spotHint(v, s, tile, target) {
    const side = s.sunny ? "sunny" : "shady";
    const a = desc.garden.activation;
    const lines = tile ? [`${tileWords(tile)}. When activated it ${tile.startsWith("monk") ? a.monk : a[side]}.`]
      : [`Empty. ${desc.garden.prices[0].toUpperCase()}${desc.garden.prices.slice(1)}.`];
    if (s.sheds.length) lines.push(`Next to shed${s.sheds.length > 1 ? "s" : ""} ${s.sheds.join(", ")}.`);
    if (target !== null) lines.push(`Highlighted: place the ${tileWords(chosenTile)} here for ${costOf(target)} ducats.`);
    return tipAttr(`Garden spot ${s.name} (${side})`, ...lines);
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
      const hint = tipAttr(`Brewmaster bracket ${br.from === null ? "0 or below" : `${from}–${to}`}`,
        `With the brewmaster here: exchange ${br.exchange_rate}:1 at the end, ${br.vp_per_spot} VP per spot of the least marker.`, mine ? "The brewmaster is in this bracket now." : "");
      out.push(`<g${hint}><rect x="${X(from)}" y="2" width="${(to - from + 1) * S - 2}" height="18" rx="3" fill="${mine ? "#f0b400" : "#efe6d4"}" stroke="#b59a6a"/>
        <text x="${X(from) + ((to - from + 1) * S - 2) / 2}" y="15" text-anchor="middle" font-size="${to - from < 1 ? 7.5 : to - from < 2 ? 8.5 : 10.5}">${br.exchange_rate}:1 ×${br.vp_per_spot}</text></g>`);
    }
    for (let s = low; s <= high; s++) {
      out.push(`<rect x="${X(s)}" y="24" width="${S - 2}" height="18" fill="${s >= 1 ? "#c49a6c" : "#e5d5bd"}"/>
        ${s >= 1 ? `<text x="${X(s) + (S - 2) / 2}" y="37" text-anchor="middle" font-size="10" fill="#fff">${s}</text>` : ""}`);
    }
    const stacks = {};
    const put = (spot, svg) => { const k = (stacks[spot] ||= 0); stacks[spot]++; out.push(svg(X(spot) + (S - 2) / 2, 54 + k * 13)); };
    put(b.brewmaster, (x, y) => `<g${tipAttr("Brewmaster", `${brewmasterAt(b.brewmaster)}: exchange ${b.exchange_rate}:1, ${b.vp_per_spot} VP per spot at the end.`)}><rect x="${x - 6}" y="${y - 6}" width="12" height="12" rx="2" fill="#222"/><text x="${x}" y="${y + 3.5}" text-anchor="middle" font-size="9" fill="#fff">B</text></g>`);
    for (const [c, spot] of Object.entries(b.markers)) {
      put(Math.max(low, spot), (x, y) => `<g${tipAttr(`${c[0].toUpperCase()}${c.slice(1)} marker`, `On ${spot}. Sunny ${c} tiles move it when activated; the least advanced marker scores at the end.`)}><circle cx="${x}" cy="${y}" r="6" fill="${RES_COLOUR[c]}" stroke="#000"/></g>`);
    }
    const depth = Math.max(1, ...Object.values(stacks));
    const height = 54 + depth * 13;
    return `<svg class="ha-prod" viewBox="0 0 ${n * S + 12} ${height}" role="group" data-tip-group aria-label="Production track">${out.join("")}</svg>`;
  }

  function scoringSpots(v, b) {
    const discs = new Set(b.discs);
    const choices = v.turn === b.seat ? new Set((v.disc_choices || []).map((d) => d.spot)) : new Set();
    const pairs = b.pairs.map((pair) => {
      const spots = pair.spots.map((s) => {
        const colour = RES_COLOUR[s] || (s === "x" ? "#fff" : MONK_COLOUR);
        const hint = tipAttr(`Scoring spot ${s}`, discs.has(s) ? "A disc is on it." : "No disc yet: a disc space of the track can put one here.",
          choices.has(s) ? "You can put your disc here now (the gain is on the button)." : "",
          `With its pair (${pair.spots.join(" + ")}) full, a privilege card is placed.`);
        return `<span${hint} style="display:inline-flex;align-items:center;gap:2px;margin-right:4px;${choices.has(s) ? "outline:2px dashed #f0b400;" : ""}">
          <span style="display:inline-block;width:12px;height:12px;border-radius:2px;background:${colour};border:1px solid #0006"></span>${esc(s)}${discs.has(s) ? ` <b style="color:#7b3fa0">●</b>` : ""}</span>`;
      }).join("");
      const card = pair.card ? `<span class="ha-muted"> → ${esc(pair.card)}</span>` : "";
      return `<span style="display:inline-block;border:1px solid #d9ccb3;border-radius:5px;padding:1px 4px;margin:2px">${spots}${card}</span>`;
    });
    return `<div class="ha-facts" role="group" aria-label="Scoring spots and privilege pairs" data-tip-group><b>Scoring spots:</b> ${pairs.join("")}</div>`;
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
      const hint = tipAttr(`Road ${i}: ${loc.kind}`, loc.points ? `${loc.points} VP per keg on the cart at the end.` : "",
        loc.gate_after ? `Gate after it: ${loc.gate_after.text}.` : "", d.cart === i ? `Your cart is here with ${plural(d.cart_kegs, "keg")}.` : "");
      out.push(`<g${hint}><rect x="${x}" y="4" width="${S - 6}" height="34" rx="5" fill="${fill}" stroke="#8a7a60"/><text x="${x + (S - 6) / 2}" y="25" text-anchor="middle" font-size="10.5">${label}</text></g>`);
      if (loc.gate_after) out.push(`<rect x="${x + S - 5}" y="0" width="4" height="42" fill="#5a3410"/>`);
    });
    const cx = 6 + d.cart * S + (S - 6) / 2;
    out.push(`<g><rect x="${cx - 14}" y="44" width="28" height="16" rx="3" fill="${colourOf(b.seat)}" stroke="#000"/><text x="${cx}" y="56" text-anchor="middle" font-size="10" font-weight="700" fill="#fff" stroke="#000" stroke-width="0.3">${d.cart_kegs}</text></g>`);
    const road = `<svg class="ha-road" viewBox="0 0 ${n * S + 8} 64" role="group" data-tip-group aria-label="Delivery road">${out.join("")}</svg>`;
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
    const hint = tipAttr(rental ? "Rental spot" : "Storage spot", what ? `Holds a ${what}.` : "Empty.",
      rental ? `Placing a keg or a bale here costs ${desc.kegs_and_more.storage.rental_cost} ducats.` : "");
    return `<span${hint} style="display:inline-block;width:18px;height:18px;margin-right:3px;vertical-align:middle;border-radius:${what === "keg" ? "50%" : "3px"};background:${fill};border:${rental ? "2px dashed #b3261e" : "1px solid #0006"}"></span>`;
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
      tips.destroy();
      keys.destroy();
      resized.disconnect();
      wrap.remove();
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
