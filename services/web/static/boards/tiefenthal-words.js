// The Taverns of Tiefenthal in words: bonuses and gains as the board and its tips say them, and the move log's
// sentences (the card, tile and phase names learnt from the engine's description once a board has loaded it).
// Every sentence is one catalog entry (static/i18n/<locale>/tiefenthal.json); terms: domain/tiefenthal/GLOSSARY.md.
import { t, tn } from "../js/i18n.js";
import { seatName } from "../js/words.js";
import { localise } from "./localise.js";

export const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;",
  "'": "&#39;" })[c]);
export const diceText = (dice) => (dice.length === 6 ? t("any die") : dice.join(" / "));
/** The description's words (names, labels, units, effects) in the page's language. */
export const localDescription = (d) => localise(d, ["name", "label", "unit", "effect", "card_names"]);
/** A card's name as the view gives it (English from the engine), in the page's language. */
export const cardName = (name) => t(name);

const doubloons = (n) => tn("one doubloon", "{n} doubloons", n);
const beer = (n) => tn("one beer", "{n} beer", n);

// A bonus spec (data.py's small dicts) in words.
export function bonusText(b, cardNames = {}, tileLabels = {}) {
  if (!b) return "";
  switch (b.kind) {
    case "card": return t("{card} card", { card: cardNames[b.card] || b.card });
    case "noble": return t("a noble");
    case "counter_guest": return t("a counter guest");
    case "monastery": return tn("one monastery step", "{n} monastery steps", b.steps);
    case "doubloons": return doubloons(b.n);
    case "beer": return beer(b.n);
    case "upgrade": return t("a free upgrade");
    case "upgrade_tile": return t("upgrade the {tile}", { tile: tileLabels[b.tile] || b.tile });
    case "choice": return b.options.map((o) => bonusText(o, cardNames, tileLabels)).join(` ${t("or")} `);
    case "none": return t("nothing");
    default: return b.kind;
  }
}

export function gainText(g) {
  const parts = [];
  if (g.doubloons) parts.push(`+${g.doubloons}¢`);
  if (g.beer) parts.push(t("+{n} beer", { n: g.beer }));
  if (g.monastery) parts.push(tn("+one step", "+{n} steps", g.monastery));
  return parts.join(" ") || t("nothing");
}

// The names the move log uses, from the engine's description once a board has loaded it (until then the
// sentences say "a card" and the raw ids of tiles and phases).
export let words = { cards: [], types: {}, tiles: {}, phases: {} };
let wordsLearned;
/** Resolves once a mounted board has loaded the description: the frame words the move log again then. */
export const wordsReady = new Promise((resolve) => { wordsLearned = resolve; });

export function learnWords(d) {
  words = {
    cards: d.card_names || [],
    types: Object.fromEntries(d.tavern_cards.map((c) => [c.type, c.name])),
    tiles: Object.fromEntries(d.tavern.tiles.map((x) => [x.id, x.label])),
    phases: Object.fromEntries(d.phases.map((x) => [x.id, x.label])),
  };
  wordsLearned();
}

const cardWord = (id) => (Number.isInteger(id) && words.cards[id]) || t("a card"); // "hidden" too: a card
const listWords = (ids) => (ids.length ? ids.map(cardWord).join(", ") : t("no card"));
// why a bonus came (flow.grant's reasons: "round 3", "monastery 7", "guest 82", "upgrade cashbox", "choice", ...)
function reasonWords(reason) {
  const [what, arg] = String(reason).split(" ", 2);
  switch (what) {
    case "round": return t("round {n} bonus", { n: arg });
    case "monastery": return t("monastery space {n}", { n: arg });
    case "guest": return t("serving {card}", { card: cardWord(Number(arg)) });
    case "upgrade": return t("upgrading the {tile}", { tile: words.tiles[arg] || arg });
    case "choice": return t("choice");
    default: return String(reason).replaceAll("_", " ");
  }
}
// an action space: a tavern tile ("Cashbox") or a table ("table 3"; the description's prefix is "table:")
const spaceWord = (space) => (String(space).startsWith("table:") ? t("table {n}", { n: Number(space.slice(6)) + 1 })
  : words.tiles[space] || space);
function money(d, b) {
  if (d && b) return t("{doubloons} and {beer}", { doubloons: `${d}¢`, beer: beer(b) });
  return d ? `${d}¢` : b ? beer(b) : "";
}

function turnStarted(p, name) {
  const brought = money(p.from_safe, p.from_storage);
  const q = { name, brought, merchant: p.merchant_beer };
  if (brought && p.merchant_beer) return t("{name}'s turn, with {brought} kept from last round and {merchant} beer "
    + "from the merchant.", q);
  if (brought) return t("{name}'s turn, with {brought} kept from last round.", q);
  if (p.merchant_beer) return t("{name}'s turn and {merchant} beer from the merchant.", q);
  return t("{name}'s turn.", q);
}

