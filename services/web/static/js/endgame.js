// The end of a game: the score sheet (every category per seat, the places) and the fairness panel, which
// checks in this browser that the revealed seed hashes to the commitment published at the start.
import { useEffect, useState } from "preact/hooks";
import { html } from "./html.js";
import { seatName } from "./words.js";
import { seatColour } from "./ui.js";
import { N_, t, tn } from "./i18n.js";

// A seat whose player left is last whatever its points: the place says why.
const LEFT = { resigned: N_("resigned"), abandoned: N_("left"), idle: N_("left") };

export function ScoreSheet({ meta }) {
  if (!meta.scores) {
    return html`<section class="card"><h2>${t("Final scores")}</h2><p class="muted">${t("Scoring…")}</p></section>`;
  }
  const scores = [...meta.scores].sort((a, b) => a.seat - b.seat);
  const categories = [...new Set(scores.flatMap((s) => Object.keys(s.breakdown || {})))];
  const place = (seat) => meta.places?.[String(seat)];
  const left = (seat) => (LEFT[meta.seats?.[seat]?.left] ? t(LEFT[meta.seats[seat].left]) : null);
  const placeText = (seat) => {
    const shown = place(seat) === 1 ? t("1 · winner") : place(seat) ?? "–";
    return left(seat) ? `${shown} · ${left(seat)}` : shown;
  };
  return html`<section class="card score-sheet" aria-labelledby="sheet-h">
    <h2 id="sheet-h">${t("Final scores")}</h2>
    <div class="table-scroll"><table>
      <thead><tr><th scope="col">${t("Category")}</th>
        ${scores.map((s) => html`<th scope="col"><span class="swatch" style=${`background:${seatColour(s.seat)}`}
            aria-hidden="true"></span>${seatName(meta.seats, s.seat)}</th>`)}</tr></thead>
      <tbody>
        ${categories.map((c) => html`<tr><th scope="row">${t(c.replace(/_/g, " "))}</th>
          ${scores.map((s) => html`<td>${s.breakdown?.[c] ?? 0}</td>`)}</tr>`)}
        <tr class="total"><th scope="row">${t("Total")}</th>${scores.map((s) => html`<td>${s.total}</td>`)}</tr>
        <tr class="place"><th scope="row">${t("Place")}</th>${scores.map((s) => html`<td>${placeText(s.seat)}</td>`)}
        </tr>
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
    <h2 id="fair-h">${t("Fairness")}</h2>
    <p>${t("At the start the server published the SHA-256 of the game's secret seed. Every draw and roll comes " +
      "from that seed; it is revealed at the end so anyone can check.")}</p>
    <dl class="facts">
      <dt>${t("Seed commitment")}</dt><dd><code class="hash">${meta.seed_commitment}</code></dd>
      ${seed ? html`<dt>${t("Revealed seed")}</dt><dd><code class="hash">${seed}</code></dd>` : null}
    </dl>
    ${seed ? html`<ul class="checks">
        <li class=${local?.ok ? "pass" : local ? "fail" : ""} data-check="browser-seed">
          ${mark(local?.ok)} ${!local ? t("Checked in this browser: SHA-256 of the seed … the commitment")
            : local.ok ? t("Checked in this browser: SHA-256 of the seed matches the commitment")
            : t("Checked in this browser: SHA-256 of the seed does NOT match the commitment")}</li>
        ${verdict ? html`
          <li class=${verdict.chain_ok ? "pass" : "fail"} data-check="chain">${mark(verdict.chain_ok)} ${
            tn("Server: the hash chain of {n} event is intact", "Server: the hash chain of {n} events is intact",
              verdict.events)}</li>
          <li class=${verdict.seed_ok ? "pass" : "fail"} data-check="seed">${mark(verdict.seed_ok)} ${
            t("Server: the seed matches the commitment")}</li>
          <li class=${verdict.replay_ok ? "pass" : "fail"} data-check="replay">${mark(verdict.replay_ok)} ${
            tn("Server: replaying {n} command reproduces every event",
              "Server: replaying {n} commands reproduces every event", verdict.commands)}</li>
          ${(verdict.problems || []).map((p) => html`<li class="fail">✗ ${p}</li>`)}`
        : html`<li>${t("… asking the server for its verdict")}</li>`}
      </ul>`
      : html`<p class="muted">${t("The seed stays secret until the game ends; then this panel checks it.")}</p>`}
  </section>`;
}
