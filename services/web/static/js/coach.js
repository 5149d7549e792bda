// The coach's analysis panel on a finished game's page: ask for the analysis, wait for it, then each seat's accuracy,
// a strip of its losses over the game and its biggest turning points in words. Stepping to one moves the
// history slider there; the board then shows the position before the decision, as played, or with the coach's
// move drawn as a ghost (GET /games/{id}/analysis/better: the game's own dice, the seed being public by then).
import { useEffect, useMemo, useState } from "preact/hooks";
import { html } from "./html.js";
import { ApiError, auth, get, post } from "./api.js";
import { askHint, useHintMark } from "./hint.js";
import { describe, seatName } from "./words.js";
import { seatColour } from "./ui.js";

const TURNING_POINTS = 5;
const MIN_TURNING_LOSS = 1; // points: smaller losses are the estimate's noise, not a lesson
const POLL_MS = 3000;

// A move in words: the board's own sentences for the events it leads to (the seat's own events first).
export function moveWords(events, seat, seats, board) {
  const own = (events || []).filter((e) => e.payload?.seat === seat);
  const lines = (own.length ? own : events || []).slice(0, 3).map((e) => describe(e, seats, board));
  return lines.length ? lines.join(" ") : "a move the coach cannot name";
}

export function turningPoints(decisions, count = TURNING_POINTS) {
  return [...decisions].filter((d) => d.loss >= MIN_TURNING_LOSS)
    .sort((a, b) => b.loss - a.loss).slice(0, count)
    .sort((a, b) => a.version - b.version);
}

const points = (loss) => {
  const n = Math.max(1, Math.round(loss));
  return `${n} point${n === 1 ? "" : "s"}`;
};

function LossStrip({ decisions, head, seat, at, onPick }) {
  const max = Math.max(1, ...decisions.map((d) => d.loss));
  const width = 300;
  const height = 36;
  return html`<svg class="loss-strip" viewBox=${`0 0 ${width} ${height}`} preserveAspectRatio="none" role="img"
      aria-label=${`Losses over the game: ${decisions.filter((d) => d.loss >= MIN_TURNING_LOSS).length} decisions `
        + "cost a point or more"}>
    <line x1="0" y1=${height - 0.5} x2=${width} y2=${height - 0.5} stroke="var(--line)" />
    ${at !== null ? html`<line x1=${(at / head) * width} y1="0" x2=${(at / head) * width} y2=${height}
        class="strip-now" />` : null}
    ${decisions.filter((d) => d.loss > 0).map((d) => {
      const h = Math.max(2, (d.loss / max) * (height - 2));
      return html`<rect key=${d.version} x=${(d.version / head) * width - 1.5} y=${height - h} width="3" height=${h}
        fill=${seatColour(seat)} onClick=${() => onPick(d)}><title>Turn ${d.turn}: about ${points(d.loss)} lost</title>
        </rect>`;
    })}
  </svg>`;
}

// The version right after the played command: its events share the command's id (the page's history has them).
export function afterPlayed(events, version) {
  const first = (events || []).find((e) => e.version === version + 1);
  if (!first) return null;
  let last = first.version;
  for (const e of events) {
    if (e.version === last + 1 && e.command_id === first.command_id) last = e.version;
  }
  return last;
}

// The board at a turning point: before the decision, as played, or the coach's move drawn as a ghost.
function Compare({ d, seat, head, events, at, setAt, ghost, setGhost }) {
  const played = afterPlayed(events, d.version);
  const mode = ghost && ghost.version === d.version && ghost.seat === seat ? "coach"
    : at === d.version ? "before" : played !== null && at === played ? "played" : null;
  const show = (which) => {
    if (which === "coach") setGhost({ seat, version: d.version });
    else setGhost(null);
    const v = which === "played" ? played : d.version;
    setAt(v >= head ? null : v);
    // on a phone the board stands far above the coach's notes: bring it into view to see what changed
    if (window.matchMedia("(max-width: 700px)").matches) {
      document.querySelector(".board-area")?.scrollIntoView({ block: "start" });
    }
  };
  const choice = (which, label) => html`<button type="button" aria-pressed=${mode === which ? "true" : "false"}
      class=${mode === which ? "chosen" : ""} onClick=${() => show(which)}>${label}</button>`;
  return html`<div class="compare-board" role="group" aria-label="What the board shows">
    ${choice("before", "Before")}${played !== null ? choice("played", "As played") : null}
    ${choice("coach", "The coach's move")}
  </div>`;
}