function turnEnded(p, name) {
  const q = { name, kept: money(p.stored_doubloons, p.stored_beer), lost: money(p.lost_doubloons, p.lost_beer) };
  if (q.kept && q.lost) return t("{name} ended the turn, keeping {kept} and losing {lost}.", q);
  if (q.kept) return t("{name} ended the turn, keeping {kept}.", q);
  if (q.lost) return t("{name} ended the turn, losing {lost}.", q);
  return t("{name} ended the turn.", q);
}

function dieTaken(p, name) {
  const q = { name, space: spaceWord(p.space), doubloons: p.doubloons, beer: p.beer };
  if (p.doubloons && p.beer) return t("{name} took a die from {space}: +{doubloons}¢, +{beer} beer.", q);
  if (p.doubloons) return t("{name} took a die from {space}: +{doubloons}¢.", q);
  if (p.beer) return t("{name} took a die from {space}: +{beer} beer.", q);
  return t("{name} took a die from {space}.", q);
}

// Move-log sentences for this game's events (the frame's wording otherwise).
export function describe(event, { seats } = {}) {
  const p = event.payload || event;
  const who = (s) => seatName(seats, s);
  const name = Number.isInteger(p.seat) ? who(p.seat) : "";
  switch (event.type) {
    case "GameSetUp": return t("The taverns open: {players}, {rounds}; {name} starts.", {
      players: tn("one player", "{n} players", p.players), rounds: tn("one round", "{n} rounds", p.rounds),
      name: who(p.start_player) });
    case "RoundStarted": return t("Round {n} begins.", { n: p.round });
    case "PhaseStarted": return words.phases[p.phase] ? t("Phase {phase}: "
      + "{label}.", { phase: p.phase, label: words.phases[p.phase] })
      : t("Phase {phase}.", { phase: p.phase });
    case "ChoiceOffered": return t("{name} chooses a bonus ({reason}).", { name, reason: reasonWords(p.reason) });
    case "BonusChosen": return t("{name} chose "
      + "{bonus}.", { name, bonus: bonusText(p.option, words.types, words.tiles) });
    case "CardGained": return t("{name} gained {card} "
      + "({reason}).", { name, card: cardWord(p.card), reason: reasonWords(p.reason) });
    case "CounterGuestGained": return t("{name} gained a counter guest.", { name });
    case "CounterGuestUsed": return t("{name} spent a counter guest.", { name });
    case "MonasteryMoved": return tn("{name} moved one step to monastery space {position}.",
      "{name} moved {n} steps to monastery space {position}.", p.steps, { name, position: p.position });
    case "CurrencyGained": {
      const q = { name, what: money(p.doubloons, p.beer) || t("nothing") };
      return p.stored ? t("{name} gained {what} (kept in storage).", q) : t("{name} gained {what}.", q);
    }
    case "TavernFilled": return t("{name} filled the tavern: {cards}.", { name, cards: listWords(p.cards) });
    case "TavernKept": return t("{name} kept the tavern.", { name });
    case "TavernCleared": return t("{name} cleared the tavern to draw again.", { name });
    case "WaitressDiceRolled": return p.values.length ? t("{name}'s waitress rolled "
      + "{values}.", { name, values: p.values.join(", ") })
      : t("{name}'s waitress rolled no die.", { name });
    case "WhiteDiceRolled": return t("White dice: "
      + "{rolls}.", { rolls: p.values.map((v, s) => `${who(s)} ${v.join(" ")}`).join("; ") });
    case "DiePicked": return t("{name} drafted a die.", { name });
    case "DiePlaced": return p.boost ? t("{name} put a die on {space} (+{boost} "
      + "dishwasher).", { name, space: spaceWord(p.space), boost: p.boost })
      : t("{name} put a die on {space}.", { name, space: spaceWord(p.space) });
    case "PlanningFinished": return t("{name} finished planning.", { name });
    case "TurnStarted": return turnStarted(p, name);
    case "DieTaken": return dieTaken(p, name);
    case "CardBought": return t("{name} bought {card} for {price}¢.", { name, card: cardWord(p.card), price: p.price });
    case "TileUpgraded": return t("{name} upgraded the {tile} for "
      + "{price}¢.", { name, tile: words.tiles[p.tile] || p.tile, price: p.price });
    case "GuestRecruited": return t("{name} recruited {card} for {price} "
      + "beer.", { name, card: cardWord(p.card), price: p.price });
    case "NoblesRecruited": return tn("{name} recruited one noble for {price} beer.", "{name} recruited {n} nobles "
      + "for {price} beer.",
      p.cards.length, { name, price: p.price });
    case "TurnEnded": return turnEnded(p, name);
    case "RoundClosed": return t("Round {n} is over; {name} starts the next.", { n: p.round, name: who(p.next_start) });
    case "GameEnded": return t("The last round is over.");
    default: return null;
  }
}
