// The Taverns of Tiefenthal in words: bonuses and gains as the board and its tips say them, and the move log's
// sentences (the card, tile and phase names learnt from the engine's description once a board has loaded it).

export const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
export const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
export const diceText = (dice) => (dice.length === 6 ? "any die" : dice.join(" / "));

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

export function gainText(g) {
  const parts = [];
  if (g.doubloons) parts.push(`+${g.doubloons}¢`);
  if (g.beer) parts.push(`+${g.beer} beer`);
  if (g.monastery) parts.push(`+${plural(g.monastery, "step")}`);
  return parts.join(" ") || "nothing";
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
