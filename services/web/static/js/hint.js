// One way to ask for a hint and show it, for the tutorial's coach panel and a casual game's Hint button alike:
// POST /games/{id}/hint (the kernel's taproom.Hint: the log says a hint was asked for, the move reaches only the
// asking seat), then the suggested move framed in green on the board itself.
import { useEffect, useState } from "preact/hooks";
import { auth, post } from "./api.js";
import { boardCommands } from "./social.js";

/** The coach's move for `seat` now: {version (after the hint's own event), command, events}. */
export function askHint(gameId, seat) {
  return post(`/games/${gameId}/hint${seat !== null && seat !== undefined ? `?seat=${seat}` : ""}`, {},
    auth.tokenFor(gameId));
}

// Boards mark their targets in the DOM: an index into the legal list they were given (data-cmd, Heaven & Ale and
// Tiefenthal), a tile to pick first (data-pick-tile), or a square (data-x, data-y: Carcassonne's targets).
function pointAt(root, command, legal) {
  for (const old of root.querySelectorAll(".coach-pick")) old.classList.remove("coach-pick");
  if (!command) return false;
  const same = JSON.stringify(command);
  const index = boardCommands(legal).findIndex((c) => JSON.stringify(c) === same); // what the board was given
  const found = (index >= 0 && root.querySelector(`[data-cmd="${index}"]`))
    || (command.tile && root.querySelector(`[data-pick-tile="${CSS.escape(command.tile)}"]`))
    || (Number.isInteger(command.x)
      && root.querySelector(`[data-x="${command.x}"][data-y="${command.y}"]:not(.placed)`));
  if (found) found.classList.add("coach-pick");
  return Boolean(found);
}

/** Frames `command` (null: nothing) on the board; true once it is marked. A board redraws itself, so the mark is
 * put back on every change of the page's subtree (the board module may still be loading). */
export function useHintMark(command, legal) {
  const [marked, setMarked] = useState(false);
  useEffect(() => {
    const page = document.getElementById("main") || document.body;
    const board = () => page.querySelector(".board-module");
    const mark = () => { const root = board(); setMarked(root ? pointAt(root, command, legal) : false); };
    mark(); // a class is an attribute: marking is not itself observed
    const watcher = new MutationObserver(mark);
    watcher.observe(page, { childList: true, subtree: true });
    return () => {
      watcher.disconnect();
      for (const old of board()?.querySelectorAll(".coach-pick") || []) old.classList.remove("coach-pick");
    };
  }, [command && JSON.stringify(command), legal]);
  return marked;
}
