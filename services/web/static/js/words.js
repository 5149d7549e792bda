// The move log in words, built from the redacted events alone (a board module may word its own events).
// Every sentence is one msgid with {placeholders}, translated when the log is drawn (i18n.js).
import { t, tn } from "./i18n.js";

const voteFor = (p, who, name) => (p.choice === "end"
  ? t("{who} voted to end the game for {name}.", { who, name: name(p.about_seat) })
  : t("{who} voted to let a bot take over for {name}.", { who, name: name(p.about_seat) }));

const KERNEL = {
  "taproom.GameCreated": () => t("The game was created."),
  "taproom.SeatClaimed": (p, who) => t("{who} took seat {seat}.", { who: p.name || who, seat: (p.seat ?? 0) + 1 }),
  "taproom.GameStarted": () => t("The game started."),
  "taproom.GameEnded": () => t("The game ended."),
  "taproom.GameScored": () => t("The final scores are in."),
  "taproom.SeedRevealed": () => t("The seed was revealed: anyone can now check every draw."),
  "taproom.GameExpired": () => t("The game expired before it filled."),
  "taproom.SeatAutopiloted": (p, who) => t("{who} ran out of time; the autopilot plays for them.", { who }),
  "taproom.SeatReclaimed": (p, who) => t("{who} is back.", { who }),
  "taproom.TurnTimedOut": (p, who) => t("{who} ran out of time; this turn is played for them.", { who }),
  "taproom.SeatReturned": (p, who) => t("{who} has the seat back for the next turn.", { who }),
  "taproom.VoteCast": voteFor,
  "taproom.VoteWithdrawn": (p, who, name) => t("{who} withdrew their vote about {name}.",
    { who, name: name(p.about_seat) }),
  "taproom.MoveUndone": (p, who) => t("{who} took back a move.", { who }),
  "taproom.HintAsked": (p, who) => t("{who} asked the coach for a hint.", { who }),
  "taproom.VotePassed": (p, who, name) => (p.choice === "end" ? t("The table agreed: the game ends as it stands.")
    : t("The table agreed: a bot takes over from {name}.", { name: name(p.about_seat) })),
  "taproom.SeatLeft": (p, who) => leftWords(p, who),
  "taproom.SeatAbsent": (p, who) => t("{who} has not moved for a long while: the others may vote to end the game " +
    "or to give the seat to a bot.", { who }),
};

// What happened to a game's seats, for the inbox, the lobby and the profile ("Ann resigned"); "" when nothing did.
export function seatNews(seats) {
  const news = [];
  (seats || []).forEach((s, i) => {
    const who = s.name ? (s.bot ? botName(s.name) : s.name) : t("Seat {n}", { n: i + 1 });
    if (s.left === "resigned") news.push(t("{who} resigned", { who }));
    else if (s.left === "idle") news.push(t("{who} left the game; it ended after a long wait", { who }));
    else if (s.left) {
      news.push(s.bot ? t("{who} left the game; a bot took the seat", { who })
        : t("{who} left the game; the table ended it", { who }));
    } else if (s.absent) news.push(t("{who} is away; the table may vote", { who }));
  });
  return news.join(" · ");
}

// A seat's player left for good: who, how, and what became of the game.
export function leftWords(p, who) {
  if (p.how === "resigned") {
    return p.level ? t("{who} resigned; a bot plays the seat to the end.", { who }) : t("{who} resigned.", { who });
  }
  if (p.how === "idle") return t("{who} left the game: nobody moved for too long, so it ended.", { who });
  return p.level ? t("{who} left the game; the table gave the seat to a bot.", { who })
    : t("{who} left the game; the table ended it.", { who });
}

// The server names bot seats in English ("Greedy bot", "Random bot 2", "Ann (greedy bot)"): said in the reader's
// language here. Any other name is a person's and stays as it is.
const BOT_LEVELS = ["Random", "Greedy", "Search"];
export function botName(name) {
  let m = /^(Random|Greedy|Search) bot(?: (\d+))?$/.exec(name || "");
  if (m) {
    const level = BOT_LEVELS.indexOf(m[1]);
    const numbered = [t("Random bot {n}"), t("Greedy bot {n}"), t("Search bot {n}")];
    const plain = [t("Random bot"), t("Greedy bot"), t("Search bot")];
    return m[2] ? numbered[level].replace("{n}", m[2]) : plain[level];
  }
  m = /^(.*) \((random|greedy|search) bot\)$/.exec(name || "");
  if (m) {
    const level = [t("random bot"), t("greedy bot"), t("search bot")][BOT_LEVELS.indexOf(m[2][0].toUpperCase() +
      m[2].slice(1))];
    return t("{name} ({level})", { name: m[1], level });
  }
  return name;
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
  if (value === HIDDEN || value === null) return t("hidden");
  if (Array.isArray(value)) {
    return value.length > 6 ? tn("{n} item", "{n} items", value.length) : value.map(detail).join(" ");
  }
  if (typeof value === "object") return "…";
  return String(value);
}

export function seatName(seats, seat) {
  const s = seats?.[seat];
  if (s?.name) return s.bot ? botName(s.name) : s.name;
  return s?.bot ? t("Bot {n}", { n: seat + 1 }) : t("Seat {n}", { n: seat + 1 });
}

export function describe(event, seats, board) {
  const p = event.payload || {};
  const seat = Number.isInteger(p.seat) ? p.seat : Number.isInteger(p.player) ? p.player : null;
  const who = seat === null ? "" : seatName(seats, seat);
  const custom = board?.describe?.(event, { seats });
  if (custom) return custom;
  const kernel = KERNEL[event.type];
  if (kernel) return kernel(p, who || t("A seat"), (n) => seatName(seats, n));
  const facts = Object.entries(p)
    .filter(([k, v]) => !["seat", "player", "type"].includes(k)
      && (typeof v !== "object" || v === null || Array.isArray(v)))
    .slice(0, 4)
    .map(([k, v]) => `${k.replace(/_/g, " ")} ${detail(v)}`);
  const text = `${who ? who + " " : ""}${phrase(event.type)}`;
  const sentence = text.charAt(0).toUpperCase() + text.slice(1);
  return facts.length ? `${sentence} (${facts.join(", ")}).` : `${sentence}.`;
}
