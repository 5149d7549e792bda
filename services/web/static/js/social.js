// Playing together on the game page: the game's Undo command type (its button is in js/action-bar.js), the
// Resign button and the votes about an away seat (each exactly when the API lists it), the table chat (the
// seats' channel, and the spectators' one for those without a seat), the Rematch button.
import { useEffect, useRef, useState } from "preact/hooks";
import { html } from "./html.js";
import { auth, del, errorText, get, post } from "./api.js";
import { ErrorLine, seatColour } from "./ui.js";
import { N_, t, tn } from "./i18n.js";
import { seatName } from "./words.js";

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
      >${t("Resign…")}</button>`;
  }
  const stillIn = (seats || []).filter((s) => !s.left).length;
  return html`<div class="confirm-resign" role="alertdialog" aria-labelledby="resign-q">
    <p id="resign-q"><strong>${t("Leave this game for good?")}</strong> ${stillIn > 2
      ? t("You will be placed last, and your rating counts it as a loss. A bot plays your seat to the end.")
      : t("You will be placed last, and your rating counts it as a loss. The game ends now.")}</p>
    <button type="button" class="danger" disabled=${busy}
      onClick=${() => submit(resign).catch(() => {}).finally(() => setAsking(false))}>${t("Resign")}</button>
    <button type="button" onClick=${() => setAsking(false)}>${t("Keep playing")}</button>
  </div>`;
}

// Votes about a seat taken over by the autopilot or away too long, and "I'm back" for one's own away seat.
export function VotePanel({ legal, submit, busy, seats, seat }) {
  const name = (seat) => seatName(seats, seat);
  const votes = legal.filter((c) => c.type === "taproom.Vote" || c.type === "taproom.WithdrawVote");
  const back = legal.find((c) => c.type === "taproom.ReclaimSeat");
  if (!votes.length && !back) return null;
  const words = (c) => c.type === "taproom.WithdrawVote"
    ? t("Withdraw my vote about {name}", { name: name(c.about_seat) })
    : c.choice === "end" ? t("End the game ({name} last)", { name: name(c.about_seat) })
    : t("Give {name}'s seat to a bot", { name: name(c.about_seat) });
  return html`<div class="votes">
    ${votes.length ? html`<p>${t("{name} has been away a long while. The table decides together:",
        { name: name(votes[0].about_seat) })}</p>`
      : seats?.[seat]?.absent ? html`<p>${t("Your seat is waiting for you: play a move (or tell the table you are " +
        "back) before the others end the game or give your seat to a bot.")}</p>`
      : html`<p>${t("You missed a deadline: the autopilot played for you. Take your seat back:")}</p>`}
    ${votes.map((c) => html`<button type="button" disabled=${busy} onClick=${() => submit(c).catch(() => {})}
      >${words(c)}</button>`)}
    ${back ? html`<button type="button" class="primary" disabled=${busy} onClick=${() => submit(back).catch(() => {})}
      >${t("I'm back")}</button>` : null}
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
    <button type="button" class="primary" disabled=${busy} onClick=${ask}>${t("Rematch")}</button>
    <span class="muted">${t("same players, options and pace; the next player starts")}</span>
    <${ErrorLine} error=${error} /></div>`;
}

const CHANNEL_NAMES = { seats: N_("Table"), spectators: N_("Spectators") };

// The chat panel: `incoming` is the list of messages that arrived on the stream since the page opened.
export function ChatPanel({ gameId, token, seat, status, incoming, connection }) {
  const spectator = seat === null;
  const finished = ["ended", "scored", "expired"].includes(status);
  const channels = spectator || finished ? ["seats", "spectators"] : ["seats"];
  const [channel, setChannel] = useState("seats");
  const [pages, setPages] = useState({}); // channel -> {messages, can_write}
  const [muted, setMuted] = useState([]);
  const [text, setText] = useState("");
  const [error, setError] = useState(null);
  const list = useRef(null);
  const me = auth.playerId() ? `player:${auth.playerId()}` : null;

  const load = (which) => get(`/games/${gameId}/chat?channel=${which}`, token)
    .then((page) => setPages((all) => ({ ...all, [which]: page })))
    .catch(() => {});
  useEffect(() => {
    if (connection !== "live") return; // (re)connected: what was said meanwhile is read again
    for (const c of channels) load(c);
    if (token) get("/chat/mutes", token).then((m) => setMuted(m.muted)).catch(() => {});
  }, [gameId, token, channels.join(), connection]);
  // the stream of a finished game ends, the table may still talk ("good game"): read the chat now and then
  useEffect(() => {
    if (connection !== "ended") return;
    for (const c of channels) load(c);
    const timer = setInterval(() => document.visibilityState === "visible" && channels.forEach(load), 15000);
    return () => clearInterval(timer);
  }, [gameId, token, channels.join(), connection]);
  // messages from the stream join their channel once (a reload of the history may already hold them)
  useEffect(() => {
    if (!incoming.length) return;
    setPages((all) => {
      const next = { ...all };
      for (const m of incoming) {
        const page = next[m.channel] || { messages: [], can_write: false };
        if (!page.messages.some((x) => x.id === m.id)) next[m.channel] = { ...page, messages: [...page.messages, m] };
      }
      return next;
    });
  }, [incoming]);
  const page = pages[channel] || { messages: [], can_write: false };
  const shown = page.messages.filter((m) => !muted.includes(m.author));
  useEffect(() => {
    if (list.current) list.current.scrollTop = list.current.scrollHeight;
  }, [shown.length, channel]);

  async function send(e) {
    e.preventDefault();
    if (!text.trim()) return;
    try {
      const said = await post(`/games/${gameId}/chat`, { text, channel }, token);
      setText("");
      setError(null);
      setPages((all) => {
        const p = all[channel] || { messages: [], can_write: true };
        if (p.messages.some((x) => x.id === said.id)) return all;
        return { ...all, [channel]: { ...p, messages: [...p.messages, said] } };
      });
    } catch (err) {
      setError(errorText(err));
    }
  }
  async function mute(author) {
    try {
      setMuted((await post("/chat/mutes", { author }, token)).muted);
    } catch (err) {
      setError(errorText(err));
    }
  }
  async function unmuteAll() {
    for (const author of muted) await del(`/chat/mutes/${encodeURIComponent(author)}`, token).catch(() => {});
    setMuted([]);
  }
  return html`<section class="chat" aria-labelledby="chat-h">
    <h2 id="chat-h">${t("Chat")}</h2>
    ${channels.length > 1 ? html`<div class="tabs" role="tablist">${channels.map((c) => html`<button type="button"
        role="tab" aria-selected=${c === channel} class=${c === channel ? "tab on" : "tab"} key=${c}
        onClick=${() => setChannel(c)}>${t(CHANNEL_NAMES[c])}</button>`)}</div>` : null}
    <ol ref=${list} class="chat-list" aria-live="polite" data-channel=${channel}>
      ${shown.length ? null : html`<li class="muted">${t("No messages yet.")}</li>`}
      ${shown.map((m) => html`<li key=${m.id} data-author=${m.author}>
        <strong style=${m.seat !== null && m.seat !== undefined ? `color:${seatColour(m.seat)}` : ""}>${m.name}</strong>
        <span class="chat-text">${m.text}</span>
        ${token && m.author !== me && !(seat !== null && m.seat === seat) ? html`<button type="button" class="link mute"
            onClick=${() => mute(m.author)} aria-label=${t("Mute {name}", { name: m.name })}>${t("mute")}</button>`
          : null}
      </li>`)}
    </ol>
    ${muted.length ? html`<p class="muted">${tn("{n} muted", "{n} muted", muted.length)} ·
      <button type="button" class="link" onClick=${unmuteAll}>${t("unmute all")}</button></p>` : null}
    ${page.can_write ? html`<form class="chat-form" onSubmit=${send}>
        <label class="sr-only" for="chat-input">${t("Message")}</label>
        <input id="chat-input" maxlength="500" autocomplete="off" value=${text}
               onInput=${(e) => setText(e.target.value)}
               placeholder=${channel === "seats" ? t("Say something to the table")
                 : t("Say something to the spectators")} />
        <button type="submit">${t("Send")}</button>
      </form>`
      : html`<p class="muted">${channel === "seats" ? t("Only the players write here.")
          : token ? "" : t("Sign in to write.")}</p>`}
    <${ErrorLine} error=${error} />
  </section>`;
}
