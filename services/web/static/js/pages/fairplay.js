// The fair-play policy in plain words (#/fair-play): what a game does to a rating when someone is away, when the
// table ends it early, reliability, provisional ratings and unrated games. The figures come from GET /fair-play.
import { useEffect, useState } from "preact/hooks";
import { html } from "../html.js";
import { errorText, get } from "../api.js";
import { ErrorLine, setTitle } from "../ui.js";

export function FairPlayPage() {
  const [f, setFigures] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    setTitle("Fair play");
    get("/fair-play").then(setFigures).catch((err) => setError(errorText(err)));
  }, []);
  const games = f ? f.provisional_games : "10";
  const line = f ? `${f.early_end_percent}%` : "half";
  const base = f ? f.display_base : 1000;
  return html`<article class="fair-play prose">
    <h1>Fair play</h1>
    <${ErrorLine} error=${error} />
    <p>A rating should say how well someone plays, and a seat at a table should be played to the end. These are
      the rules the service keeps for that; they are the same for everybody.</p>
    <h2>If you stop playing, you lose</h2>
    <p>When you miss too many turns, the autopilot takes your seat so the others can go on. If you have not taken it
      back by the end, the game counts as <strong>last place</strong> for you, however well the autopilot played.
      The same goes when the table votes a bot in for you, or when you leave a game.</p>
    <p>The players who stayed are rated <strong>among themselves</strong>, on their own scores, as if the absent
      seat had not been there: nobody gains from an opponent who walked away. In a two-player game that leaves
      one player, so their rating stays as it was.</p>
    <h2>A game ended early by vote</h2>
    <p>When the table votes to end a game because someone is away, and less than <strong>${line}</strong> of the
      game was played, the players who stayed are <strong>not rated</strong>: an early score says little about who
      would have won. The absent player still counts as last. After that point, the game is rated on the scores
      as they stand.</p>
    <h2>Draws</h2>
    <p>Players who share a place drew with each other. A shared first place is a draw, not a win for both.</p>
    <h2>Reliability</h2>
    <p>Your reliability is the share of your finished games that you played to the end yourself: no autopilot or
      bot in your seat at the end, not abandoned. Resigning is an honest way to leave: it costs rating (last
      place), not reliability. A game you are still playing does not count yet. Anyone may create a game that
      admits only players at or above a reliability; a new player with no finished game is admitted.</p>
    <h2>Ratings you can read</h2>
    <p>Everybody starts at <strong>${base}</strong>, and a rating is never below 0. It is marked with${" a "}<strong
      >?</strong> and the word <em>provisional</em> until you have played <strong>${games}</strong> rated
      games of that game: until then the service is not yet sure of your strength and the number moves a lot. The
      leaderboards list only players with ${games} rated games or more. Bots are rated too, one rating per level.</p>
    <h2>Unrated games</h2>
    <p>Tick <em>Casual game (not rated)</em> when you create a game: it changes nobody's rating, and the lobby and the
      game page say so. Hints from the coach are only offered in such games. A casual game still counts for
      reliability.</p>
    <h2>Taking back a move</h2>
    <p>You can undo your own moves of your turn until something new is revealed (a tile drawn, dice rolled, a card
      turned up) or your turn ends. When everybody plans at once (Tiefenthal's planning, Heaven & Ale's storage
      tiles), you can take back your own latest move even after someone else moved since.</p>
  </article>`;
}
