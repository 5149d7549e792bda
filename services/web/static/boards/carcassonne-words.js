// Carcassonne in words: where a tile lies (seen from the start tile, as players say it), what a tile shows,
// what a figure on a feature is called and what placing it does now, and each event as a sentence.
// Only the view, the legal commands and the engine's description are read; no rule is re-implemented.
// Every sentence is one catalog entry (static/i18n/<locale>/carcassonne.json) with placeholders; the German
// terms follow domain/carcassonne/GLOSSARY.md.
import { t, tn } from "../js/i18n.js";

// "two", "three", …: counts in words, as the English and German rulebooks write small numbers
const COUNT = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"];
const COUNT_WORD = {
  no: () => t("no"), one: () => t("one"), two: () => t("two"), three: () => t("three"), four: () => t("four"),
  five: () => t("five"), six: () => t("six"), seven: () => t("seven"), eight: () => t("eight"),
  nine: () => t("nine"), ten: () => t("ten"), eleven: () => t("eleven"), twelve: () => t("twelve"),
};
export const count = (n) => (COUNT[n] ? COUNT_WORD[COUNT[n]]() : String(n));

const points = (n) => tn("one point", "{count} points", n, { count: count(n) });
const tilesOf = (n) => tn("one tile", "{count} tiles", n, { count: count(n) });
const sheep = (n) => tn("one sheep", "{count} sheep", n, { count: count(n) });

/** "A, B and C" in the page's language. */
export function listWords(items) {
  if (items.length <= 1) return items.join("");
  return t("{first} and {last}", { first: items.slice(0, -1).join(", "), last: items[items.length - 1] });
}

/** Where (x, y) lies, from the start tile at (0, 0), north up: "two north and one west of the start tile". */
export function placeWords(x, y) {
  if (x === 0 && y === 0) return t("on the start tile");
  const dx = Math.abs(x);
  const dy = Math.abs(y);
  if (x === 0 || y === 0) {
    const n = x === 0 ? dy : dx;
    const way = x === 0 ? (y > 0 ? "north" : "south") : (x > 0 ? "east" : "west");
    const just = { north: () => t("just north of the start tile"), south: () => t("just south of the start tile"),
      east: () => t("just east of the start tile"), west: () => t("just west of the start tile") };
    const far = { north: () => t("{count} tiles north of the start tile", { count: count(n) }),
      south: () => t("{count} tiles south of the start tile", { count: count(n) }),
      east: () => t("{count} tiles east of the start tile", { count: count(n) }),
      west: () => t("{count} tiles west of the start tile", { count: count(n) }) };
    return n === 1 ? just[way]() : far[way]();
  }
  const corner = `${y > 0 ? "n" : "s"}${x > 0 ? "e" : "w"}`;
  if (dx === 1 && dy === 1) {
    return {
      ne: () => t("diagonally north-east of the start tile"), nw: () => t("diagonally north-west of the start tile"),
      se: () => t("diagonally south-east of the start tile"), sw: () => t("diagonally south-west of the start tile"),
    }[corner]();
  }
  const p = { ns: count(dy), ew: count(dx) };
  return {
    ne: () => t("{ns} north and {ew} east of the start tile", p),
    nw: () => t("{ns} north and {ew} west of the start tile", p),
    se: () => t("{ns} south and {ew} east of the start tile", p),
    sw: () => t("{ns} south and {ew} west of the start tile", p),
  }[corner]();
}

/** The kind of a feature from its engine id: c0 city, r0 road, f0 field, m monastery, g garden. */
export function kindOfFeature(id) {
  return { c: "city", r: "road", f: "field", m: "monastery", g: "garden" }[String(id)[0]] || "feature";
}

/** What a follower is called on each kind of feature (the rulebook's knight, thief, monk, farmer). */
export const ROLE = { city: "knight", road: "thief", monastery: "monk", field: "farmer", garden: "abbot" };

/** A figure's name, capitalised for a button or a tip head ("Knight", "Shepherd"). */
export function figureName(role) {
  return {
    knight: () => t("Knight"), thief: () => t("Thief"), monk: () => t("Monk"), farmer: () => t("Farmer"),
    abbot: () => t("Abbot"), shepherd: () => t("Shepherd"), follower: () => t("Follower"),
  }[role]?.() ?? role;
}

/** A figure's name inside a sentence ("a knight placed on it"). */
export function roleName(role) {
  return {
    knight: () => t("knight"), thief: () => t("thief"), monk: () => t("monk"), farmer: () => t("farmer"),
    abbot: () => t("abbot"), shepherd: () => t("shepherd"), follower: () => t("follower"),
  }[role]?.() ?? role;
}

