// The Heaven & Ale (+ Kegs & More) board: the main track, every player's monastery garden, production track,
// scoring spots and delivery board, drawn from the engine's description and the seat's view. Every move is
// offered from the legal commands and every preview (shed, disc, final score) comes from the view: no rule is
// re-implemented here. Contract: mount(root, ctx) -> { update(state), destroy() } (services/web/README.md).

import { redraw } from "./redraw.js";
import { attachTips } from "./tooltip.js";
import { attachTipKeys, tipAttr } from "./tip-keys.js";
import { RES_COLOUR, esc, fmt, hexPoints, priceWords, tileChip, tileSvg, tileWords } from "./heaven-and-ale-draw.js";
import { centreMarkup, trackMarkup } from "./heaven-and-ale-track.js";
import { bringIntoView } from "./in-view.js";
import { injectStyle } from "./heaven-and-ale-style.js";
import { brewmasterAt, ducats, gainText, kegs, localDescription, resourceName, spaceLabel, stepName,
  slotTitle, spotName, stepPrompt as STEP_PROMPT, storageShort, tileShort } from "./heaven-and-ale-words.js";
import { cardName, goodsWords, placeName, resolveWords, storageWords } from "./heaven-and-ale-words.js";
import { sheet } from "./heaven-and-ale-sheet.js";
import { t, tn } from "../js/i18n.js";

export { describe } from "./heaven-and-ale-words.js";

