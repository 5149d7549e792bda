// Heaven & Ale in words: the step prompts, the resources' and storage tiles' names, gains and the move log.
// Every sentence is one catalog entry (static/i18n/<locale>/heaven-and-ale.json); terms follow
// domain/heaven_and_ale/GLOSSARY.md.
import { t, tn } from "../js/i18n.js";
import { seatName } from "../js/words.js";
import { localise } from "./localise.js";
import { RES_COLOUR, esc, tileWords } from "./heaven-and-ale-draw.js";

/** The description's texts (goals, privilege cards, activation, storage tiles) in the page's language. */
export const localDescription = (d) => localise(d, ["text", "prices", "monk", "sunny", "shady", "storage_tile_back"]);

const STEP_PROMPT = {
  move: () => t("Choose a space on the track (highlighted) or a starting space."),
  buy: () => t("Buy a tile: pick one below, then a highlighted garden spot (its price in ducats is shown)."),
  disc: () => t("Put a disc on a scoring spot (the gain is shown)."),
  barrel: () => t("Claim your barrels, or pass."),
  storage: () => t("Use the storage tile of the shed you enclosed."),
  shed: () => t("Choose which adjacent tiles the new shed activates."),
  privilege: () => t("You completed a pair: place a privilege card."),
  goods: () => t("Take kegs and bales, or pass."),
  cart: () => t("Use the carter die to move your cart, or pass."),
};
/** The prompt of a turn step without a more particular one. */
export const stepPrompt = (step) => STEP_PROMPT[step]?.() || t("Your decision.");

const STORAGE_SHORT = {
  kegbale: () => t("keg/bale"), carter2: () => t("cart +2"), carter3: () => t("cart +3"), points7: () => t("7 pts"),
  points8: () => t("8 pts"), move3: () => t("move 3"), move4: () => t("move 4"),
};
/** A storage tile's short name ("cart +2"). */
export const storageShort = (tile) => STORAGE_SHORT[tile]?.() || tile;

const RESOURCE = { wood: () => t("wood"), yeast: () => t("yeast"), hops: () => t("hops"), water: () => t("water"),
  barley: () => t("barley") };
/** A resource's name ("hops"). */
export const resourceName = (c) => RESOURCE[c]?.() || c;

const SLOT_TITLE = { first: () => t("First player"), resource: () => t("+2 resource"), ducats: () => t("+2 ducats"),
  brewmaster: () => t("+1 brewmaster") };
/** A starting space's name ("First player", "+2 ducats"). */
export const slotTitle = (name) => SLOT_TITLE[name]?.() || name;

// a privilege card's name (description.production.privilege_cards' ids)
const CARD = { ducats: () => t("ducats"), brewmaster: () => t("brewmaster"), barrels: () => t("barrels"),
  resource: () => t("resource"), discs: () => t("discs") };
export const cardName = (card) => CARD[card]?.() || card;
// a place on the delivery road
const PLACE = { monastery: () => t("monastery"), tavern: () => t("tavern"), road: () => t("road"),
  wood: () => t("woods") };
export const placeName = (kind) => PLACE[kind]?.() || kind;

/** A scoring spot's name: a resource ("hops"), a monk type ("monk 2") or the number spot "x". */
export function spotName(spot) {
  const monk = /^monk(\d)$/.exec(String(spot));
  return monk ? t("monk {n}", { n: monk[1] }) : RESOURCE[spot]?.() || spot;
}

const SPACE = { start: () => t("Start"), resource: () => t("Tiles"), monk: () => t("Monks"), A: () => t("Disc A"),
  B: () => t("Disc B"), C: () => t("Disc C"), ABC: () => "A / B / C", barrel: () => t("Barrels") };
/** A track space's kind as its label says it. */
export const spaceLabel = (kind) => SPACE[kind]?.() || kind;

/** "hops 3", "M2": a tile's short name on a button. */
export function tileShort(name) {
  const [kind, n] = String(name).split("-");
  return kind === "monk" ? `M${n}` : `${resourceName(kind)} ${n}`;
}

export const kegs = (n) => tn("one keg", "{n} kegs", n);
export const bales = (n) => tn("one bale", "{n} bales", n);
export const ducats = (n) => tn("one ducat", "{n} ducats", n);

// the brewmaster starts 10 steps short of spot 1 (position -9): "on 4", or "3 steps before 1", never "-2"
export const brewmasterAt = (position) => (position >= 1 ? t("on {n}", { n: position })
  : tn("one step before 1", "{n} steps before 1", 1 - position));

export function gainText(g) {
  const parts = [];
  for (const [c, n] of Object.entries(g.markers || {})) parts.push(`${resourceName(c)} +${n}`);
  if (g.brewmaster) parts.push(t("brewmaster +{n}", { n: g.brewmaster }));
  if (g.ducats) parts.push(t("+{n} ducats", { n: g.ducats }));
  return parts.length ? parts.join(", ") : t("no gain");
}

