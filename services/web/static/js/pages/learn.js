// Learning a game: the how-to-play page (#/rules/<game>), "Learn to play" (#/learn/<game>: a guided first game
// against a bot) and the coach panel such a game shows beside its board.
import { useEffect, useRef, useState } from "preact/hooks";
import { html } from "../html.js";
import { auth, errorText, get, post } from "../api.js";
import { ErrorLine, gameTitle, setTitle } from "../ui.js";
import { HowToArticle, useGuide } from "../howto.js";
import { askHint, useHintMark } from "../hint.js";
import { t, tx } from "../i18n.js";

function useTypes() {
  const [types, setTypes] = useState(null);
  useEffect(() => { get("/games/types").then(setTypes).catch(() => {}); }, []);
  return types;
}

export function HowToPage({ game }) {
  const guide = useGuide(game);
  const types = useTypes();
  useEffect(() => { setTitle(guide?.title ? t("How to play {game}", { game: guide.title }) : t("How to play")); },
    [guide]);
  return html`<p><a href="#/">${t("← Back to the games")}</a></p>
    <h1>${tx("How to play: {game}",
      { game: html`<span class="guide-text">${guide?.title || gameTitle(types, game)}</span>` })}</h1>
    ${guide === null ? html`<p>${t("There is no guide for this game yet.")}</p>` : null}
    ${guide ? html`<p class="learn-cta">${tx("New to it? {learn} {start}", {
      learn: html`<a class="button primary" href=${`#/learn/${game}`}>${t("Learn to play against a bot")}</a>`,
      start: html`<a class="button" href=${`#/lobby?game=${game}`}>${t("Start a game")}</a>` })}</p>
      <${HowToArticle} guide=${guide} />` : null}`;
}

export function LearnPage({ game }) {
  const guide = useGuide(game);
  const types = useTypes();
  const [name, setName] = useState("");
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const signedIn = Boolean(auth.token());
  useEffect(() => { setTitle(guide?.title ? t("Learn {game}", { game: guide.title }) : t("Learn to play")); },
    [guide]);

  async function start(e) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      if (!auth.token()) { // the tutorial is played as a player: pick a name here, no detour
        const made = await post("/players", { name: name.trim() });
        auth.signIn(made.token, made.name, made.player_id);
      }
      const created = await post("/games", {
        game, options: guide.tutorial.options, tutorial: true, seats: [{ me: true }, { bot: "greedy" }],
      }, auth.token());
      location.hash = `#/game/${created.game_id}`;
    } catch (err) {
      setError(errorText(err));
      setBusy(false);
    }
  }
  if (guide === null) {
    return html`<p>${tx("There is no tutorial for this game yet. {back}",
      { back: html`<a href="#/">${t("Back to the games")}</a>` })}</p>`;
  }
  return html`<p><a href="#/">${t("← Back to the games")}</a></p>
    <h1>${tx("Learn to play: {game}",
      { game: html`<span class="guide-text">${guide?.title || gameTitle(types, game)}</span>` })}</h1>
    <div class="columns">
      <form class="card learn" onSubmit=${start}>
        <h2>${t("Your first game, with a coach")}</h2>
        <p class="guide-text">${guide?.coach.intro}</p>
        <ol class="steps">
          <li>${tx("A short game against a friendly bot: {length}. It is not rated.",
            { length: html`<span class="guide-text">${guide?.tutorial.length ?? "…"}</span>` })}</li>
          <li>${t("At each decision the coach beside the board says what you are choosing and suggests a good move.")}
          </li>
          <li>${t("Follow it with one tap, or play your own move. The Help button opens the rules beside the board.")}
          </li>
        </ol>
        ${signedIn ? null : html`<label for="learn-name">${t("Your name")}</label>
          <input id="learn-name" required maxlength="64" autocomplete="nickname" value=${name}
                 onInput=${(e) => setName(e.target.value)} />`}
        <button type="submit" class="primary" disabled=${busy || !guide}>${busy ? t("Setting up…")
          : t("Start the tutorial")}</button>
        <${ErrorLine} error=${error} />
      </form>
      <section class="card">
        <h2>${t("Rather read first?")}</h2>
        <p class="guide-text">${guide?.tagline}</p>
        <p><a class="button" href=${`#/rules/${game}`}>${t("How to play")}</a></p>
      </section>
    </div>`;
}

// On a phone the coach sits above the board: only the suggestion shows until the player asks why.
const WIDE = () => window.matchMedia?.("(min-width: 760px)").matches ?? true;

/** The coach beside a tutorial's board: what the decision is about, a suggested move and a button to play it.
 * The suggestion is a hint like any casual game's (the log shows one asked for at each of the seat's turns). */
export function TutorialPanel({ gameId, seat, game, live, legal, myTurn, submit, busy }) {
  const guide = useGuide(game);
  const [hint, setHint] = useState(null);
  const [error, setError] = useState(null);
  const turns = useRef(new Set());
  const asking = useRef(false);
  const version = live?.version;
  useEffect(() => {
    if (!myTurn) return setHint(null);
    // The hint's own event moves the version on: a hint for this version or the one it made is the current one,
    // and no second request starts while one is out (else each answer would ask for the next).
    if (asking.current || (hint && hint.version >= version)) return;
    asking.current = true;
    askHint(gameId, seat)
      .then((h) => {
        turns.current.add(h.version); // one tip per decision, in order
        setHint(h);
        setError(null);
      })
      .catch((err) => setError(errorText(err)))
      .finally(() => { asking.current = false; });
  }, [gameId, seat, version, myTurn, hint]);
  const command = hint && hint.version >= version ? hint.command : null;
  const pointed = useHintMark(command, legal);
  if (!guide) return null;
  const coach = guide.coach;
  const type = command?.type || legal.find((c) => !c.type.startsWith("taproom."))?.type;
  const tip = coach.firstTurns[turns.current.size - 1];
  const over = ["ended", "scored", "expired"].includes(live.status);
  return html`<section class="tutor card" aria-labelledby="tutor-h" data-coach-state=${command ? "advice" : myTurn ? "thinking" : "waiting"}>
    <h2 id="tutor-h">${t("Coach")}</h2>
    ${over ? html`<p>${tx("Well played! The final scores are at the top of the page. Ready for a real game? {start}, " +
        "or {another}.", { start: html`<a href=${`#/lobby?game=${game}`}>${t("Start one")}</a>`,
        another: html`<a href=${`#/learn/${game}`}>${t("play another tutorial")}</a>` })}</p>`
      : !myTurn ? html`<p class="muted">${t("The bot is playing. Watch the move log: the coach speaks again on your " +
        "turn.")}</p>`
      : html`
        ${command ? html`<div class="coach-advice" data-command=${JSON.stringify(command)}>
            <p><strong>${t("Suggested:")}</strong> ${(coach.moves[command.type] || (() => command.type))(command,
              live.board)}
              ${pointed ? html`${" "}<span class="coach-marked">${t("Marked in green on the board.")}</span>` : null}</p>
            <button type="button" class="primary" disabled=${busy} onClick=${() => submit(command).catch(() => {})}
              >${t("Play this move")}</button>
          </div>` : html`<p class="muted">${t("The coach is looking at your position…")}</p>`}
        <details class="coach-more" open=${WIDE()}>
          <summary>${t("Why, and a tip")}</summary>
          ${type && coach.decisions[type] ? html`<p class="coach-decision">${coach.decisions[type]}</p>` : null}
          ${tip ? html`<p class="coach-tip"><strong>${t("Tip:")}</strong> ${tip}</p>` : null}
        </details>`}
    <${ErrorLine} error=${error} />
  </section>`;
}
