// The move log in words, built from the redacted events alone (a board module may word its own events).

const KERNEL = {
  "taproom.GameCreated": () => "The game was created.",
  "taproom.SeatClaimed": (p, who) => `${p.name || who} took seat ${(p.seat ?? 0) + 1}.`,
  "taproom.GameStarted": () => "The game started.",
  "taproom.GameEnded": () => "The game ended.",
  "taproom.GameScored": () => "The final scores are in.",
  "taproom.SeedRevealed": () => "The seed was revealed: anyone can now check every draw.",
  "taproom.GameExpired": () => "The game expired before it filled.",
  "taproom.SeatAutopiloted": (p, who) => `${who} ran out of time; the autopilot plays for them.`,
  "taproom.SeatReclaimed": (p, who) => `${who} is back.`,
  "taproom.TurnTimedOut": (p, who) => `${who} ran out of time; this turn is played for them.`,
  "taproom.SeatReturned": (p, who) => `${who} has the seat back for the next turn.`,
  "taproom.VoteCast": (p, who, name) =>
    `${who} voted to ${p.choice === "end" ? "end the game" : "let a bot take over"} for ${name(p.about_seat)}.`,
  "taproom.VoteWithdrawn": (p, who, name) => `${who} withdrew their vote about ${name(p.about_seat)}.`,
  "taproom.MoveUndone": (p, who) => `${who} took back a move.`,
  "taproom.HintAsked": (p, who) => `${who} asked the coach for a hint.`,
  "taproom.VotePassed": (p, who, name) =>
    `The table agreed: ${p.choice === "end" ? "the game ends as it stands"
      : `a bot takes over from ${name(p.about_seat)}`}.`,
  "taproom.SeatLeft": (p, who) => leftWords(p, who),
  "taproom.SeatAbsent": (p, who) =>
    `${who} has not moved for a long while: the others may vote to end the game or to give the seat to a bot.`,
};

// What happened to a game's seats, for the inbox, the lobby and the profile ("Ann resigned"); "" when nothing did.
export function seatNews(seats) {
  const news = [];
  (seats || []).forEach((s, i) => {
    const who = s.name || `Seat ${i + 1}`;
    if (s.left === "resigned") news.push(`${who} resigned`);
    else if (s.left === "idle") news.push(`${who} left the game; it ended after a long wait`);
    else if (s.left) news.push(`${who} left the game; ${s.bot ? "a bot took the seat" : "the table ended it"}`);
    else if (s.absent) news.push(`${who} is away; the table may vote`);
  });
  return news.join(" · ");
}

// A seat's player left for good: who, how, and what became of the game.
export function leftWords(p, who) {
  const after = p.level ? `a bot plays the seat to the end` : null;
  if (p.how === "resigned") return after ? `${who} resigned; ${after}.` : `${who} resigned.`;
  if (p.how === "idle") return `${who} left the game: nobody moved for too long, so it ended.`;
  return `${who} left the game; ${after ? `the table gave the seat to a bot` : "the table ended it"}.`;
}

const HIDDEN = "hidden"; // what the server puts in place of a private field

function splitWords(type) {
  return type.replace(/^taproom\./, "").replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase().split(" ");
}

// "TilePlaced" → "placed tile": events are past tense, and the verb reads better first.
function phrase(type) {
  const words = splitWords(type);
  const verbAt = words.findIndex((w) => /(ed|wn|lt|pt|ght|ken|id|ne|ew|ot|ung|uck|ought)$/.test(w) && w.length > 3);
  if (verbAt > 0) {
    const [verb] = words.splice(verbAt, 1);
    words.unshift(verb);
  }
  return words.join(" ");
}

function detail(value) {
  if (value === HIDDEN || value === null) return "hidden";
  if (Array.isArray(value)) return value.length > 6 ? `${value.length} items` : value.map(detail).join(" ");
  if (typeof value === "object") return "…";
  return String(value);
}

export function seatName(seats, seat) {
  const s = seats?.[seat];
  return s?.name || (s?.bot ? `Bot ${seat + 1}` : `Seat ${seat + 1}`);
}

export function describe(event, seats, board) {
  const p = event.payload || {};
  const seat = Number.isInteger(p.seat) ? p.seat : Number.isInteger(p.player) ? p.player : null;
  const who = seat === null ? "" : seatName(seats, seat);
  const custom = board?.describe?.(event, { seats });
  if (custom) return custom;
  const kernel = KERNEL[event.type];
  if (kernel) return kernel(p, who || "A seat", (n) => seatName(seats, n));
  const facts = Object.entries(p)
    .filter(([k, v]) => !["seat", "player", "type"].includes(k)
      && (typeof v !== "object" || v === null || Array.isArray(v)))
    .slice(0, 4)
    .map(([k, v]) => `${k.replace(/_/g, " ")} ${detail(v)}`);
  const text = `${who ? who + " " : ""}${phrase(event.type)}`;
  const sentence = text.charAt(0).toUpperCase() + text.slice(1);
  return facts.length ? `${sentence} (${facts.join(", ")}).` : `${sentence}.`;
}
