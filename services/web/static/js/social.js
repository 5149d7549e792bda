// Playing together on the game page: the game's Undo command type (its button is in js/action-bar.js), the
// Resign button and the votes about an away seat (each exactly when the API lists it), the Rematch button; the
// table chat is js/chat.js.
import { useState } from "preact/hooks";
import { html } from "./html.js";
import { auth, errorText, post } from "./api.js";
import { ErrorLine } from "./ui.js";

export const UNDO = "taproom.Undo";
export const RESIGN = "taproom.Resign";

// The frame offers the kernel's commands (taproom.*) itself; a board draws the game's own.
export function boardCommands(legal) {
  return legal.filter((c) => !c.type.startsWith("taproom."));
}

// Resign, behind a confirmation that says what it costs (last place, in the rating too).
export function ResignButton({ legal, submit, busy, seats }) {
  const [asking, setAsking] = useState(false);
  const resign = legal.find((c) => c.type === RESIGN);
  if (!resign) return null;
  if (!asking) {
    return html`<button type="button" class="resign" disabled=${busy} onClick=${() => setAsking(true)}
      >Resign…</button>`;
  }
  const stillIn = (seats || []).filter((s) => !s.left).length;
  return html`<div class="confirm-resign" role="alertdialog" aria-labelledby="resign-q">
    <p id="resign-q"><strong>Leave this game for good?</strong> You will be placed last, and your rating counts it
      as a loss. ${stillIn > 2 ? "A bot plays your seat to the end." : "The game ends now."}</p>
    <button type="button" class="danger" disabled=${busy}
      onClick=${() => submit(resign).catch(() => {}).finally(() => setAsking(false))}>Resign</button>
    <button type="button" onClick=${() => setAsking(false)}>Keep playing</button>
  </div>`;
}

// Votes about a seat taken over by the autopilot or away too long, and "I'm back" for one's own away seat.
export function VotePanel({ legal, submit, busy, seats, seat }) {
  const name = (seat) => seats?.[seat]?.name || `Seat ${seat + 1}`;
  const votes = legal.filter((c) => c.type === "taproom.Vote" || c.type === "taproom.WithdrawVote");
  const back = legal.find((c) => c.type === "taproom.ReclaimSeat");
  if (!votes.length && !back) return null;
  const words = (c) => c.type === "taproom.WithdrawVote" ? `Withdraw my vote about ${name(c.about_seat)}`
    : c.choice === "end" ? `End the game (${name(c.about_seat)} last)` : `Give ${name(c.about_seat)}'s seat to a bot`;
  return html`<div class="votes">
    ${votes.length ? html`<p>${name(votes[0].about_seat)} has been away a long while. The table decides together:</p>`
      : seats?.[seat]?.absent ? html`<p>Your seat is waiting for you: play a move (or tell the table you are back)
        before the others end the game or give your seat to a bot.</p>`
      : html`<p>You missed a deadline: the autopilot played for you. Take your seat back:</p>`}
    ${votes.map((c) => html`<button type="button" disabled=${busy} onClick=${() => submit(c).catch(() => {})}
      >${words(c)}</button>`)}
    ${back ? html`<button type="button" class="primary" disabled=${busy} onClick=${() => submit(back).catch(() => {})}
      >I'm back</button>` : null}
  </div>`;
}

export function RematchButton({ gameId, live, seat }) {
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  if (seat === null || !["ended", "scored"].includes(live.status) || !auth.token()) return null;
  async function ask() {
    setBusy(true);
    try {
      const made = await post(`/games/${gameId}/rematch`, {}, auth.token());
      location.hash = `#/game/${made.game_id}`;
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  }
  return html`<div class="rematch">
    <button type="button" class="primary" disabled=${busy} onClick=${ask}>Rematch</button>
    <span class="muted">same players, options and pace; the next player starts</span>
    <${ErrorLine} error=${error} /></div>`;
}
