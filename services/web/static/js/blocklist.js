// Settings: whom I muted in chat and whom I blocked, each with a way back (GET /chat/mutes, GET
// /players/me/blocks and their DELETEs). Muting hides an author's chat; blocking a player also refuses their
// invitations. The limits are the server's (it says when one is reached).
import { useEffect, useState } from "preact/hooks";
import { html } from "./html.js";
import { auth, del, errorText, get } from "./api.js";
import { ErrorLine } from "./ui.js";

export function ChatPeopleSection() {
  const [muted, setMuted] = useState(null);
  const [blocks, setBlocks] = useState(null);
  const [error, setError] = useState(null);
  const token = auth.token();
  useEffect(() => {
    get("/chat/mutes", token).then(setMuted).catch((err) => setError(errorText(err)));
    get("/players/me/blocks", token).then(setBlocks).catch((err) => setError(errorText(err)));
  }, [token]);
  async function change(what) {
    try {
      setError(null);
      await what();
    } catch (err) {
      setError(errorText(err));
    }
  }
  const unmute = (author) => change(async () =>
    setMuted(await del(`/chat/mutes/${encodeURIComponent(author)}`, token)));
  const unblock = (id) => change(async () =>
    setBlocks(await del(`/players/me/blocks/${encodeURIComponent(id)}`, token)));
  return html`<section class="card people" aria-labelledby="people-h">
    <h2 id="people-h">Muted and blocked</h2>
    <p class="muted">A muted author's chat is hidden for you. A blocked player's chat is hidden too, in live games
      and replays, and their invitations to you are refused. Neither is told. Mute or block from a message's
      links in a game's chat.</p>
    <h3>Blocked players${blocks ? ` (${blocks.blocked.length} of at most ${blocks.limit})` : ""}</h3>
    ${blocks === null ? html`<p class="muted">Loading…</p>` : blocks.blocked.length ? html`<ul class="people-list"
        data-list="blocked">${blocks.blocked.map((p) => html`<li key=${p.player_id}>
          <span>${p.name}${p.handle ? html` <span class="muted">@${p.handle}</span>` : null}</span>
          <button type="button" onClick=${() => unblock(p.player_id)} aria-label=${`Unblock ${p.name}`}>Unblock</button>
        </li>`)}</ul>` : html`<p class="muted">You have blocked nobody.</p>`}
    <h3>Muted in chat</h3>
    ${muted === null ? html`<p class="muted">Loading…</p>` : muted.authors.length ? html`<ul class="people-list"
        data-list="muted">${muted.authors.map((a) => html`<li key=${a.author}>
          <span>${a.name}</span>
          <button type="button" onClick=${() => unmute(a.author)} aria-label=${`Unmute ${a.name}`}>Unmute</button>
        </li>`)}</ul>` : html`<p class="muted">You have muted nobody.</p>`}
    <${ErrorLine} error=${error} />
  </section>`;
}
