// Small pure formatting rules of the frame (no DOM, no imports), unit-tested with node's test runner.

// The tab title: "(2) Lobby — Taproom" while two games wait for the player.
export function titleText(text, waiting = 0) {
  return `${waiting > 0 ? `(${waiting}) ` : ""}${text} — Taproom`;
}

// Ratings: the service ranks by openskill's conservative estimate μ − 3σ, which starts at 0 for a newcomer
// (μ 25, σ 25/3) and dips below 0 after a first loss. Players read it on a familiar scale instead: 1000 at
// the start, 40 points per unit of μ − 3σ (an established average player, σ ≈ 1.5, sits near 1800), never
// below 0. A rating stays "provisional" until PROVISIONAL_GAMES rated games (see the README).
export const RATING_BASE = 1000;
export const RATING_SCALE = 40;
export const PROVISIONAL_GAMES = 10;

export function displayRating(conservative) {
  if (typeof conservative !== "number" || !Number.isFinite(conservative)) return null;
  return Math.max(0, Math.round(RATING_BASE + RATING_SCALE * conservative));
}

export const isProvisional = (games) => !(games >= PROVISIONAL_GAMES);

// "1040?" while provisional (lichess's mark), "1812" after.
export function ratingText(conservative, games) {
  const shown = displayRating(conservative);
  if (shown === null) return "–";
  return `${shown}${isProvisional(games) ? "?" : ""}`;
}
