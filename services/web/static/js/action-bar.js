// The game page's action bar: one strip that stays in view at the foot of the board (sticky), holding what a
// turn needs: the prompt, the current choice (a board's preview, e.g. Carcassonne's drawn tile), the board's
// own buttons, the frame's Undo, and — with move confirmation on — the Confirm of a staged move.
// Boards fill it through ctx.bar.set({ prompt, preview, actions }) (see services/web/README.md).
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import { html } from "./html.js";
import { ApiError } from "./api.js";
import { UNDO } from "./social.js";
import { t } from "./i18n.js";

// -- move confirmation: a per-device setting (lichess's "confirm moves" in correspondence) --------------------
const CONFIRM_KEY = "taproom.confirmMoves";

/** On by default on a touch screen (a mis-tap is easy there), off with a mouse; a stored choice wins. */
export function confirmMovesSetting() {
  const stored = localStorage.getItem(CONFIRM_KEY);
  if (stored === "1" || stored === "0") return stored === "1";
  return !!window.matchMedia?.("(pointer: coarse)").matches;
}

export function setConfirmMoves(on) {
  localStorage.setItem(CONFIRM_KEY, on ? "1" : "0");
  window.dispatchEvent(new CustomEvent("taproom:confirm-moves", { detail: on }));
}

/** The setting as state, kept in step between the bar's switch and the settings page. */
export function useConfirmMoves() {
  const [on, setOn] = useState(confirmMovesSetting);
  useEffect(() => {
    const follow = () => setOn(confirmMovesSetting());
    window.addEventListener("taproom:confirm-moves", follow);
    window.addEventListener("storage", follow);
    return () => {
      window.removeEventListener("taproom:confirm-moves", follow);
      window.removeEventListener("storage", follow);
    };
  }, []);
  return [on, setConfirmMoves];
}

/** A staged move withdrawn before it was sent: boards treat it as "nothing happened" (no error shown). */
export const CANCELLED = "cancelled";
export const isCancelled = (err) => err?.code === CANCELLED;

/**
 * The frame's side of the bar: what the board put there, the staged move, and `send(command)` — the one
 * path every move of the page takes. With confirmation on, a move is staged and its promise stays pending
 * until Confirm (then it resolves or rejects with the server's answer) or Undo (it rejects as cancelled).
 */
export function useActionBar({ post, confirmOn, version }) {
  const [content, setContent] = useState(null);
  const [staged, setStaged] = useState(null);
  const stagedRef = useRef(null);
  stagedRef.current = staged;
  const bar = useRef({
    set: (next) => setContent(next || null),
    clear: () => setContent(null),
  }).current;
  const withdraw = useCallback(() => {
    const s = stagedRef.current;
    if (!s) return;
    stagedRef.current = null;
    setStaged(null);
    s.reject(new ApiError(0, CANCELLED, t("The move was taken back before it was sent.")));
  }, []);
  const send = useCallback((command) => {
    // the frame's own commands (Undo, Resign, votes) are not moves: Resign and votes ask in their own words
    if (!confirmOn || command.type.startsWith("taproom.")) return post(command);
    withdraw(); // one staged move at a time: a new choice replaces the last
    return new Promise((resolve, reject) => {
      const s = { command, resolve, reject };
      stagedRef.current = s;
      setStaged(s);
    });
  }, [confirmOn, post, withdraw]);
  const confirm = useCallback(() => {
    const s = stagedRef.current;
    if (!s) return;
    stagedRef.current = null;
    setStaged(null);
    post(s.command).then(s.resolve, s.reject);
  }, [post]);
  // the game moved on under a staged move (a timeout, an autopilot, another tab): it no longer applies
  useEffect(() => withdraw, [version, withdraw]);
  // switching confirmation off while a move waits sends nothing behind the player's back: it is withdrawn
  useEffect(() => { if (!confirmOn) withdraw(); }, [confirmOn, withdraw]);
  return { bar, content, staged, send, confirm, withdraw };
}

function Preview({ node }) {
  const box = useRef(null);
  useLayoutEffect(() => {
    if (!box.current) return;
    if (node instanceof Node) box.current.replaceChildren(node);
    else box.current.replaceChildren();
  }, [node]);
  if (!node) return null;
  return html`<div class="bar-preview" ref=${box} data-testid="bar-preview"
    >${node instanceof Node ? null : node}</div>`;
}

/**
 * The bar itself. `fallbackPrompt` is the frame's status line, shown when the board set no prompt.
 * `legal` is the frame's whole legal list (the game's Undo lives there); `busy` while a command is on its way.
 */
export function ActionBar({ state, fallbackPrompt, legal, busy, undo, confirmOn, setConfirmOn }) {
  const { content, staged, confirm, withdraw } = state;
  const takeBack = legal.find((c) => c.type === UNDO);
  const actions = staged ? [] : content?.actions || [];
  const ready = t("{move}: confirm to send it, or undo it.",
    { move: content?.stagedPrompt || t("Your move is ready") });
  const prompt = staged ? ready : content?.prompt || fallbackPrompt;
  return html`<div class="action-bar" role="region" aria-label=${t("Your move")} data-testid="action-bar"
      data-staged=${staged ? "1" : undefined}>
    <div class="bar-main">
      <${Preview} node=${content?.preview} />
      <p class="bar-prompt" aria-live="polite" data-testid="bar-prompt">${prompt}</p>
    </div>
    <div class="bar-actions">
      ${actions.map((a) => html`<button type="button" key=${a.id} data-action=${a.id} data-cmd=${a.cmd}
          class=${a.primary ? "primary" : a.chosen ? "chosen" : ""} aria-pressed=${a.chosen ? "true" : undefined}
          title=${a.title || undefined} disabled=${busy || a.disabled} onClick=${a.onClick}>${a.label}</button>`)}
      ${staged ? html`<button type="button" class="primary" data-action="send" disabled=${busy} onClick=${confirm}>
          ${t("✓ Confirm")}</button>
        <button type="button" class="undo" data-action="unstage" onClick=${withdraw}
          title=${t("Take this choice back: nothing has been sent")}>${t("↶ Undo")}</button>` : null}
      ${!staged && takeBack ? html`<button type="button" class="undo" data-action="undo" disabled=${busy}
          onClick=${() => undo(takeBack)} title=${t("Take back your last move of this turn")}>${t("↶ Undo")}</button>`
        : null}
      <label class="bar-confirm" title=${t("Ask for a Confirm tap before a move is sent")}>
        <input type="checkbox" role="switch" checked=${confirmOn} data-testid="confirm-moves"
               onChange=${(e) => setConfirmOn(e.target.checked)} /> ${t("Confirm moves")}</label>
    </div>
  </div>`;
}