function TurningPoint({ d, seat, seats, board, chosen, onPick, head, events, at, setAt, ghost, setGhost }) {
  const better = moveWords(d.best_events, seat, seats, board);
  return html`<li class=${chosen ? "chosen" : ""}>
    <button type="button" class="link turning" onClick=${() => onPick(d)} aria-expanded=${chosen ? "true" : "false"}>
      Turn ${d.turn}: ${better.replace(/\.$/, "")} would have scored about ${points(d.loss)} more</button>
    ${chosen ? html`<div class="compare">
      <p><strong>Played:</strong> ${moveWords(d.played_events, seat, seats, board)}</p>
      <p><strong>Better (the coach's move):</strong> ${better}</p>
      <p class="muted">Estimated final margin ${d.value_played.toFixed(1)} as played, ${d.value_best.toFixed(1)}
        with the
        better move.</p>
      <${Compare} d=${d} seat=${seat} head=${head} events=${events} at=${at} setAt=${setAt} ghost=${ghost}
        setGhost=${setGhost} />
    </div>` : null}
  </li>`;
}

function SeatAnalysis({ row, seats, board, head, at, setAt, events, ghost, setGhost }) {
  const [chosen, setChosen] = useState(null);
  const tops = useMemo(() => turningPoints(row.decisions), [row]);
  const pick = (d) => { setChosen(d.version); setGhost(null); setAt(d.version >= head ? null : d.version); };
  return html`<div class="coach-seat" data-seat=${row.seat}>
    <h3><span class="swatch" style=${`background:${seatColour(row.seat)}`} aria-hidden="true"></span>
      ${seatName(seats, row.seat)} · accuracy ${row.accuracy === null ? "—" : `${Math.round(row.accuracy)}%`}</h3>
    <${LossStrip} decisions=${row.decisions} head=${head} seat=${row.seat} at=${at} onPick=${pick} />
    ${tops.length ? html`<ol class="turning-points">${tops.map((d) => html`<${TurningPoint} key=${d.version} d=${d}
        seat=${row.seat} seats=${seats} board=${board} chosen=${chosen === d.version} onPick=${pick} head=${head}
        events=${events} at=${at} setAt=${setAt} ghost=${ghost} setGhost=${setGhost} />`)}</ol>`
      : html`<p class="muted">No decision cost a point or more: the coach agrees with this play.</p>`}
  </div>`;
}

export function AnalysisPanel({ gameId, live, seat, board, at, setAt, events, ghost, setGhost }) {
  const [analysis, setAnalysis] = useState(undefined); // undefined: loading; null: nobody asked yet
  const [trouble, setTrouble] = useState(null);
  const [tick, setTick] = useState(0);
  const token = auth.tokenFor(gameId);
  useEffect(() => {
    let gone = false;
    get(`/games/${gameId}/analysis`).then((a) => !gone && setAnalysis(a)).catch((err) => {
      if (gone) return;
      if (err instanceof ApiError && err.code === "no_analysis") setAnalysis(null);
      else setTrouble("The coach cannot be reached just now; the page will try again.");
    });
    return () => { gone = true; };
  }, [gameId, tick]);
  const waiting = analysis && (analysis.status === "pending" || analysis.status === "running");
  useEffect(() => {
    if (!waiting && !trouble) return;
    const timer = setTimeout(() => { setTrouble(null); setTick((n) => n + 1); }, POLL_MS);
    return () => clearTimeout(timer);
  }, [waiting, trouble, tick]);

  async function ask() {
    try {
      setAnalysis(await post(`/games/${gameId}/analysis`, {}, token));
    } catch (err) {
      setTrouble(err instanceof ApiError && err.code === "not_your_seat"
        ? "Only the players of this game can ask the coach."
        : "The coach could not take the request; try again shortly.");
    }
  }
  const seats = live.seats || [];
  let body;
  if (analysis === undefined) body = html`<p class="muted">Looking for the coach's notes…</p>`;
  else if (analysis === null) {
    body = seat !== null
      ? html`<p>The coach can go over this game with the search bot: each decision of the players, from what they
          could see then, and the moves that cost the most.</p>
        <button type="button" class="primary" onClick=${ask}>Ask the coach</button>`
      : html`<p class="muted">Nobody has asked the coach about this game yet.</p>`;
  } else if (waiting) {
    body = html`<p aria-live="polite">The coach is going over the game (a couple of minutes)…</p>`;
  } else if (analysis.status === "failed") {
    body = html`<p>The coach could not finish this game's analysis.</p>
      ${seat !== null ? html`<button type="button" onClick=${ask}>Try again</button>` : null}`;
  } else {
    body = html`${analysis.seats.map((row) => html`<${SeatAnalysis} key=${row.seat} row=${row} seats=${seats}
        board=${board} head=${live.version} at=${at} setAt=${setAt} events=${events} ghost=${ghost}
        setGhost=${setGhost} />`)}
      <p class="muted small">Accuracy: 100% when every decision is the one the search bot finds; a decision that
        costs a clear lead counts about a third. Points are the bot's estimate of the final margin.</p>`;
  }
  const state = analysis?.status || (analysis === null ? "none" : "");
  return html`<section class="coach" aria-labelledby="coach-h" data-coach=${state}>
    <h2 id="coach-h">Coach</h2>
    ${trouble ? html`<p class="error" role="alert">${trouble}</p>` : null}
    ${body}
  </section>`;
}

// A casual game's Hint button: the coach's move for this seat now, in words and framed on the board (the other
// seats only see that a hint was asked for). The suggestion is dropped as soon as the game moves on.
export function HintButton({ gameId, live, seat, board, version, legal }) {
  const [hint, setHint] = useState(null);
  const [trouble, setTrouble] = useState(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => { if (hint && hint.version < version) setHint(null); }, [version]);
  const marked = useHintMark(hint ? hint.command : null, legal);
  async function ask() {
    setBusy(true);
    setTrouble(null);
    try {
      setHint(await askHint(gameId, seat));
    } catch (err) {
      setTrouble(err instanceof ApiError && err.code === "not_your_turn"
        ? "A hint is for your own turn." : "No hint just now; try again in a moment.");
    } finally {
      setBusy(false);
    }
  }
  return html`<div class="hint">
    <button type="button" onClick=${ask} disabled=${busy || Boolean(hint)}>${busy ? "Thinking…" : "Hint"}</button>
    ${hint ? html`<p class="hint-text" role="status" data-command=${JSON.stringify(hint.command)}><strong>The coach
      suggests:</strong>${" "}${moveWords(hint.events, seat, live.seats || [], board)}${marked
      ? html`${" "}<span class="coach-marked">Marked in green on the board.</span>` : null}</p>` : null}
    ${trouble ? html`<p class="error" role="alert">${trouble}</p>` : null}
  </div>`;
}
