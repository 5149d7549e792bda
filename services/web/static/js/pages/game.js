// The game page frame: seats, clock, move log in words, board (the game's module or the generic one),
// controls, history slider, live stream, end-of-game sheet and fairness panel.
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from "preact/hooks";
import { html } from "../html.js";
import { ApiError, auth, errorText, gameTypes, get, post, submitCommand } from "../api.js";
import { isTransient, retryDelay } from "../errors.js";
import { refreshWaiting, useOnline } from "../waiting.js";
import { NameField, ensurePlayer } from "../identity.js";
import { follow } from "../stream.js";
import { describe, seatName, seatNews } from "../words.js";
import { BOARDS } from "../../boards/registry.js";
import { GenericBoard } from "../generic-board.js";
import { FairnessPanel, ScoreSheet } from "../endgame.js";
import { ErrorLine, GameFlags, ago, gameTitle, listText, now, seatColour, setTitle, until } from "../ui.js";
import { RematchButton, ResignButton, VotePanel, boardCommands } from "../social.js";
import { ChatPanel } from "../chat.js";
import { ActionBar, useActionBar, useConfirmMoves } from "../action-bar.js";
import { HelpButton } from "../howto.js";
import { TutorialPanel } from "./learn.js";
import { AnalysisPanel, HintButton } from "../coach.js";
import { N_, t, tn, tx } from "../i18n.js";

const FINISHED = ["ended", "scored", "expired"];
const BOT_LEVELS = { random: N_("random"), greedy: N_("greedy"), search: N_("search") };
const botLevel = (level) => (Object.hasOwn(BOT_LEVELS, level) ? t(BOT_LEVELS[level]) : level);
const NO_COMMANDS = [];
const VIEW_FRAME_WAIT_MS = 400; // how long a run of events waits for its view frame before the page asks
const MOVE_SHOWN_WAIT_MS = 1500; // how long the mover's page waits for the stream to show its move

