// The end of a game: the score sheet (every category per seat, the places) and the fairness panel, which
// checks in this browser that the revealed seed hashes to the commitment published at the start.
import { useEffect, useState } from "preact/hooks";
import { html } from "./html.js";
import { seatName } from "./words.js";
import { seatColour } from "./ui.js";

// A seat whose player left is last whatever its points: the place says why.
const LEFT = { resigned: "resigned", abandoned: "left", idle: "left" };

export function ScoreSheet({ meta }) {
  if (!meta.scores) return html`<section class="card"><h2>Final scores</h2><p class="muted">Scoring…</p></section>`;
  const scores = [...meta.scores].sort((a, b) => a.seat - b.seat);
  const categories = [...new Set(scores.flatMap((s) => Object.keys(s.breakdown || {})))];
  const place = (seat) => meta.places?.[String(seat)];
  const left = (seat) => LEFT[meta.seats?.[seat]?.left];
  const placeText = (seat) =>
    `${place(seat) === 1 ? "1 · winner" : place(seat) ?? "–"}${left(seat) ? ` · ${left(seat)}` : ""}`;
  return html`<section class="card score-sheet" aria-labelledby="sheet-h">
    <h2 id="sheet-h">Final scores</h2>
    <div class="table-scroll"><table>
      <thead><tr><th scope="col">Category</th>
        ${scores.map((s) => html`<th scope="col"><span class="swatch" style=${`background:${seatColour(s.seat)}`}
            aria-hidden="true"></span>${seatName(meta.seats, s.seat)}</th>`)}</tr></thead>
      <tbody>
        ${categories.map((c) => html`<tr><th scope="row">${c.replace(/_/g, " ")}</th>
          ${scores.map((s) => html`<td>${s.breakdown?.[c] ?? 0}</td>`)}</tr>`)}
        <tr class="total"><th scope="row">Total</th>${scores.map((s) => html`<td>${s.total}</td>`)}</tr>
        <tr class="place"><th scope="row">Place</th>${scores.map((s) => html`<td>${placeText(s.seat)}</td>`)}</tr>
      </tbody>
    </table></div>
  </section>`;
}

function hexToBytes(hex) {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.substr(i * 2, 2), 16);
  return bytes;
}

async function sha256Hex(bytes) {
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

const mark = (ok) => (ok === true ? "✓" : ok === false ? "✗" : "…");

export function FairnessPanel({ meta, verdict }) {
  const seed = meta.seed || verdict?.seed;
  const [local, setLocal] = useState(null);
  useEffect(() => {
    if (!seed || !/^[0-9a-f]+$/i.test(seed) || !crypto.subtle) return;
    sha256Hex(hexToBytes(seed)).then((hash) => setLocal({ hash, ok: hash === meta.seed_commitment }));
  }, [seed, meta.seed_commitment]);
  return html`<section class="card fairness" aria-labelledby="fair-h">
    <h2 id="fair-h">Fairness</h2>
    <p>At the start the server published the SHA-256 of the game's secret seed. Every draw and roll comes
      from that seed; it is revealed at the end so anyone can check.</p>
    <dl class="facts">
      <dt>Seed commitment</dt><dd><code class="hash">${meta.seed_commitment}</code></dd>
      ${seed ? html`<dt>Revealed seed</dt><dd><code class="hash">${seed}</code></dd>` : null}
    </dl>
    ${seed ? html`<ul class="checks">
        <li class=${local?.ok ? "pass" : local ? "fail" : ""} data-check="browser-seed">
          ${mark(local?.ok)} Checked in this browser: SHA-256 of the
          seed ${local ? (local.ok ? "matches" : "does NOT match") : "…"} the commitment</li>
        ${verdict ? html`
          <li class=${verdict.chain_ok ? "pass" : "fail"} data-check="chain">${mark(verdict.chain_ok)} Server: the hash
            chain of ${verdict.events} events is intact</li>
          <li class=${verdict.seed_ok ? "pass" : "fail"} data-check="seed">${mark(verdict.seed_ok)} Server: the seed
            matches the commitment</li>
          <li class=${verdict.replay_ok ? "pass" : "fail"} data-check="replay">${mark(verdict.replay_ok)} Server:
            replaying ${verdict.commands} commands reproduces every event</li>
          ${(verdict.problems || []).map((p) => html`<li class="fail">✗ ${p}</li>`)}`
        : html`<li>… asking the server for its verdict</li>`}
      </ul>`
      : html`<p class="muted">The seed stays secret until the game ends; then this panel checks it.</p>`}
  </section>`;
}
