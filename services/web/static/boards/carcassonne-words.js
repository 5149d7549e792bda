// Carcassonne in words: where a tile lies (seen from the start tile, as players say it), what a tile shows,
// what a figure on a feature is called and what placing it does now, and each event as a sentence.
// Only the view, the legal commands and the engine's description are read; no rule is re-implemented.

const COUNT = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"];
const count = (n) => COUNT[n] || String(n);
const plural = (n, noun, nouns = `${noun}s`) => `${count(n)} ${n === 1 ? noun : nouns}`;

/** Where (x, y) lies, from the start tile at (0, 0), north up: "two north and one west of the start tile". */
export function placeWords(x, y) {
  if (x === 0 && y === 0) return "on the start tile";
  const ns = y > 0 ? "north" : "south";
  const ew = x > 0 ? "east" : "west";
  if (x === 0 || y === 0) {
    const [n, way] = x === 0 ? [Math.abs(y), ns] : [Math.abs(x), ew];
    return n === 1 ? `just ${way} of the start tile` : `${count(n)} tiles ${way} of the start tile`;
  }
  if (Math.abs(x) === 1 && Math.abs(y) === 1) return `diagonally ${ns}-${ew} of the start tile`;
  return `${count(Math.abs(y))} ${ns} and ${count(Math.abs(x))} ${ew} of the start tile`;
}

/** The kind of a feature from its engine id: c0 city, r0 road, f0 field, m monastery, g garden. */
export function kindOfFeature(id) {
  return { c: "city", r: "road", f: "field", m: "monastery", g: "garden" }[String(id)[0]] || "feature";
}

/** What a follower is called on each kind of feature (the rulebook's knight, thief, monk, farmer). */
export const ROLE = { city: "knight", road: "thief", monastery: "monk", field: "farmer", garden: "abbot" };
const WHERE = { city: "in the city", road: "on the road", monastery: "in the monastery", field: "in the field",
  garden: "in the garden" };