export function GamePage({ gameId, params }) {
  // An invited seat's link carries its token in the fragment: keep it for this game and clean the address bar.
  const seatToken = params.get("seat");
  if (seatToken) {
    auth.setSeatToken(gameId, seatToken);
    history.replaceState(null, "", `#/game/${gameId}`);
  }
  const token = auth.tokenFor(gameId);
  const [live, setLive] = useState(null); // the latest view response (meta + seat + board)
  const [legal, setLegal] = useState([]);
  const [events, setEvents] = useState([]);
  const [at, setAt] = useState(null); // null: follow the head; a number: show that past version
  const [past, setPast] = useState(null);
  const [clock, setClock] = useState(null);
  const [verdict, setVerdict] = useState(null);
  const [connection, setConnection] = useState("connecting");
  const connectionRef = useRef(connection);
  connectionRef.current = connection;
  const [error, setError] = useState(null);
  const [unknown, setUnknown] = useState(false); // the server has no game of this id: say so, stop asking
  const [busy, setBusy] = useState(false);
  const online = useOnline();
  const [types, setTypes] = useState(null);
  const [boardModule, setBoardModule] = useState(undefined); // undefined: loading; null: generic board
  const [chatIn, setChatIn] = useState([]); // chat messages that came on the stream
  const refreshTimer = useRef(null);
  const wasMyTurn = useRef(false);
  const verdictFor = useRef(null);
  const drawnVersion = useRef(0);
  const clockTries = useRef(0);
  const failures = useRef(0); // refreshes failed in a row: the next try waits longer
  const applied = useRef({ gameId: null, version: -1 }); // the newest version a refresh has shown
  const shownWaiters = useRef([]); // callers waiting until the page shows a version (see shownAt)
  useLayoutEffect(() => { // with the board's own update (a layout effect too): what it drew in this commit
    drawnVersion.current = (at === null ? live : past || live)?.version || 0;
  });

  // Draw a view and its legal commands, from a refresh or from the stream's view frame. Both overlap (the answer
  // to a move, the stream's events, a status change): an older view must not replace a newer one already shown —
  // the player's targets would vanish (and the page say "waiting") until the next event.
  const show = useCallback((view, commands) => {
    const last = applied.current;
    if (last.gameId === gameId && view.version < last.version) return false;
    applied.current = { gameId, version: view.version };
    setLive(view);
    setLegal(commands);
    setError(null);
    failures.current = 0;
    for (const waiter of shownWaiters.current.splice(0)) waiter();
    if (view.pace) get(`/games/${gameId}/clock`).then(setClock).catch(() => {});
    if (FINISHED.includes(view.status) && verdictFor.current !== view.status) {
      verdictFor.current = view.status; // once per status: the scored game's verdict does not change
      get(`/games/${gameId}/verify`).then(setVerdict).catch(() => { verdictFor.current = null; });
      if (view.status === "scored") {
        // the history was redacted for this seat while the game ran; at the end all is revealed
        get(`/games/${gameId}/events?after=0&limit=5000`).then((h) => setEvents(h.events)).catch(() => {});
      }
    }
    return true;
  }, [gameId]);
  // Resolves true once the page shows ``version`` (the stream's view frame brought it), false after ``ms``.
  const shownAt = (version, ms) => new Promise((resolve) => {
    if (applied.current.gameId === gameId && applied.current.version >= version) return resolve(true);
    const timer = setTimeout(() => resolve(false), ms);
    const waiter = () => {
      if (applied.current.version < version) return shownWaiters.current.push(waiter);
      clearTimeout(timer);
      resolve(true);
    };
    shownWaiters.current.push(waiter);
  });

  const refresh = useCallback(async () => {
    try {
      let view = null;
      let commands = [];
      if (token) {
        try {
          // the view and the legal list are read side by side: when the game moved between the two reads they
          // disagree (a board drawn from one version with the targets of another), so both are read again
          for (let attempt = 0; ; attempt++) {
            const [v, l] = await Promise.all([get(`/games/${gameId}/view`, token),
              get(`/games/${gameId}/legal`, token)]);
            view = v;
            commands = l.commands;
            if (l.version === v.version || attempt >= 2) break;
          }
        } catch (err) {
          // a player who holds no seat here watches like a spectator
          const noSeat = ["not_your_seat", "unauthorized", "signed_out"].includes(err.code);
          if (!(err instanceof ApiError) || !noSeat) throw err;
        }
      }
      if (!view) view = await get(`/games/${gameId}`);
      show(view, commands);
      return true;
    } catch (err) {
      clearTimeout(refreshTimer.current);
      if (err.status === 404 && applied.current.gameId !== gameId) {
        setUnknown(true); // an unknown game stays unknown: no retry loop
        return false;
      }
      // a page left open over days must heal by itself: try again, waiting longer each time, and say so
      const wait = isTransient(err) ? retryDelay(failures.current++) : null;
      setError(wait ? t("{error} Trying again in {seconds} s.",
        { error: errorText(err), seconds: Math.round(wait / 1000) }) : errorText(err));
      if (wait) refreshTimer.current = setTimeout(() => refreshRef.current(), wait);
      return true;
    }
  }, [gameId, token, show]);
  const refreshRef = useRef(refresh);
  refreshRef.current = refresh;
  useEffect(() => {
    // back online, or a phone tab shown again: catch up at once
    const wake = () => document.visibilityState === "visible" && refreshRef.current();
    window.addEventListener("online", wake);
    document.addEventListener("visibilitychange", wake);
    return () => {
      window.removeEventListener("online", wake);
      document.removeEventListener("visibilitychange", wake);
    };
  }, []);

  // First load: the history so far, then the stream from its last version.
  useEffect(() => {
    let stream = null;
    let stopped = false;
    (async () => {
      if (!(await refresh()) || stopped) return;
      let history;
      try {
        history = await get(`/games/${gameId}/events?after=0&limit=5000`, token);
      } catch (err) {
        // a seat token only speaks for its own game; a player with no seat reads the public history
        history = await get(`/games/${gameId}/events?after=0&limit=5000`).catch(() => ({ events: [], version: 0 }));
      }
      if (stopped) return;
      setEvents(history.events);
      // The stream starts at the version the page shows, not at the end of the history: a move made between
      // the view's read and the history's is in the history but not on the page, and nothing else would bring
      // it (the stream would start after it). Events the history already has are not listed twice.
      const read = history.events.length ? history.events[history.events.length - 1].version : 0;
      const shown = applied.current.gameId === gameId ? applied.current.version : -1;
      const after = shown >= 0 ? Math.min(shown, read) : read;
      // The stream follows each run of events with the view and legal commands they lead to (event: view): the
      // page redraws from it, asking nothing. The refresh requests are the fallback: a gap in the versions, or a
      // run of events whose view does not come (an archived game; the models behind the log). The events of a
      // run are listed with the view they lead to, in one redraw (one by one, each was a redraw of its own).
      const pending = [];
      const list = () => {
        const run = pending.splice(0);
        const newer = (all) => run.filter((e) => !all.length || e.version > all.at(-1).version);
        if (run.length) setEvents((all) => [...all, ...newer(all)]);
      };
      const fallback = (ms) => {
        clearTimeout(refreshTimer.current);
        refreshTimer.current = setTimeout(() => { list(); refresh(); }, ms);
      };
      stream = follow(gameId, {
        after, token,
        onEvent(event, gap) {
          pending.push(event);
          if (gap) return fallback(15); // a burst of events (a bot's whole turn) refreshes once
          if (applied.current.version < event.version) return fallback(VIEW_FRAME_WAIT_MS);
          list(); // the page shows it already (a refresh came first)
        },
        onView(frame) {
          list();
          if (!frame.view) return;
          show(frame.view, frame.legal ? frame.legal.commands : []);
          if (applied.current.version >= stream.version) clearTimeout(refreshTimer.current);
        },
        onEnd: () => refresh(),
        onConnection: setConnection,
        onChat: (message) => setChatIn((all) => [...all.slice(-199), message]),
      });
    })();
    return () => {
      stopped = true;
      stream?.stop();
      clearTimeout(refreshTimer.current);
    };
  }, [gameId, token, refresh]);

  useEffect(() => {
    gameTypes().then(setTypes).catch(() => {});
  }, []);

  // The game's board module, or the generic board when none is registered.
  const gameType = live?.game;
  useEffect(() => {
    if (!gameType) return;
    const loader = BOARDS[gameType];
    if (!loader) return setBoardModule(null);
    loader().then((m) => setBoardModule(m)).catch((err) => {
      console.error("board module failed; using the generic board", err);
      setBoardModule(null);
    });
  }, [gameType]);

  // A timed game's clock is set by the service shortly after a turn begins: ask again until the seats to act
  // have their deadline, then now and then so "waiting" and "deadline in" stay current on an open page.
  useEffect(() => {
    if (!live?.pace || FINISHED.includes(live.status)) return;
    const known = new Set((clock?.seats || []).filter((r) => r.deadline).map((r) => r.seat));
    const missing = (live.to_act || []).some((s) => !known.has(s)) && clockTries.current++ < 10;
    if (!missing) clockTries.current = 0;
    const ask = () => get(`/games/${gameId}/clock`).then(setClock).catch(() => {});
    const timer = setTimeout(ask, missing ? 1500 : 30000);
    return () => clearTimeout(timer);
  }, [live, clock, gameId]);

  const head = live?.version || 0;
  // A turning point's ghost ({seat, version}): the board as the coach's move would have left it, instead of the past.
  const [ghost, setGhost] = useState(null);
  const [ghostView, setGhostView] = useState(null);
  useEffect(() => {
    setGhostView(null);
    if (!ghost) return undefined;
    let gone = false;
    get(`/games/${gameId}/analysis/better?seat=${ghost.seat}&version=${ghost.version}`, token)
      .then((v) => !gone && setGhostView(v))
      .catch((err) => {
        if (!gone) {
          setGhost(null);
          setError(t("The coach's move cannot be shown: {error}", { error: errorText(err) }));
        }
      });
    return () => { gone = true; };
  }, [ghost, gameId, token]);
  useEffect(() => { if (ghost && at !== ghost.version) setGhost(null); }, [at]); // the slider moved on
  const ghosted = Boolean(ghost && ghostView);
  useEffect(() => { // on a phone the board stands far above the coach's notes: bring the ghost into view
    if (ghosted && window.matchMedia("(max-width: 700px)").matches) {
      document.querySelector(".board-area")?.scrollIntoView({ block: "start" });
    }
  }, [ghosted]);
  // History: fetch the view at the chosen version (hidden information stays hidden for this seat).
  useEffect(() => {
    if (at === null) return setPast(null);
    let gone = false;
    const timer = setTimeout(() => {
      get(`/games/${gameId}/at/${at}`, token).then((v) => !gone && setPast(v))
        .catch((err) => !gone && setError(t("Version {version} cannot be shown: {error}",
          { version: at, error: errorText(err) })));
    }, 60); // dragging the slider asks only for where it stops
    return () => { gone = true; clearTimeout(timer); };
  }, [at, gameId, token]);

  const step = useCallback((delta) => {
    setAt((current) => {
      const next = Math.min(head, Math.max(1, (current ?? head) + delta));
      return next >= head ? null : next;
    });
  }, [head]);
  useEffect(() => {
    const onKey = (e) => {
      if (e.target.closest?.("input, select, textarea, [contenteditable]")) return;
      if (e.key === "ArrowLeft") step(-1);
      else if (e.key === "ArrowRight") step(1);
      else return;
      e.preventDefault();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [step]);

  const seat = live && Number.isInteger(live.seat) ? live.seat : null;
  const myTurn = at === null && boardCommands(legal).length > 0;
  useEffect(() => {
    if (unknown) return setTitle(t("Game not found"));
    setTitle(myTurn ? t("Your turn") : live ? gameTitle(types, live.game) : t("Game"), myTurn ? 1 : 0);
    if (myTurn && !wasMyTurn.current && document.hidden && window.Notification?.permission === "granted") {
      new Notification(t("Your turn — Taproom"), { body: t("Game {id}", { id: gameId }), tag: gameId });
    }
    if (myTurn !== wasMyTurn.current) refreshWaiting(); // the nav's count of games waiting changes with it
    wasMyTurn.current = myTurn;
  }, [myTurn, live, gameId, types, unknown]);

  async function post(command) {
    setBusy(true);
    setError(null);
    try {
      const result = await submitCommand(gameId, command, token);
      // an accepted move comes back on the stream with its view; ask only when the stream is not there to bring it
      const shown = result?.status === "accepted" && connectionRef.current === "live"
        && await shownAt(result.version, MOVE_SHOWN_WAIT_MS);
      if (!shown) await refresh();
      // a board prints a refusal's message: in words, never the API's
      return result?.status === "rejected" ? { ...result, message: errorText(result) } : result;
    } catch (err) {
      setError(errorText(err));
      throw inWords(err);
    } finally {
      setBusy(false);
    }
  }

  // every move goes through the action bar: with move confirmation on it waits there for Confirm
  const [confirmOn, setConfirmOn] = useConfirmMoves();
  const postRef = useRef(post);
  postRef.current = post;
  const stablePost = useCallback((command) => postRef.current(command), []);
  const actionBar = useActionBar({ post: stablePost, confirmOn, version: live?.version });
  const submit = actionBar.send;
  // the board's legal list keeps its identity between renders: a board that fills the bar on update would
  // otherwise be updated again by the bar's own re-render, without end
  const boardLegal = useMemo(() => boardCommands(legal), [legal]);

  if (unknown) return html`<${UnknownGame} gameId=${gameId} />`; // after every hook of the page
  if (!live) {
    return html`<${ErrorLine} error=${error} /><p class="loading">${t("Loading game {id}…", { id: gameId })}</p>`;
  }
  const shown = ghosted ? ghostView : at === null ? live : past || live;
  const seats = live.seats || [];
  const seatInfo = seats.map((s, i) => ({ seat: i, name: seatName(seats, i), colour: seatColour(i), bot: s.bot }));
  const readOnly = at !== null || seat === null;
  // events the board has not been told about: from the version it drew last up to the one it draws now
  const lastEvents = ghosted ? [] // the ghost's events were never played: nothing to animate from the history
    : events.filter((e) => e.version > drawnVersion.current && e.version <= shown.version);
  const boardState = {
    // the frame offers Undo itself (boards draw the game's own commands)
    view: shown.board, legal: readOnly ? NO_COMMANDS : boardLegal, version: shown.version, head,
    status: live.status,
    readOnly, lastEvents,
  };
  const ctx = {
    game: live.game, gameId, seat, seatInfo, t, bar: actionBar.bar,
    api: {
      submit,
      description: () => get(`/games/types/${live.game}/description`).catch((err) =>
        err.status === 404 ? null : Promise.reject(inWords(err))),
    },
  };
  return html`<div class="game" data-version=${shown.version} data-head=${head} data-status=${live.status}
      data-ready=${boardModule === undefined ? undefined : "1"} data-my-turn=${myTurn ? "1" : "0"}>
    <div class="game-head">
      <h1>${gameTitle(types, live.game)} <span class="muted">${t("· game {id}", { id: gameId })}</span><${GameFlags}
        meta=${live} /></h1>
      <p class="status" aria-live="polite">
        ${statusLine(live, seat, myTurn, seats)}
        <${Connection} state=${connection} online=${online} />
      </p>
      ${at === null && seat !== null ? html`<${VotePanel} legal=${legal} submit=${submit} busy=${busy} seats=${seats}
          seat=${seat} />
        <${ResignButton} legal=${legal} submit=${submit} busy=${busy} seats=${seats} />` : null}
      ${live.hints && !live.tutorial && myTurn && at === null ? html`<${HintButton} gameId=${gameId} live=${live}
          seat=${seat} board=${boardModule} version=${head} legal=${legal} />` : null}
      ${seat === null ? html`<p class="muted">${t("Watching as a spectator: you see what everyone sees.")}</p>` : null}
      ${seat !== null && !FINISHED.includes(live.status) ? html`<${NotifyButton} />` : null}
      <${HelpButton} game=${live.game} title=${gameTitle(types, live.game)} />
    </div>
    <${ErrorLine} error=${error} />
    ${live.status === "open" && seat === null
      ? html`<${JoinBar} gameId=${gameId} live=${live} onJoined=${refresh} />` : null}
    ${FINISHED.includes(live.status) || live.scores ? html`<${ScoreSheet} meta=${live} />` : null}
    <${RematchButton} gameId=${gameId} live=${live} seat=${seat} />
    <div class=${live.tutorial && seat !== null ? "game-grid coached" : "game-grid"}>
      ${live.tutorial && seat !== null ? html`<${TutorialPanel} gameId=${gameId} seat=${seat} game=${live.game}
          live=${live} legal=${legal} myTurn=${myTurn} submit=${submit} busy=${busy} />` : null}
      <section class=${ghosted ? "board-area ghosted" : "board-area"} aria-label=${t("Board")}>
        ${ghosted ? html`<p class="ghost-note" role="status">${tx("{move}, drawn on the game's own dice: not what " +
          "was played. {back}", { move: html`<strong>${t("The coach's move")}</strong>`,
          back: html`<button type="button" class="link" onClick=${() => setGhost(null)}>${
            t("Show the position before it")}</button>` })}</p>` : null}
        ${boardModule ? html`<${ModuleBoard} module=${boardModule} ctx=${ctx} state=${boardState} />`
                      : boardModule === null ? html`<${GenericBoard} ctx=${ctx} state=${boardState} busy=${busy} />`
                      : null}
        ${!readOnly && !FINISHED.includes(live.status) ? html`<${ActionBar} state=${actionBar} legal=${legal}
            busy=${busy} fallbackPrompt=${statusLine(live, seat, myTurn, seats)} undo=${(c) => post(c).catch(() => {})}
            confirmOn=${confirmOn} setConfirmOn=${setConfirmOn} />` : null}
      </section>
      <aside class="side">
        <${Seats} live=${live} seat=${seat} clock=${clock} />
        <${ChatPanel} gameId=${gameId} token=${token} seat=${seat} status=${live.status} incoming=${chatIn}
                      connection=${online ? connection : "offline"} at=${at} />
        <${HistorySlider} at=${at} head=${head} setAt=${setAt} step=${step} />
        ${live.status === "scored" ? html`<${AnalysisPanel} gameId=${gameId} live=${live} seat=${seat}
            board=${boardModule} at=${at} setAt=${setAt} events=${events} ghost=${ghost} setGhost=${setGhost} />`
          : null}
        <${MoveLog} events=${events} seats=${seats} board=${boardModule} upTo=${shown.version} />
      </aside>
    </div>
    <${FairnessPanel} meta=${live} verdict=${verdict} />
  </div>`;
}

// What the page knows of its link to the server: the stream's state, overruled by the browser going offline
// (an EventSource may sit in "open" for a while after the network went away).
function Connection({ state, online }) {
  if (!online) {
    return html`<span class="conn offline" data-conn="offline">${t("○ offline: moves wait until you are back")}</span>`;
  }
  if (state === "ended") return null;
  const words = { live: t("● live"), connecting: t("○ connecting…"), reconnecting: t("○ reconnecting…") };
  return html`<span class=${`conn ${state}`} data-conn=${state}>${words[state] || `○ ${state}`}</span>`;
}

function UnknownGame({ gameId }) {
  return html`<section class="card not-found" aria-labelledby="nf-h">
    <h1 id="nf-h">${t("No game here")}</h1>
    <p>${tx("There is no game {id} on this server. The link may be mistyped or cut short, or the game was removed.",
      { id: html`<strong>${gameId}</strong>` })}</p>
    <p class="actions"><a class="button primary" href="#/lobby">${t("Go to the lobby")}</a>
      ${auth.token() ? html`<a class="button" href="#/inbox">${t("Your games")}</a>`
                     : html`<a class="button" href="#/">${t("Start page")}</a>`}</p>
  </section>`;
}

// The error a board receives: its code kept (a board may act on it), its message the words a player reads.
const inWords = (err) => new ApiError(err?.status ?? 0, err?.code ?? null, errorText(err));

function statusLine(live, seat, myTurn, seats) {
  if (live.status === "open") return t("Waiting for players to join.");
  if (FINISHED.includes(live.status)) {
    const news = seatNews(live.seats);
    if (live.status === "scored") return news ? t("The game is over: {news}.", { news }) : t("The game is over.");
    return live.status === "expired" ? t("The game has expired.") : t("The game has ended.");
  }
  if (myTurn) return t("Your turn.");
  const others = (live.to_act || []).filter((s) => s !== seat).map((s) => seatName(seats, s));
  if ((live.to_act || []).includes(seat)) {
    return others.length ? t("Waiting for you and {names}.", { names: listText(others) }) : t("Waiting for you.");
  }
  return others.length ? t("Waiting for {names}.", { names: listText(others) }) : t("Thinking…");
}

// A registered board module, mounted once and told about every change (see services/web/README.md).
function ModuleBoard({ module, ctx, state }) {
  const root = useRef(null);
  const instance = useRef(null);
  const ctxRef = useRef(ctx);
  ctxRef.current = ctx;
  // Layout effects, run as the frame commits: the board draws the version the frame shows in the same frame.
  // (A plain effect runs a frame later: meanwhile the page said version N with the board still at N-1, its
  // targets those of the move just sent, and a click there went to a board about to change under it.)
  useLayoutEffect(() => {
    // the module keeps this ctx; its api calls always reach the page's current functions
    const stable = {
      ...ctx,
      // a seat taken or renamed after the mount reaches the board: it reads these when it draws
      get seatInfo() { return ctxRef.current.seatInfo; },
      api: { submit: (c) => ctxRef.current.api.submit(c), description: () => ctxRef.current.api.description() },
    };
    instance.current = module.mount(root.current, stable);
    return () => {
      instance.current?.destroy();
      ctx.bar.clear(); // what the board put in the action bar goes with it
    };
  }, [module]);
  const seatKey = JSON.stringify(ctx.seatInfo);
  useLayoutEffect(() => {
    instance.current?.update(state);
  }, [state.version, state.head, state.legal, state.readOnly, state.status, state.view, seatKey]);
  return html`<div class="board-module" ref=${root}></div>`;
}

function Seats({ live, seat, clock }) {
  const scores = Object.fromEntries((live.scores || []).map((s) => [s.seat, s.total]));
  const clocks = Object.fromEntries((clock?.seats || []).map((r) => [r.seat, r]));
  return html`<section aria-labelledby="seats-h" class="seats">
    <h2 id="seats-h">${t("Seats")}</h2>
    <ul>${live.seats.map((s, i) => {
      const acting = (live.to_act || []).includes(i);
      const c = clocks[i];
      const waited = acting && c?.deadline
        ? t("waiting {time} · deadline {when}", { time: ago(now() - c.waiting_since), when: until(c.deadline) }) : "";
      return html`<li key=${i} class=${acting ? "acting" : ""}>
        <span class="swatch" style=${`background:${seatColour(i)}`} aria-hidden="true"></span>
        <span class="seat-name">${i === seat ? t("{name} (you)", { name: seatName(live.seats, i) })
          : seatName(live.seats, i)}</span>
        ${s.bot ? html`<span class="badge">${t("bot · {level}", { level: botLevel(s.bot) })}</span>` : null}
        ${s.open ? html`<span class="badge">${t("open")}</span>` : null}
        ${s.invited ? html`<span class="badge">${t("invited: {name}", { name: s.invited.name || s.invited.handle })
          }</span>` : null}
        ${s.away ? html`<span class="badge">${t("autopilot")}</span>` : null}
        ${s.left ? html`<span class="badge left">${s.left === "resigned" ? t("resigned") : t("left")}</span>` : null}
        ${s.absent ? html`<span class="badge">${t("away")}</span>` : null}
        ${s.timeouts ? html`<span class="badge">${tn("{n} missed turn", "{n} missed turns", s.timeouts)}</span>` : null}
        ${acting ? html`<span class="badge to-act">${t("to act")}</span>` : null}
        ${i in scores ? html`<strong class="score">${scores[i]}</strong>` : null}
        ${waited ? html`<small class="clock">${waited}</small>` : null}
      </li>`;
    })}</ul>
    ${live.pace ? html`<p class="muted">${live.pace.per_move_seconds
      ? t("Pace: {time} a move", { time: ago(live.pace.per_move_seconds) }) : t("Pace: time bank")}</p>` : null}
  </section>`;
}

function HistorySlider({ at, head, setAt, step }) {
  if (head < 2) return null;
  const value = at ?? head;
  return html`<section class="history" aria-labelledby="history-h">
    <h2 id="history-h">${t("History")}</h2>
    <div class="slider-row">
      <button type="button" onClick=${() => step(-1)} disabled=${value <= 1} aria-label=${t("One version back")}
        >◀</button>
      <input type="range" id="history" min="1" max=${head} value=${value} aria-label=${t("Version shown")}
             aria-valuetext=${t("version {value} of {head}", { value, head })}
             onInput=${(e) => { const v = Number(e.target.value); setAt(v >= head ? null : v); }} />
      <button type="button" onClick=${() => step(1)} disabled=${at === null} aria-label=${t("One version forward")}
        >▶</button>
    </div>
    <p class="muted">${at === null ? t("Live · version {head}", { head })
      : html`${t("Showing version {value} of {head}", { value, head })}
      <button type="button" class="link" onClick=${() => setAt(null)}>${t("Back to live")}</button>`}</p>
  </section>`;
}

function MoveLog({ events, seats, board, upTo }) {
  const list = useRef(null);
  // a board whose sentences need its description (card names) says when they are ready: word the log again then
  const [worded, setWorded] = useState(0);
  useEffect(() => { board?.wordsReady?.then(() => setWorded((n) => n + 1)); }, [board]);
  const lines = useMemo(() => events.map((e) => ({ version: e.version, text: describe(e, seats, board) })),
    [events, seats, board, worded]);
  useEffect(() => {
    if (list.current) list.current.scrollTop = list.current.scrollHeight;
  }, [lines.length]);
  return html`<section class="log" aria-labelledby="log-h">
    <h2 id="log-h">${t("Moves")}</h2>
    <p class="sr-only" aria-live="polite">${lines.length ? lines[lines.length - 1].text : ""}</p>
    <ol ref=${list} class="log-list">
      ${lines.map((l) => html`<li key=${l.version} value=${l.version}
          class=${l.version > upTo ? "future" : ""}>${l.text}</li>`)}
    </ol>
  </section>`;
}

function JoinBar({ gameId, live, onJoined }) {
  const [error, setError] = useState(null);
  const [name, setName] = useState(""); // a visitor picks a name here and joins in the same step
  const open = live.seats.filter((s) => s.open).length;
  async function join(event) {
    event?.preventDefault();
    try {
      const token = await ensurePlayer(name);
      await post(`/games/${gameId}/join`, {}, token);
      location.reload(); // the page now acts as this seat: start over with its token, view and stream
    } catch (err) {
      setError(errorText(err));
      onJoined();
    }
  }
  return html`<form class="card join-bar" onSubmit=${join}>
    <p>${tn("{n} seat open.", "{n} seats open.", open)}</p>
    ${auth.token() ? null : html`<${NameField} id="join-name" value=${name} onInput=${setName} />`}
    <button type="submit" class="primary">${t("Join this game")}</button>
    <${ErrorLine} error=${error} />
  </form>`;
}

function NotifyButton() {
  const [permission, setPermission] = useState(window.Notification?.permission);
  if (!window.Notification || permission !== "default") return null;
  return html`<button type="button" class="link" onClick=${() => Notification.requestPermission().then(setPermission)}>
    ${t("Notify me when it is my turn")}</button>`;
}