/** The kind of a feature as a noun ("city", "road"), for lists and screen-reader lines. */
export function kindName(kind) {
  return {
    city: () => t("city"), road: () => t("road"), field: () => t("field"), monastery: () => t("monastery"),
    garden: () => t("garden"), feature: () => t("feature"),
  }[kind]?.() ?? kind;
}

/** A tile in plain words from its features: "a tile with a city and a road", "a field tile". */
export function tileWords(tile) {
  if (!tile) return t("a tile");
  const n = (kind) => tile.features.filter((f) => f.kind === kind).length;
  const parts = [];
  const cities = n("city");
  const roads = n("road");
  if (n("monastery")) parts.push(t("a monastery"));
  if (cities) parts.push(cities === 1 ? t("a city") : t("{count} cities", { count: count(cities) }));
  if (roads >= 3) parts.push(t("a crossroads"));
  else if (roads) parts.push(roads === 1 ? t("a road") : t("two roads"));
  if (tile.river && tile.river.length) parts.push(t("the river"));
  if (n("garden")) parts.push(t("a garden"));
  if (tile.hill) parts.push(t("a hill"));
  if (tile.vineyard) parts.push(t("a vineyard"));
  if (!parts.length) return t("a field tile");
  return t("a tile with {things}", { things: listWords(parts) });
}

/** The view's entry for the feature at (x, y, id), if the view lists it (occupied, or on the newest tile). */
export function featureAt(view, x, y, id) {
  return (view.features || []).find((f) => f.parts.some((p) => p[0] === x && p[1] === y && p[2] === id)) || null;
}

/** "a city of three tiles, completed" — one feature entry of the view, for a tooltip or the prompt. */
export function featureWords(entry) {
  if (!entry) return "";
  if (entry.kind === "field") return t("a field");
  if (entry.kind === "monastery") return entry.complete ? t("a monastery, surrounded") : t("a monastery");
  if (entry.kind === "garden") return entry.complete ? t("a garden, surrounded") : t("a garden");
  const p = { tiles: tilesOf(entry.tiles) };
  if (entry.kind === "city") return entry.complete ? t("a city of {tiles}, completed", p) : t("a city of {tiles}", p);
  return entry.complete ? t("a road of {tiles}, completed", p) : t("a road of {tiles}", p);
}

// "city — place a knight here": the head of a figure spot's tip, by feature and figure
function spotHead(figure, kind) {
  if (figure === "shepherd") return t("field — place your shepherd here");
  if (figure === "abbot") return kind === "garden" ? t("garden — place your abbot here")
    : t("monastery — place your abbot here");
  return {
    city: () => t("city — place a knight here"), road: () => t("road — place a thief here"),
    monastery: () => t("monastery — place a monk here"), field: () => t("field — place a farmer here"),
  }[kind]?.() ?? t("place a follower here");
}

// "the knight comes back": who returns once a completed feature scores
function roleReturns(role) {
  return {
    knight: () => t("the knight comes back"), thief: () => t("the thief comes back"),
    monk: () => t("the monk comes back"), abbot: () => t("the abbot comes back"),
  }[role]?.() ?? t("the follower comes back");
}

/**
 * What placing ``figure`` on a feature of the new tile does now, e.g. "city — place a knight here: completes
 * it, 8 points at once". ``entry`` is the view's feature there (the new tile's features are always listed).
 */
export function spotWords(figure, kind, entry) {
  const role = figure === "follower" ? ROLE[kind] || "follower" : figure;
  const head = spotHead(figure, kind);
  if (figure === "shepherd") return t("{head}: a sheep token comes out of the bag at once (or the wolf)", { head });
  if (!entry) return head;
  const p = { head, feature: featureWords(entry), points: points(entry.points) };
  if (entry.complete && kind !== "field") {
    return t("{head}: {feature}, it scores {points} at once and {returns}", { ...p, returns: roleReturns(role) });
  }
  return kind === "field" ? t("{head}: {feature}, {points} at the end of the game", p)
    : t("{head}: {feature}, {points} if the game ended now", p);
}

const names = (seats, nameOf) => listWords(seats.map(nameOf));
const capital = (text) => (text ? text[0].toUpperCase() + text.slice(1) : text);

// "the completed city of three tiles": what a scoring was for
function scoredWhat(e) {
  const p = { tiles: tilesOf(e.tiles) };
  switch (e.kind) {
    case "city": return e.completed ? t("the completed city of {tiles}", p) : t("the city of {tiles}", p);
    case "road": return e.completed ? t("the completed road of {tiles}", p) : t("the road of {tiles}", p);
    case "monastery": return e.completed ? t("the completed monastery") : t("the monastery");
    case "garden": return e.completed ? t("the completed garden") : t("the garden");
    default: return t("the field");
  }
}