// a turn step's name in the log ("buy", "shed"): the prompt's subject
const STEP = { move: () => t("move"), buy: () => t("buy"), disc: () => t("disc"), barrel: () => t("barrels"),
  storage: () => t("storage tile"), shed: () => t("shed"), privilege: () => t("privilege "
    + "card"), goods: () => t("goods"),
  cart: () => t("cart") };
export const stepName = (step) => STEP[step]?.() || step;

function cartMoved(p, name) {
  const q = { name, steps: p.steps, to: p.to, loaded: p.loaded, delivered: p.delivered.reduce((a, b) => a + b, 0) };
  if (p.loaded && q.delivered) return t("{name} moved the cart {steps} to location {to}, loading {loaded}, "
    + "delivering {delivered}.", q);
  if (p.loaded) return t("{name} moved the cart {steps} to location {to}, loading {loaded}.", q);
  if (q.delivered) return t("{name} moved the cart {steps} to location {to}, delivering {delivered}.", q);
  return t("{name} moved the cart {steps} to location {to}.", q);
}

function goodsTaken(p, name) {
  const what = [p.kegs && kegs(p.kegs), p.bales && bales(p.bales)].filter(Boolean);
  const q = { name, what: what.length === 2 ? t("{kegs} and "
    + "{bales}", { kegs: what[0], bales: what[1] }) : what[0] || t("nothing"),
    space: p.space };
  return p.space >= 0 ? t("{name} took {what} from space {space}.", q) : t("{name} took {what}.", q);
}

// why a gain came (the engine's reasons: "shed NE", "starting space ducats", "hops activated", "fertility 3 activated")
function reasonWords(reason) {
  const r = String(reason);
  let m;
  if ((m = r.match(/^starting space (.+)$/))) return t("starting space {slot}", { slot: slotTitle(m[1]) });
  if ((m = r.match(/^privilege (.+)$/))) return t("privilege card {card}", { card: cardName(m[1]) });
  if ((m = r.match(/^shed (\S+) activation$/))) return t("tiles around shed {shed}", { shed: m[1] });
  if ((m = r.match(/^shed (\S+)$/))) return t("shed {shed}", { shed: m[1] });
  if ((m = r.match(/^fertility (\d+) activated$/))) return t("fertility {n} activated", { n: m[1] });
  if ((m = r.match(/^(\S+) monks triggered$/))) return t("{spot} monks triggered", { spot: spotName(m[1]) });
  if ((m = r.match(/^(\S+) activated$/))) return t("{resource} activated", { resource: resourceName(m[1]) });
  return r;
}

function rewards(p, name) {
  const markers = Object.fromEntries(Object.keys(RES_COLOUR).map((c, k) => [c, p.markers[k]]).filter(([, n]) => n));
  const gain = gainText({ ducats: p.ducats, brewmaster: p.brewmaster, markers });
  return t("{name} gained {gain} ({reason}).", { name, gain,
    reason: reasonWords(p.reason) });
}