/** A tile in plain words from its features: "a tile with a city and a road", "a monastery tile". */
export function tileWords(tile) {
  if (!tile) return "a tile";
  const n = (kind) => tile.features.filter((f) => f.kind === kind).length;
  const parts = [];
  const cities = n("city");
  const roads = n("road");
  if (n("monastery")) parts.push("a monastery");
  if (cities) parts.push(cities === 1 ? "a city" : plural(cities, "city", "cities"));
  if (roads >= 3) parts.push("a crossroads");
  else if (roads) parts.push(roads === 1 ? "a road" : "two roads");
  if (tile.river && tile.river.length) parts.push("the river");
  if (n("garden")) parts.push("a garden");
  if (tile.hill) parts.push("a hill");
  if (tile.vineyard) parts.push("a vineyard");
  if (!parts.length) return "a field tile";
  const list = parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(", ")} and ${parts[parts.length - 1]}`;
  return `a tile with ${list}`;
}

/** The view's entry for the feature at (x, y, id), if the view lists it (occupied, or on the newest tile). */
export function featureAt(view, x, y, id) {
  return (view.features || []).find((f) => f.parts.some((p) => p[0] === x && p[1] === y && p[2] === id)) || null;
}

/** "a city of three tiles, completed" — one feature entry of the view, for a tooltip or the prompt. */
export function featureWords(entry) {
  if (!entry) return "";
  if (entry.kind === "field") return "a field";
  if (entry.kind === "monastery" || entry.kind === "garden") return `a ${entry.kind}${entry.complete ? ", surrounded" : ""}`;
  return `${entry.kind === "city" ? "a city" : "a road"} of ${plural(entry.tiles, "tile")}${entry.complete ? ", completed" : ""}`;
}

/**
 * What placing ``figure`` on a feature of the new tile does now, e.g. "city — place a knight here: completes
 * it, 8 points at once". ``entry`` is the view's feature there (the new tile's features are always listed).
 */
export function spotWords(figure, kind, entry) {
  const role = figure === "follower" ? ROLE[kind] || "follower" : figure;
  const head = `${kind} — place ${figure === "follower" ? "a" : "your"} ${role} here`;
  if (figure === "shepherd") return `${head}: a sheep token comes out of the bag at once (or the wolf)`;
  if (!entry) return head;
  if (entry.complete && kind !== "field") {
    return `${head}: ${featureWords(entry)}, it scores ${plural(entry.points, "point")} at once and the ${role} comes back`;
  }
  const now = kind === "field" ? "at the end of the game" : "if the game ended now";
  return `${head}: ${featureWords(entry)}, ${plural(entry.points, "point")} ${now}`;
}

const names = (seats, nameOf) => {
  const all = seats.map(nameOf);
  return all.length <= 1 ? all.join("") : `${all.slice(0, -1).join(", ")} and ${all[all.length - 1]}`;
};

function scored(e, nameOf) {
  const what = e.kind === "field" ? "field" : `${e.completed ? "completed " : ""}${e.kind}`;
  const size = ["city", "road"].includes(e.kind) ? ` of ${plural(e.tiles, "tile")}` : "";
  if (!e.winners.length) return `The ${what}${size} scored for no one`;
  const who = names(e.winners, nameOf);
  if (!e.points) {
    return e.kind === "field" ? `${who}: the field touches no completed city, no points` : `${who}: the ${what}${size}, no points`;
  }
  const each = e.winners.length > 1 ? " each" : "";
  return `${who} scored ${plural(e.points, "point")}${each} for the ${what}${size}`;
}

function placedFigure(e, nameOf, figure) {
  const kind = kindOfFeature(e.feature);
  const role = figure === "follower" ? ROLE[kind] || "follower" : figure;
  const article = figure === "follower" ? "a" : "the";
  return `${nameOf(e.seat)} put ${article} ${role} ${WHERE[kind] || ""} ${placeWords(e.x, e.y)}`.replace(/ +/g, " ");
}

/** One sentence for a Carcassonne event; ``tiles`` is the description's tile table when it is known. */
export function eventWords(e, nameOf, tiles) {
  switch (e.type) {
    case "TileDrawn": return `${nameOf(e.seat)} drew ${e.tile && tiles?.[e.tile] ? tileWords(tiles[e.tile]) : "a tile"}`;
    case "TilePlaced": return `${nameOf(e.seat)} placed ${tileWords(tiles?.[e.tile])} ${placeWords(e.x, e.y)}`;
    case "FollowerPlaced": return placedFigure(e, nameOf, "follower");
    case "ShepherdPlaced": return placedFigure(e, nameOf, "shepherd");
    case "AbbotPlaced": return placedFigure(e, nameOf, "abbot");
    case "FigureSkipped": return `${nameOf(e.seat)} placed no figure`;
    case "FeatureScored": return scored(e, nameOf);
    case "FlockGathered": return `${names(e.seats, nameOf)} gathered the flock: ${plural(e.points, "point")}${e.seats.length > 1 ? " each" : ""}`;
    case "FlockScattered": return `A wolf! ${names(e.seats, nameOf)}'s flock is scattered, no points`;
    case "AbbotRecalled": return `${nameOf(e.seat)} called the abbot home from the ${e.kind}: ${plural(e.points, "point")}`;
    case "TokenDrawn": return e.token ? `${nameOf(e.seat)}'s flock grew by ${plural(e.token, "sheep", "sheep")}` : `${nameOf(e.seat)} drew the wolf`;
    case "TileDiscarded": return `${tileWords(tiles?.[e.tile])} fitted nowhere and was put aside`.replace(/^a /, "A ");
    case "TileBuried": return `${nameOf(e.seat)}'s hill hides a tile from the stack`;
    case "GameEnded": return "Game over";
    case "GameStarted": {
      const extras = [e.river && "the River", e.hills_and_sheep && "Hills & Sheep", e.abbot && "the Abbot"].filter(Boolean);
      return `The game is set for ${count(e.players)} players${extras.length ? `, with ${extras.join(", ")}` : ""}`;
    }
    case "FlockFieldExtended": return `${nameOf(e.seat)}'s tile made the shepherd's field bigger: grow the flock or gather it`;
    default: return null;
  }
}

/**
 * What a placement completes, from the view's ``completions`` (the server works it out with the engine):
 * "completes a city of two tiles: 4 points for Ben". ``me`` is the player's seat.
 */
export function completionWords(completes, nameOf, me) {
  return completes.map((c) => {
    const what = `completes ${featureWords({ ...c, complete: false })}`;
    const points = plural(c.points, "point");
    if (!c.winners.length) return `${what}: a ${ROLE[c.kind] || "follower"} placed on it now scores ${points}`;
    const who = c.winners.map((s) => (s === me ? "you" : nameOf(s)));
    const list = who.length === 1 ? who[0] : `${who.slice(0, -1).join(", ")} and ${who[who.length - 1]}`;
    return `${what}: ${points}${who.length > 1 ? " each" : ""} for ${list}`;
  }).join("; ");
}