function scored(e, nameOf) {
  const what = scoredWhat(e);
  if (!e.winners.length) return capital(t("{what} scored for no one", { what }));
  const who = names(e.winners, nameOf);
  if (!e.points) {
    return e.kind === "field" ? t("{who}: the field touches no completed city, no points", { who })
      : t("{who}: {what}, no points", { who, what });
  }
  const p = { who, what, points: points(e.points) };
  return e.winners.length > 1 ? t("{who} scored {points} each for {what}", p) : t("{who} scored {points} for "
    + "{what}", p);
}

function placedFigure(e, nameOf, figure) {
  const kind = kindOfFeature(e.feature);
  const p = { name: nameOf(e.seat), place: placeWords(e.x, e.y) };
  if (figure === "shepherd") return t("{name} put the shepherd in the field {place}", p);
  if (figure === "abbot") {
    return kind === "garden" ? t("{name} put the abbot in the garden {place}", p)
      : t("{name} put the abbot in the monastery {place}", p);
  }
  return {
    city: () => t("{name} put a knight in the city {place}", p),
    road: () => t("{name} put a thief on the road {place}", p),
    monastery: () => t("{name} put a monk in the monastery {place}", p),
    field: () => t("{name} put a farmer in the field {place}", p),
  }[kind]?.() ?? t("{name} put a follower {place}", p);
}

function gameSet(e) {
  const extras = [e.river && t("the River"), e.hills_and_sheep && t("Hills & Sheep"), e.abbot && t("the Abbot")]
    .filter(Boolean);
  const players = count(e.players);
  return extras.length ? t("The game is set for {players} players, with "
    + "{extras}", { players, extras: extras.join(", ") })
    : t("The game is set for {players} players", { players });
}

/** One sentence for a Carcassonne event; ``tiles`` is the description's tile table when it is known. */
export function eventWords(e, nameOf, tiles) {
  const name = Number.isInteger(e.seat) ? nameOf(e.seat) : "";
  switch (e.type) {
    case "TileDrawn": return t("{name} drew "
      + "{tile}", { name, tile: e.tile && tiles?.[e.tile] ? tileWords(tiles[e.tile]) : t("a tile") });
    case "TilePlaced": return t("{name} placed {tile} "
      + "{place}", { name, tile: tileWords(tiles?.[e.tile]), place: placeWords(e.x, e.y) });
    case "FollowerPlaced": return placedFigure(e, nameOf, "follower");
    case "ShepherdPlaced": return placedFigure(e, nameOf, "shepherd");
    case "AbbotPlaced": return placedFigure(e, nameOf, "abbot");
    case "FigureSkipped": return t("{name} placed no figure", { name });
    case "FeatureScored": return scored(e, nameOf);
    case "FlockGathered": {
      const p = { who: names(e.seats, nameOf), points: points(e.points) };
      return e.seats.length > 1 ? t("{who} gathered the flock: {points} each", p) : t("{who} gathered the flock: "
        + "{points}", p);
    }
    case "FlockScattered": return t("A wolf! {who}'s flock is scattered, no points", { who: names(e.seats, nameOf) });
    case "AbbotRecalled": {
      const p = { name, points: points(e.points) };
      return e.kind === "garden" ? t("{name} called the abbot home from the garden: {points}", p)
        : t("{name} called the abbot home from the monastery: {points}", p);
    }
    case "TokenDrawn": return e.token ? t("{name}'s flock grew by {sheep}", { name, sheep: sheep(e.token) })
      : t("{name} drew the wolf", { name });
    case "TileDiscarded": {
      const tile = tileWords(tiles?.[e.tile]);
      return capital(t("{tile} fitted nowhere and was put aside", { tile }));
    }
    case "TileBuried": return t("{name}'s hill hides a tile from the stack", { name });
    case "GameEnded": return t("Game over");
    case "GameStarted": return gameSet(e);
    case "FlockFieldExtended": return t("{name}'s tile made the shepherd's field bigger: grow the flock or gather "
      + "it", { name });
    default: return null;
  }
}

/**
 * What a placement completes, from the view's ``completions`` (the server works it out with the engine):
 * "completes a city of two tiles: 4 points for Ben". ``me`` is the player's seat.
 */
export function completionWords(completes, nameOf, me) {
  return completes.map((c) => {
    const p = { feature: featureWords({ ...c, complete: false }), points: points(c.points) };
    if (!c.winners.length) {
      const role = roleName(ROLE[c.kind] || "follower");
      return t("completes {feature}: a {role} placed on it now scores {points}", { ...p, role });
    }
    const who = listWords(c.winners.map((s) => (s === me ? t("you") : nameOf(s))));
    return c.winners.length > 1 ? t("completes {feature}: {points} each for {who}", { ...p, who })
      : t("completes {feature}: {points} for {who}", { ...p, who });
  }).join("; ");
}
