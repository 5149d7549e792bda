// The table chat on the game page: the seats' channel, and the spectators' one for those without a seat (and
// for everyone once the game is over); mute, block and report on each message of someone else. While the
// history slider shows a past version, the panel shows the chat as it stood then (GET /games/{id}/chat/replay:
// each message from the version it was said at, as the caller could read it at the time).
import { useEffect, useRef, useState } from "preact/hooks";
import { html } from "./html.js";
import { auth, del, errorText, get, post } from "./api.js";
import { ErrorLine, seatColour } from "./ui.js";

const CHANNEL_NAMES = { seats: "Table", spectators: "Spectators" };
const FINISHED = ["ended", "scored", "expired"];

// `incoming` is the list of messages that arrived on the stream since the page opened; `at` the version the
// history slider shows (null: now).
export function ChatPanel({ gameId, token, seat, status, incoming, connection, at = null }) {
  const spectator = seat === null;
  const channels = spectator || FINISHED.includes(status) ? ["seats", "spectators"] : ["seats"];
  const [channel, setChannel] = useState("seats");
  const [pages, setPages] = useState({}); // channel -> {messages, can_write}
  const [hidden, setHidden] = useState({ muted: [], blocked: [] }); // author keys
  const [text, setText] = useState("");
  const [error, setError] = useState(null);
  const [note, setNote] = useState(null);
  const list = useRef(null);
  const me = auth.playerId() ? `player:${auth.playerId()}` : null;
  const asPlayer = Boolean(token && token === auth.token() && me);

  const load = (which) => get(`/games/${gameId}/chat?channel=${which}`, token)
    .then((page) => setPages((all) => ({ ...all, [which]: page })))
    .catch(() => {});
  useEffect(() => {
    if (connection !== "live") return; // (re)connected: what was said meanwhile is read again
    for (const c of channels) load(c);
    if (token) get("/chat/mutes", token).then((m) => setHidden((h) => ({ ...h, muted: m.muted }))).catch(() => {});
    if (asPlayer) {
      get("/players/me/blocks", token).then((b) => setHidden((h) => ({ ...h,
        blocked: b.blocked.map((p) => `player:${p.player_id}`) }))).catch(() => {});
    }
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
  const replay = useReplay(gameId, token, at);
  const page = pages[channel] || { messages: [], can_write: false };
  const hides = (m) => hidden.muted.includes(m.author) || hidden.blocked.includes(m.author);
  const shown = (at === null ? page.messages : replay.filter((m) => m.version <= at)).filter((m) => !hides(m));
  useEffect(() => {
    if (list.current) list.current.scrollTop = list.current.scrollHeight;
  }, [shown.length, channel, at]);

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
  async function act(what) {
    try {
      setError(null);
      setNote(await what());
    } catch (err) {
      setError(errorText(err));
    }
  }
  const mute = (m) => act(async () => {
    const found = await post("/chat/mutes", { author: m.author }, token);
    setHidden((h) => ({ ...h, muted: found.muted }));
    return `${m.name} is muted: you no longer see what they write.`;
  });
  const block = (m) => act(async () => {
    const found = await post("/players/me/blocks", { player_id: m.author.slice("player:".length) }, token);
    setHidden((h) => ({ ...h, blocked: found.blocked.map((p) => `player:${p.player_id}`) }));
    return `${m.name} is blocked: you no longer see their chat, and they cannot invite you. Settings lists whom ` +
      "you blocked.";
  });
  const report = (m, reason) => act(async () => {
    await post(`/games/${gameId}/chat/reports`, { channel: m.channel, message_id: m.id, reason }, token);
    return "Thank you: the message is reported, and the people who run this server will look at it.";
  });
  async function unhideAll() {
    for (const author of hidden.muted) await del(`/chat/mutes/${encodeURIComponent(author)}`, token).catch(() => {});
    setHidden((h) => ({ ...h, muted: [] }));
  }
  const mine = (m) => m.author === me || (seat !== null && m.seat === seat && m.channel === "seats");
  return html`<section class="chat" aria-labelledby="chat-h">
    <h2 id="chat-h">${at === null ? "Chat" : `Chat at version ${at}`}</h2>
    ${at === null && channels.length > 1 ? html`<div class="tabs" role="tablist">${channels.map((c) => html`<button
        type="button" role="tab" aria-selected=${c === channel} class=${c === channel ? "tab on" : "tab"} key=${c}
        onClick=${() => setChannel(c)}>${CHANNEL_NAMES[c]}</button>`)}</div>` : null}
    ${at !== null ? html`<p class="muted chat-replay-note">What had been said by this point of the game.</p>` : null}
    <ol ref=${list} class="chat-list" aria-live=${at === null ? "polite" : "off"}
        data-channel=${at === null ? channel : "replay"}>
      ${shown.length ? null : html`<li class="muted">No messages${at === null ? " yet" : " by then"}.</li>`}
      ${shown.map((m) => html`<${ChatLine} key=${`${m.channel}:${m.id}`} m=${m} replaying=${at !== null}
          actions=${token && !mine(m)} canBlock=${asPlayer && m.author.startsWith("player:")}
          mute=${mute} block=${block} report=${report} />`)}
    </ol>
    ${hidden.muted.length ? html`<p class="muted">${hidden.muted.length} muted ·
      <button type="button" class="link" onClick=${unhideAll}>unmute all</button></p>` : null}
    ${note ? html`<p class="chat-note" role="status">${note}</p>` : null}
    ${at !== null ? null : page.can_write ? html`<form class="chat-form" onSubmit=${send}>
        <label class="sr-only" for="chat-input">Message</label>
        <input id="chat-input" maxlength="500" autocomplete="off" value=${text}
               onInput=${(e) => setText(e.target.value)}
               placeholder=${channel === "seats" ? "Say something to the table" : "Say something to the spectators"} />
        <button type="submit">Send</button>
      </form>`
      : html`<p class="muted">${channel === "seats" ? "Only the players write here."
          : token ? "" : "Sign in to write."}</p>`}
    <${ErrorLine} error=${error} />
  </section>`;
}

// The replay's chat, read each time the page goes into its history (what was said since is read the next time).
function useReplay(gameId, token, at) {
  const [found, setFound] = useState([]);
  const replaying = at !== null;
  useEffect(() => {
    if (!replaying) return;
    let gone = false;
    get(`/games/${gameId}/chat/replay`, token).then((r) => !gone && setFound(r.messages)).catch(() => {});
    return () => { gone = true; };
  }, [gameId, token, replaying]);
  return found;
}

// One message, and what one may do about someone else's: mute, block (a registered player), report.
function ChatLine({ m, replaying, actions, canBlock, mute, block, report }) {
  const [asking, setAsking] = useState(null); // "block" | "report" | null
  const [reason, setReason] = useState("");
  const colour = m.seat !== null && m.seat !== undefined ? `color:${seatColour(m.seat)}` : "";
  return html`<li data-author=${m.author} data-id=${m.id}>
    <strong style=${colour}>${m.name}</strong>
    ${replaying && m.channel === "spectators" ? html`<span class="chat-channel">(spectators)</span> ` : null}
    <span class="chat-text">${m.text}</span>
    ${actions && !asking ? html`<span class="chat-actions">
        <button type="button" class="link mute" onClick=${() => mute(m)} aria-label=${`Mute ${m.name}`}>mute</button>
        ${canBlock ? html`<button type="button" class="link block" onClick=${() => setAsking("block")}
            aria-label=${`Block ${m.name}`}>block</button>` : null}
        <button type="button" class="link report" onClick=${() => setAsking("report")}
            aria-label=${`Report what ${m.name} wrote`}>report</button></span>` : null}
    ${asking === "block" ? html`<div class="chat-ask" role="group" aria-label=${`Block ${m.name}`}>
        <p>Block ${m.name}? You will not see their chat in any game, and they cannot invite you.</p>
        <button type="button" class="danger" onClick=${() => { setAsking(null); block(m); }}>Block</button>
        <button type="button" onClick=${() => setAsking(null)}>Cancel</button></div>` : null}
    ${asking === "report" ? html`<form class="chat-ask" aria-label="Report"
        onSubmit=${(e) => { e.preventDefault(); setAsking(null); report(m, reason); }}>
        <label for=${`why-${m.id}`}>Why report it? (you may leave this empty)</label>
        <input id=${`why-${m.id}`} class="report-reason" maxlength="300" value=${reason}
               onInput=${(e) => setReason(e.target.value)} />
        <button type="submit" class="danger">Report</button>
        <button type="button" onClick=${() => setAsking(null)}>Cancel</button></form>` : null}
  </li>`;
}