// Move-log sentences for this game's events (the frame's wording otherwise).
export function describe(event, { seats } = {}) {
  const p = event.payload || event;
  const who = (s) => seatName(seats, s);
  const name = Number.isInteger(p.seat) ? who(p.seat) : "";
  switch (event.type) {
    case "FigureMoved": return t("{name} moved to space {space}.", { name, space: p.space });
    case "TileBought": return t("{name} bought {tile} for {cost} ducats and placed it on "
      + "{spot}.", { name, tile: tileWords(p.tile), cost: p.cost,
      spot: p.spot });
    case "DiscTaken": return p.number ? t("{name} put a disc on {spot} naming "
      + "{number}.", { name, spot: spotName(p.spot), number: p.number })
      : t("{name} put a disc on {spot}.", { name, spot: spotName(p.spot) });
    case "ShedBuilt": return t("{name} built shed {shed} (type {type}).", { name, shed: p.shed, type: p.shed_type });
    case "StartingSpaceTaken": return t("{name} took the starting space “{slot}”.", { name, slot: slotTitle(p.slot) });
    case "BarrelsClaimed": return tn("{name} claimed one barrel.", "{name} claimed {n} "
      + "barrels.", p.large.length + p.small.length,
      { name });
    case "CartMoved": return cartMoved(p, name);
    case "StepBegan": return p.shed ? t("{name}: {step} (shed {shed}).", { name, step: stepName(p.step), shed: p.shed })
      : t("{name}: {step}.", { name, step: stepName(p.step) });
    case "RewardsGained": return rewards(p, name);
    case "CarterDiePlaced": return t("The carter die shows {value} on space "
      + "{space}.", { value: p.value, space: p.space });
    case "GoodsTaken": return goodsTaken(p, name);
    case "GoodsAdded": return t("Kegs on spaces {kegs}; bales on {bales}.", { kegs: p.kegs.join(", "
      + ""), bales: p.bales.join(", ") });
    case "TrackStocked": return t("Round {n}: tiles and monks drawn onto the track, discs set.", { n: p.round });
    case "ActionSkipped": return t("{name} passed ({step}).", { name, step: stepName(p.step) });
    case "GameSetUp": {
      const q = { players: tn("one player", "{n} players", p.players), rounds: tn("one round", "{n} rounds", p.rounds),
        name: who(p.start_player) };
      return p.kegs_and_more ? t("The monasteries open: {players}, {rounds}, with Kegs & More; {name} starts.", q)
        : t("The monasteries open: {players}, {rounds}; {name} starts.", q);
    }
    case "RoundBegan": return t("Round {n} begins.", { n: p.round });
    case "TurnBegan": return t("{name}'s turn.", { name });
    case "TurnEnded": return t("{name} ended the turn.", { name });
    case "ShedsEnclosed": return p.sheds.length === 1 ? t("{name} enclosed shed {shed}: it is resolved "
      + "now.", { name, shed: p.sheds[0] })
      : t("{name} enclosed sheds {sheds}: they are resolved in that order.", { name, sheds: p.sheds.join(", ") });
    case "ShedTilesActivated": return p.spots.length
      ? t("{name} activated {spots} around shed {shed}.", { name, spots: p.spots.join(", "), shed: p.shed })
      : t("{name} activated no tile around shed {shed}.", { name, shed: p.shed });
    case "PrivilegePlaced": return p.colour
      ? t("{name} placed the “{card}” privilege card ({colour}) on pair "
        + "{pair}.", { name, card: cardName(p.card), colour: resourceName(p.colour),
        pair: p.pair })
      : t("{name} placed the “{card}” privilege card on pair {pair}.", { name, card: cardName(p.card), pair: p.pair });
    case "PrivilegeDeclined": return t("{name} placed no privilege card on pair {pair}.", { name, pair: p.pair });
    case "EmergencyCoinUsed": return t("{name} returned the “{card}” privilege card for {ducats} "
      + "ducats.", { name, card: cardName(p.card),
      ducats: p.ducats });
    case "StorageTilePlaced": return t("{name} put the {tile} storage tile on shed "
      + "{shed}.", { name, tile: storageShort(p.tile),
      shed: p.shed });
    case "StorageTileUsed": {
      const q = { name, tile: storageShort(p.tile), shed: p.shed, area: p.area };
      if (p.side === "back") {
        return p.area != null ? t("{name} flipped the {tile} storage tile of shed {shed} (keg area {area}).", q)
          : t("{name} flipped the {tile} storage tile of shed {shed}.", q);
      }
      return p.area != null ? t("{name} used the {tile} storage tile of shed {shed} (keg area {area}).", q)
        : t("{name} used the {tile} storage tile of shed {shed}.", q);
    }
    case "GameEnded": return t("The last round is over.");
    default: return null;
  }
}

// -- the Kegs & More choices' button texts (markup: the name in bold, the effect below) ---------------------------
/** What a storage tile does, from the description. */
export function storageWords(desc, tile) {
  return desc.kegs_and_more?.storage_tiles.find((x) => x.tile === tile)?.text || tile;
}

/** A ResolveStorageTile command's button for the pending shed's ``tile``. */
export function resolveWords(desc, tile, c) {
  const gain = (text) => `<span class="ha-gain">${esc(text)}</span>`;
  if (c.side === "back") {
    const flip = esc(t("Flip {tile} to its back", { tile: storageShort(tile) }));
    return `${flip}${gain(desc.kegs_and_more.storage_tile_back)}`;
  }
  let what = storageWords(desc, tile);
  if (c.keg || c.bale) {
    const goods = [c.keg && kegs(1), c.bale && bales(1)].filter(Boolean).join(" + ");
    what = c.rental === "keg" ? t("{goods} (the keg on the rental spot)", { goods })
      : c.rental ? t("{goods} (the bale on the rental spot)", { goods }) : goods;
  }
  if (c.area) what = t("keg area {area} scores {n} per keg", { area: c.area, n: tile.replace("points", "") });
  if (tile?.startsWith("move")) {
    const q = { n: tile.replace("move", ""), kegs: kegs(c.load) };
    what = c.load ? t("move the cart {n}, loading {kegs}", q) : t("move the cart {n}", q);
  }
  const use = esc(t("Use {tile}", { tile: "\u0000" })).replace("\u0000", `<b>${esc(storageShort(tile))}</b>`);
  return `${use}${gain(what)}`;
}

/** A TakeGoods command's button. */
export function goodsWords(desc, c) {
  const parts = [c.kegs && kegs(c.kegs), c.bales && bales(c.bales)].filter(Boolean).join(" + ");
  const q = { n: desc.kegs_and_more.storage.rental_cost };
  const rental = c.rental === "keg" ? t("the keg on the rental spot ({n} ducats)", q) : t("the bale on the rental "
    + "spot ({n} ducats)", q);
  return `${esc(t("Take {goods}", { goods: parts }))}${c.rental ? `<span class="ha-gain">${esc(rental)}</span>` : ""}`;
}
