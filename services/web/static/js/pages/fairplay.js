// The fair-play policy in plain words (#/fair-play): what a game does to a rating when someone is away, when the
// table ends it early, reliability, provisional ratings and unrated games. The figures come from GET /fair-play.
import { useEffect, useState } from "preact/hooks";
import { html } from "../html.js";
import { errorText, get } from "../api.js";
import { ErrorLine, setTitle } from "../ui.js";
import { formatNumber, t, tx } from "../i18n.js";

// A paragraph's sentence (one msgid) with its emphasis: the translation marks a stressed phrase **like this**,
// so each language puts the stress where its own words fall. `parts` is what tx() returned.
function stressed(parts) {
  return parts.flatMap((part) => (typeof part === "string"
    ? part.split(/\*\*(.+?)\*\*/).map((s, i) => (i % 2 ? html`<strong>${s}</strong>` : s)).filter(Boolean)
    : [part]));
}

export function FairPlayPage() {
  const [f, setFigures] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    setTitle(t("Fair play"));
    get("/fair-play").then(setFigures).catch((err) => setError(errorText(err)));
  }, []);
  const games = f ? f.provisional_games : 10;
  const line = f ? t("{percent}%", { percent: formatNumber(f.early_end_percent) }) : t("half");
  const base = f ? f.display_base : 1000;
  const strong = (value) => html`<strong>${typeof value === "number" ? formatNumber(value) : value}</strong>`;
  return html`<article class="fair-play prose">
    <h1>${t("Fair play")}</h1>
    <${ErrorLine} error=${error} />
    <p>${t("A rating should say how well someone plays, and a seat at a table should be played to the end. These " +
      "are the rules the service keeps for that; they are the same for everybody.")}</p>
    <h2>${t("If you stop playing, you lose")}</h2>
    <p>${stressed(tx("When you miss too many turns, the autopilot takes your seat so the others can go on. If you " +
      "have not taken it back by the end, the game counts as **last place** for you, however well " +
      "the autopilot played. The same goes when the table votes a bot in for you, or when you leave" +
      " a game."))}</p>
    <p>${stressed(tx("The players who stayed are rated **among themselves**, on their own scores, as if the absent" +
      " seat had not been there: nobody gains from an opponent who walked away. In a two-player " +
      "game that leaves one player, so their rating stays as it was."))}</p>
    <h2>${t("A game ended early by vote")}</h2>
    <p>${stressed(tx("When the table votes to end a game because someone is away, and less than {line} of the game" +
      " was played, the players who stayed are **not rated**: an early score says little about who " +
      "would have won. The absent player still counts as last. After that point, the game is rated " +
      "on the scores as they stand.",
      { line: strong(line) }))}</p>
    <h2>${t("Draws")}</h2>
    <p>${t("Players who share a place drew with each other. A shared first place is a draw, not a win for both.")}</p>
    <h2>${t("Reliability")}</h2>
    <p>${t("Your reliability is the share of your finished games that you played to the end yourself: no autopilot " +
      "or bot in your seat at the end, not abandoned. Resigning is an honest way to leave: it costs rating (last " +
      "place), not reliability. A game you are still playing does not count yet. Anyone may create a game that " +
      "admits only players at or above a reliability; a new player with no finished game is admitted.")}</p>
    <h2>${t("Ratings you can read")}</h2>
    <p>${tx("Everybody starts at {base}, and a rating is never below 0. It is marked with a {mark} and the word " +
      "{provisional} until you have played {games} rated games of that game: until then the service is not yet " +
      "sure of your strength and the number moves a lot. The leaderboards list only players with {n} rated games " +
      "or more. Bots are rated too, one rating per level.", { base: strong(base), mark: strong("?"),
      provisional: html`<em>${t("provisional")}</em>`, games: strong(games), n: games })}</p>
    <h2>${t("Unrated games")}</h2>
    <p>${tx("Tick {casual} when you create a game: it changes nobody's rating, and the lobby and the game page say " +
      "so. Hints from the coach are only offered in such games. A casual game still counts for reliability.",
      { casual: html`<em>${t("Casual game (not rated)")}</em>` })}</p>
    <h2>${t("Taking back a move")}</h2>
    <p>${t("You can undo your own moves of your turn until something new is revealed (a tile drawn, dice rolled, a " +
      "card turned up) or your turn ends. When everybody plans at once (Tiefenthal's planning, Heaven & Ale's " +
      "storage tiles), you can take back your own latest move even after someone else moved since.")}</p>
  </article>`;
}