const WIDE_PX = 600; // narrower than this, the track is drawn as a compact grid and the garden goes under it

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
  const open = new Set(); // expanded opponent boards
  let coinsOpen = false; // the emergency-coin group stays open across redraws once opened
  // what happened since this seat last acted: outlined on the track and the gardens
  let recent = { spaces: new Set(), spots: new Set() };
  let barContent = null; // what the frame's action bar shows for this decision (set by actionPanel)

  let failed = null;
  let sh = null; // the player sheets' drawings (heaven-and-ale-sheet.js), once the description is in
  ctx.api.description().then((d) => {
    desc = d && localDescription(d);
    sh = d && sheet(desc, colourOf);
    if (!d) failed = t("The game's description is missing.");
    render();
  }).catch((err) => {
    failed = t("The board cannot be drawn: {error}", { error: err?.message || err });
    render();
  });

  const colourOf = (seat) => ctx.seatInfo?.[seat]?.colour || ["#c0392b", "#2e86c1", "#f1c40f", "#222"][seat % 4];
  const nameOf = (seat) => ctx.seatInfo?.[seat]?.name || t("Seat {n}", { n: seat + 1 });

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
    const hit = e.target.closest("[data-cmd], [data-pick-tile], [data-pick-slot]");
    if (!hit || !el.contains(hit)) return;
    if (hit.dataset.cmd !== undefined) {
      e.preventDefault();
      submit(Number(hit.dataset.cmd));
    } else if (hit.dataset.pickTile !== undefined) {
      chosenTile = chosenTile === hit.dataset.pickTile ? null : hit.dataset.pickTile;
      render();
    } else if (hit.dataset.pickSlot !== undefined) {
      chosenSlot = chosenSlot === hit.dataset.pickSlot ? null : hit.dataset.pickSlot;
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
      redraw(el, `<p class="ha-muted" role="status">${esc(failed || t("Loading the board…"))}</p>`);
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
        <section class="ha-card ha-trackcard" aria-label="${esc(t("Main track"))}" data-testid="ha-track">${trackMarkup(v, track, wide)}</section>
        ${featured === null ? "" : ownGarden(v, featured)}
        ${wide ? "" : `<section class="ha-card ha-trackcard" aria-label="${esc(t("Starting area and barrels"))}" data-testid="ha-centre">${centreMarkup(v, track)}</section>`}
      </div>
      <section class="ha-players" aria-label="${esc(t("Players"))}">${playerOrder(v).map((s) => playerBoard(v, s, s === featured)).join("")}</section>
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
    const q = { name: nameOf(seat), n: b.ducats };
    return `<section class="ha-card ha-own" aria-label="${esc(mine ? t("Your garden") : t("{name}'s garden", q))}" data-testid="ha-own">
      <div class="ha-muted">${esc(mine ? t("Your monastery garden · {n} ducats", q) : t("{name}'s monastery garden · {n} ducats", q))}</div>
      ${gardenSvg(v, b, mine)}${sh.scoringSpots(v, b)}
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
    if (over) prompt = t("Game over.");
    else if (!legal.length) {
      prompt = v.phase === "arranging" ? t("Players arrange their storage tiles.") : v.phase === "placing"
        ? t("Players place their figures on the starting spaces.") : who === null ? t("Waiting…")
          : v.step ? t("{name} is on turn ({step}).", { name: nameOf(who), step: stepName(v.step) }) : t("{name} is on turn.", { name: nameOf(who) });
    } else if (chosenSlot === "resource") prompt = t("+2 resource starting space: which marker moves 2 steps?");
    else if (v.phase === "placing") prompt = t("Place your figure on a highlighted starting space.");
    else if (v.phase === "arranging") {
      const next = desc.garden.sheds.find((s) => !(s.name in (v.boards[ctx.seat].delivery?.storage_tiles || {})));
      prompt = t("Arrange your storage tiles: which goes on shed {shed}?", { shed: next ? next.name : "?" });
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
          if (c.slot === "resource" && chosenSlot === "resource") {
            buttons.push(btn(i, `+2 <b>${esc(resourceName(c.colour))}</b>`, `data-kind="slot-colour"`));
          }
          break;
        case "PlaceStorageTile":
          buttons.push(btn(i, `<b>${esc(storageShort(c.tile))}</b><span class="ha-gain">${esc(storageText(c.tile))}</span>`, `data-kind="storage"`));
          break;
        case "EndBuying": rest.push({ i, label: t("End buying"), kind: "end" }); break;
        case "TakeDisc": {
          const p = (v.disc_choices || []).find((d) => d.spot === c.spot && d.number === c.number);
          const q = { spot: spotName(c.spot), number: c.number };
          const label = c.number ? t("Disc on {spot} naming {number}", q) : t("Disc on {spot}", q);
          buttons.push(btn(i, `${esc(label)}${p ? `<span class="ha-gain">${esc(gainText(p))}</span>` : ""}`, `data-kind="disc"`));
          break;
        }
        case "ClaimBarrels": {
          const goals = [...desc.barrels.goals, desc.barrels.kegs_and_more_goal];
          const choice = v.barrel_choice || { large: [], small: [] };
          const names = [...choice.large.map((g) => t("large: {goal}", { goal: goals[g].text })),
            ...choice.small.map((g) => t("small: {goal}", { goal: goals[g].text }))];
          buttons.push(btn(i, `${esc(t("Claim barrels"))}<span class="ha-gain">${esc(names.join("; ") || t("none"))}</span>`, `data-kind="barrels"`));
          break;
        }
        case "ChooseShedTiles": {
          const p = (v.shed_choices || []).find((d) => d.spots.join() === c.spots.join());
          const label = c.spots.length ? t("Activate {spots}", { spots: c.spots.join(" + ") }) : t("Activate nothing");
          buttons.push(btn(i, `${esc(label)}${p ? `<span class="ha-gain">${esc(gainText(p))}</span>` : ""}`,
            `data-kind="shed" data-spots="${c.spots.join(",")}"`));
          break;
        }
        case "PlacePrivilege": {
          const text = desc.production.privilege_cards.find((x) => x.card === c.card)?.text || "";
          const q = { card: cardName(c.card), colour: resourceName(c.colour) };
          const label = c.colour ? t("Card {card} ({colour})", q) : t("Card {card}", q);
          buttons.push(btn(i, `${esc(label)}<span class="ha-gain">${esc(text)}</span>`, `data-kind="privilege"`));
          break;
        }
        case "DeclinePrivilege": rest.push({ i, label: t("Place no card"), kind: "decline" }); break;
        case "UseEmergencyCoin":
          coins.push(btn(i, esc(t("return “{card}”", { card: cardName(c.card) })), `data-kind="coin"`, "target minor"));
          break;
        case "ResolveStorageTile": buttons.push(btn(i, resolveText(v, c), `data-kind="storage-use"`)); break;
        case "TakeGoods": buttons.push(btn(i, goodsText(c), `data-kind="goods"`)); break;
        case "UseCarterDie": {
          const cv = v.boards[ctx.seat]?.delivery?.carter_value;
          const p = (v.cart_choices || []).find((x) => x.load === c.load);
          const road = desc.kegs_and_more.road;
          const to = p && road[p.to];
          const where = !p ? "" : to.kind === "tavern" ? t("to tavern {n} ({at})", { n: to.tavern, at: p.to })
            : t("to the {place} ({at})", { place: placeName(to.kind), at: p.to });
          const delivers = p ? p.delivered.map((n, a) => (n ? t("{n} to keg area {area}", { n, area: a + 1 }) : ""))
            .filter(Boolean).join(", ") : "";
          const move = c.load ? tn("Move the cart one step, loading {kegs} (1 bale each)", "Move the cart {n} steps, loading {kegs} (1 bale each)",
            cv, { kegs: kegs(c.load) }) : tn("Move the cart one step", "Move the cart {n} steps", cv);
          const gain = p ? (delivers ? t("{where}, delivering {what}", { where, what: delivers }) : where) : "";
          buttons.push(btn(i, `${esc(move)}${gain ? `<span class="ha-gain">${esc(gain)}</span>` : ""}`, `data-kind="cart"`));
          break;
        }
        case "Pass": rest.push({ i, label: t("Pass (skip this action)"), kind: "pass" }); break;
        default: buttons.push(btn(i, esc(JSON.stringify(c)), `data-kind="other"`));
      }
    }
    // buying: one button per tile on offer; the garden then highlights where it may go
    const buys = legalOf("BuyTile");
    if (buys.length) {
      const tiles = [...new Set(buys.map(([c]) => c.tile))];
      const picks = tiles.map((tile) => {
        const sides = new Set(buys.filter(([c]) => c.tile === tile).map(([c]) => (sunnySpot(c.spot) ? "sunny" : "shady")));
        const price = priceOf(v, tile);
        const sideWord = { shady: t("shady"), sunny: t("sunny") };
        const can = ["shady", "sunny"].filter((side) => sides.has(side)).map((side) => `${sideWord[side]} ${price?.[side]}`).join(" · ");
        const hint = tipAttr(tileWords(tile), t("Costs {price}; you can afford: {can} ducats.", { price: priceWords(price), can }),
          activationWords(tile), t("Pick it, then a highlighted spot of your garden."));
        return `<button type="button" class="target ${chosenTile === tile ? "chosen" : ""}" data-pick-tile="${esc(tile)}" data-kind="pick-tile" ${pending ? "disabled" : ""}${hint}>
          ${tileChip(tile)} ${esc(tileShort(tile))}<span class="ha-gain">${esc(t("{can} ducats", { can }))}</span></button>`;
      });
      buttons.unshift(...picks);
    }
    const me = ctx.seat !== null && ctx.seat !== undefined ? v.boards[ctx.seat] : null;
    const mine = me ? `<span class="ha-muted">${esc(t("You: {n} ducats · brewmaster {at} ({rate}:1, ×{vp}) · if the game ended now: {total} VP", {
      n: me.ducats, at: brewmasterAt(me.brewmaster), rate: me.exchange_rate, vp: me.vp_per_spot, total: "\u0000" }))
      .replace("\u0000", `<b data-testid="ha-score-now">${fmt(me.score_now.total)}</b>`)}</span>` : "";
    // With the frame's action bar, the prompt and the Done-style buttons go there (in view at the foot on every
    // screen); the choices stay here, beside what they choose. Without it (an older frame, a test harness) the
    // card keeps them all and stays in view itself (sticky).
    const inBar = !!ctx.bar;
    const text = t("Round {round} of {rounds} · {prompt}", { round: v.round, rounds: v.rounds, prompt });
    barContent = legal.length ? { prompt: text, actions: rest.map((r) => ({ id: `ha-${r.kind}`, cmd: r.i, label: r.label, disabled: pending,
      onClick: () => submit(r.i) })) } : null;
    const ends = inBar ? "" : rest.map((r) => btn(r.i, r.label, `data-kind="${r.kind}"`)).join("");
    return `<section class="ha-card ${legal.length && !inBar ? "ha-bar" : ""}" aria-label="${esc(t("Your move"))}" data-testid="ha-actions">
      ${inBar && legal.length ? "" : `<p class="ha-prompt" data-testid="ha-prompt">${esc(text)}</p>`}
      ${buttons.length || ends ? `<div class="ha-actions">${buttons.join("")}${ends}</div>` : ""}
      ${coins.length ? `<details class="ha-coins" ${coinsOpen || legal.every((c) => c.type === "UseEmergencyCoin") ? "open" : ""}><summary>${esc(
    t("Emergency coin: return an unplaced privilege card for {n} ducats", { n: desc.production.emergency_coin_ducats }))}</summary><div class="ha-actions">${coins.join("")}</div></details>` : ""}
      ${mine}
    </section>`;
  }

  // the engine's price of a tile on the current space, from the view (never worked out here)
  const priceOf = (v, tile) => v.track[v.current_space]?.prices?.[tile];
  const sunnySpot = (name) => desc.garden.spots.find((x) => x.name === name)?.sunny;
  function activationWords(tile) {
    const a = desc.garden.activation;
    return tile.startsWith("monk") ? t("Activated: {does}.", { does: a.monk })
      : t("Activated on a sunny spot it {sunny}; on a shady spot it {shady}.", a);
  }

  // What the highlighted choices will do, in the prompt.
  function stepPrompt(v, legal) {
    const me = v.boards[ctx.seat];
    if (v.step === "move") {
      const spaces = legal.filter((c) => c.type === "Move").map((c) => `${c.space} (${spaceLabel(v.track[c.space].kind)})`);
      const which = spaces.length <= 5 ? spaces.join(", ")
        : t("{spaces} and {n} more", { spaces: spaces.slice(0, 4).join(", "), n: spaces.length - 4 });
      return t("Move your figure forward to a highlighted space: {which}. Point at (or long-press) a space to see what it offers.", { which });
    }
    if (v.step === "buy" && chosenTile) {
      const price = priceOf(v, chosenTile);
      return t("Place the {tile} on a highlighted spot: {price} (you have {n}).", { tile: tileWords(chosenTile), price: priceWords(price),
        n: me.ducats });
    }
    if (v.step === "buy") {
      return t("Buy a tile (you have {n} ducats): the buttons are the tiles you can afford, with their prices; then pick a highlighted garden spot.",
        { n: me.ducats });
    }
    return STEP_PROMPT(v.step);
  }

  const storageText = (tile) => storageWords(desc, tile);
  const resolveText = (v, c) => resolveWords(desc, v.boards[ctx.seat]?.delivery?.storage_tiles?.[v.pending_shed], c);
  const goodsText = (c) => goodsWords(desc, c);

  // -- player boards -----------------------------------------------------------------------------------------
  function playerBoard(v, seat, featured) {
    const b = v.boards[seat];
    const mine = seat === ctx.seat;
    const onTurn = v.turn === seat;
    const isOpen = mine || open.has(String(seat)) || (ctx.seat === null && onTurn);
    const figure = b.figure === "start" ? (b.starting_space ? t("starting space “{name}”", { name: slotTitle(b.starting_space) }) : t("starting area"))
      : t("space {n}", { n: b.figure });
    const name = nameOf(seat);
    const head = mine ? (onTurn ? t("{name} (you) · on turn", { name }) : t("{name} (you)", { name }))
      : onTurn ? t("{name} · on turn", { name }) : name;
    const barrels = b.large_barrels.length + b.small_barrels.length;
    return `<details class="ha-card ha-player ${mine ? "ha-mine" : ""}" data-seat="${seat}" data-testid="ha-player-${seat}" ${isOpen ? "open" : ""}>
      <summary><span class="ha-swatch" style="background:${colourOf(seat)}"></span>
        <span class="ha-name">${esc(head)}</span>
        <span class="ha-stat">${esc(ducats(b.ducats))}</span><span class="ha-stat">${esc(t("figure: {where}", { where: figure }))}</span>
        <span class="ha-stat">${esc(tn("one barrel", "{n} barrels", barrels))}</span>
        <span class="ha-stat" title="${esc(t("the final scoring applied to this position"))}">${esc(t("now worth {total} VP", { total: "\u0000" }))
    .replace("\u0000", `<b>${fmt(b.score_now.total)}</b>`)}</span>
        ${isOpen ? "" : glance(v, b)}</summary>
      ${isOpen ? `<div class="ha-board ${featured ? "" : "split"}">
        ${featured ? "" : `<div>${gardenSvg(v, b, mine)}</div>`}
        <div class="${featured ? "ha-wide" : ""}">${featured ? "" : sh.scoringSpots(v, b)}${sh.facts(v, b)}</div>
        <div class="ha-wide"><div class="ha-muted">${esc(t("Production track: markers, brewmaster (B) and its brackets (exchange rate, VP per spot)"))}</div>
          <div class="ha-scroll">${sh.productionSvg(b)}</div></div>
        ${v.kegs_and_more ? `<div class="ha-wide">${sh.deliveryBoard(v, b)}</div>` : ""}
      </div>` : ""}
    </details>`;
  }

  // a collapsed board still shows its garden small and the pieces on its tracks in one line
  function glance(v, b) {
    const markers = Object.entries(b.markers).map(([c, spot]) => `<span title="${esc(t("{resource} marker", { resource: resourceName(c) }))}"><span class="ha-swatch" style="background:${RES_COLOUR[c]};width:10px;height:10px"></span> ${spot}</span>`).join(" ");
    const d = b.delivery;
    return `<div class="ha-glance"><div class="ha-mini">${gardenSvg(v, b, false, true)}</div>
      <div class="ha-facts"><span><b>${esc(t("Markers"))}</b> ${markers}</span><span><b>${esc(t("Brewmaster"))}</b> ${esc(brewmasterAt(b.brewmaster))} (${b.exchange_rate}:1 ×${b.vp_per_spot})</span>
      <span><b>${esc(t("Discs"))}</b> ${b.discs.length ? esc(b.discs.map(spotName).join(", ")) : esc(t("none"))}</span>
      <span><b>${esc(t("Sheds"))}</b> ${Object.keys(b.sheds).length}</span>
      ${d ? `<span>${esc(t("Kegs {kegs} · bales {bales} · cart {cart} ({load}) · delivered {delivered}", { kegs: d.kegs, bales: d.bales,
    cart: placeName(d.cart_location), load: d.cart_kegs, delivered: d.delivered.reduce((a, x) => a + x, 0) }))}</span>` : ""}
      <span class="ha-muted">${esc(t("(open for the whole board)"))}</span></div></div>`;
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
      <text x="6" y="14" font-size="11" fill="#8a6d00">${esc(t("sunny (×2 price)"))}</text><text x="${X(12) + W}" y="14" font-size="11" fill="#44607a" text-anchor="end">${esc(t("shady"))}</text>`);
    for (const s of spots) {
      const cx = X(s.col), cy = Y(s.row);
      const tile = b.garden[s.name];
      const isTarget = s.name in targetSpots;
      const place = t("Place {tile} on {spot}", { tile: tileShort(chosenTile), spot: s.name });
      const attrs = isTarget ? `class="target" data-cmd="${targetSpots[s.name]}" tabindex="0" role="button" data-kind="spot" aria-label="${esc(place)}"` : "";
      const hint = small ? "" : spotHint(v, s, tile, isTarget ? targetSpots[s.name] : null);
      out.push(`<g ${attrs} data-spot="${s.name}" ${mine ? "data-mine" : ""}${hint}><polygon class="hit" points="${hexPoints(cx, cy, R - 1)}" fill="${s.sunny ? "#fde9a0" : "#b9cadb"}" stroke="#fff" stroke-width="1.5"/>
        ${tile ? tileSvg(tile, cx, cy, R - 4) : ""}${tile && recent.spots.has(`${b.seat}:${s.name}`) ? `<polygon points="${hexPoints(cx, cy, R - 2)}" fill="none" stroke="#e0006a" stroke-width="2.5"/>` : ""}${tile ? "" : `<text x="${cx}" y="${cy + 4}" text-anchor="middle" font-size="10" fill="#7a6a50">${isTarget ? "" : s.name}</text>
        ${isTarget ? `<text x="${cx}" y="${cy + 5}" text-anchor="middle" font-size="14" font-weight="700" fill="#7a4d00">${costOf(targetSpots[s.name])}</text>` : ""}`}</g>`);
    }
    for (const s of desc.garden.sheds) {
      const cx = X(s.col), cy = Y(s.row);
      const built = b.sheds[s.name];
      const storage = b.delivery?.storage_tiles?.[s.name];
      const isPend = pend === s.name || (v.turn === b.seat && (v.pending_sheds || []).includes(s.name));
      let label = s.name;
      if (built) label = `${built.activates}`;
      const hint = small ? "" : tipAttr(t("Shed {name}", { name: s.name }), built
        ? tn("Type {type}: when built it activated one adjacent tile.", "Type {type}: when built it activated {n} adjacent tiles.",
          built.activates, { type: built.type })
        : t("Not built yet: surround it with six tiles and it is built, activating its neighbours."),
      storage ? t("Storage tile: {tile}, {text}", { tile: storageShort(storage), text: storageText(storage) }) : "");
      out.push(`<g data-shed="${s.name}"${hint}><polygon points="${hexPoints(cx, cy, R - 2)}" fill="${built ? "#8c6239" : "#fff"}" stroke="${isPend ? "#e0006a" : "#8c6239"}" stroke-width="${isPend ? 3 : 1.5}" stroke-dasharray="${built ? "" : "4 3"}"/>
        <text x="${cx}" y="${cy + (storage && !built ? -2 : 5)}" text-anchor="middle" font-size="${built ? 15 : 11}" font-weight="700" fill="${built ? "#fff" : "#8c6239"}">${label}</text>
        ${storage && !built ? `<text x="${cx}" y="${cy + 10}" text-anchor="middle" font-size="8.5" fill="#5a3410">${esc(storageShort(storage))}</text>` : ""}</g>`);
    }
    const w = X(12) + W + 8, h = Y(6) + R + 8;
    return `<svg class="ha-garden" viewBox="0 0 ${w.toFixed(0)} ${h.toFixed(0)}" ${small ? `role="img"` : `role="group" data-tip-group`} aria-label="${esc(t("{name}'s monastery garden", { name: nameOf(b.seat) }))}" style="max-width:${mine ? 520 : 420}px">${out.join("")}</svg>`;
  }

  // the price of the chosen tile on this spot, in ducats (the prompt says so), as the engine states it
  function costOf(index) {
    const c = state.legal[index];
    return String(priceOf(state.view, c.tile)?.[sunnySpot(c.spot) ? "sunny" : "shady"] ?? "?");
  }

  function spotHint(v, s, tile, target) {
    const side = s.sunny ? "sunny" : "shady";
    const a = desc.garden.activation;
    const prices = desc.garden.prices;
    const lines = tile ? [t("{tile}. When activated it {does}.", { tile: tileWords(tile), does: tile.startsWith("monk") ? a.monk : a[side] })]
      : [t("Empty. {prices}.", { prices: `${prices[0].toUpperCase()}${prices.slice(1)}` })];
    if (s.sheds.length) {
      lines.push(s.sheds.length > 1 ? t("Next to sheds {sheds}.", { sheds: s.sheds.join(", ") }) : t("Next to shed {shed}.", { shed: s.sheds[0] }));
    }
    if (target !== null) {
      lines.push(t("Highlighted: place the {tile} here for {n} ducats.", { tile: tileWords(chosenTile), n: costOf(target) }));
    }
    return tipAttr(s.sunny ? t("Garden spot {name} (sunny)", { name: s.name }) : t("Garden spot {name} (shady)", { name: s.name }), ...lines);
  }


  function summary(v) {
    const lines = [t("Round {round} of {rounds}.", { round: v.round, rounds: v.rounds })];
    for (const b of v.boards) {
      lines.push(t("{name}: {n} ducats, brewmaster {at}, markers {markers}, {tiles} tiles in the garden, figure {figure}, worth {total} now.", {
        name: nameOf(b.seat), n: b.ducats, at: brewmasterAt(b.brewmaster), tiles: Object.keys(b.garden).length, figure: b.figure,
        markers: Object.entries(b.markers).map(([c, x]) => `${resourceName(c)} ${x}`).join(", "), total: fmt(b.score_now.total) }));
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
