// How to play The Taverns of Tiefenthal (Module 1) on Taproom: the player's guide, the coach's words for each
// decision, and the rule choices this site's engine makes. One catalog per language (English here).
// Block kinds: see carcassonne.js.

export default {
  game: "tiefenthal",
  title: "The Taverns of Tiefenthal (Module 1)",
  tagline: "Run a village tavern: draw your guests and staff, draft dice, serve, and spend the takings to grow.",
  glance: [
    ["Players", "2 to 4"],
    ["Length", "8 rounds (evenings)"],
    ["Each round", "your deck fills your tavern, you draft 4 dice, then place them to earn doubloons and beer"],
    ["You win by", "owning the most victory points on your cards: nobles are worth 10 each"],
  ],
  sections: [
    {
      id: "setup",
      title: "Setup at a glance",
      blocks: [
        { p: "Your tavern board holds ten tiles, each with a plain side and a better side you can buy: tables, waitress, cashbox, monk, dishwasher, safe, host, barrel, beer supplier and beer storage." },
        { list: [
          "Your deck: 7 regulars (they pay 1 or 2 doubloons), 1 waitress, 1 table and 1 beer supplier, shuffled.",
          "3 tables in your tavern to start.",
          "Safe, beer storage and your monastery marker all on 0.",
          "In the middle: the tavern cards for sale, a face-up stack of 3-beer guests, 4 other guests on display, and the nobles.",
        ] },
      ],
    },
    {
      id: "turn",
      title: "A round, phase by phase",
      blocks: [
        { p: "Everyone plays each phase at once, except D and F, which go round the table from the start player. The site moves you on as soon as nothing is left to decide." },
        { steps: [
          "A — A new evening. The moon moves along the round track; some spaces give everyone a bonus (a card, a monastery step, a free upgrade).",
          "B — The tavern fills. Cards come off your deck one by one: guests sit at free tables, staff go beside their tile. You stop when every table is taken. Nobles all share one table.",
          "C — The waitresses. Each waitress you drew (and a permanent one) gives you a die in your colour, rolled at once; at most 3.",
          "D — The draft. Each player rolls 4 white dice on a coaster. Take one die, pass the coaster to the left, and repeat until everyone has 4.",
          "E — Planning. Put all your dice on the spaces of your tavern: guests, cashbox, barrel, monk, supplier. You can still move them later.",
          "F — Serving. On your turn, take your dice off one at a time to earn doubloons and beer, and spend them straight away.",
          "G — Closing time. Every card you drew this round goes to your discard pile. After round 8 the game ends.",
        ] },
      ],
    },
    {
      id: "actions",
      title: "The actions",
      blocks: [
        { p: "What each space gives when you take a die off it:" },
        { terms: [
          ["A guest, regular or noble", "The doubloons printed on the card. The die must show one of the card's values."],
          ["Cashbox", "1 doubloon for any die (3 once upgraded)."],
          ["Barrel", "1 beer for any die (2 once upgraded)."],
          ["Beer supplier", "Takes only 1s and 6s: 1 beer per die, +1 for each beer supplier card beside it this round (2 per die once upgraded)."],
          ["Monk", "Takes only 5s: one step on the monastery track per die (2 once upgraded). Passing a bonus space gives you the bonus."],
          ["A dishwasher", "Makes one die count one higher (a 4 counts as a 5). A 6 never becomes a 1."],
          ["A beer merchant", "1 beer, no die needed."],
        ] },
        { p: "Then spend, in any order and as often as the money lasts:" },
        { list: [
          "Buy tavern cards with doubloons: merchant 2, dishwasher 3, waitress 4, table 5, supplier 6. At most one of each kind a round.",
          "Upgrade a tile with doubloons (6 to 12). Every upgrade also brings a noble. Return cards of that kind drawn this round to pay less (3 to 6 off each).",
          "Recruit one guest a round with beer: the 3-beer guests, or a card from the display.",
          "Recruit nobles with beer: 1 for 9, 2 for 14, 3 for 18.",
        ] },
        { p: "Everything you buy or recruit goes face down on top of your deck, so you draw it next round. At the end of your turn, 2 doubloons go into the safe and 2 beer into storage (5 each once upgraded); anything more is lost." },
      ],
    },
    {
      id: "scoring",
      title: "Scoring",
      blocks: [
        { p: "Points are printed on your cards. Nobles are worth 10, guests 1 to 5, regulars and tavern cards nothing. So the whole game is about turning dice into doubloons, doubloons into upgrades and beer, and both into nobles." },
        { example: {
          title: "Worked example: one serving turn",
          lines: [
            "Mia has dice 1, 1, 6 on her supplier with one supplier card beside it: 3 dice × (1 + 1) = 6 beer.",
            "A 3 on a 3-beer guest pays 2 doubloons; a 2 on her cashbox pays 1. She has 3 doubloons.",
            "She buys a dishwasher (3 doubloons) and recruits a 3-beer guest (3 beer).",
            "The 3 beer left go to storage: it holds 2, so 1 is lost.",
          ],
          total: "A dishwasher and a guest on her deck, 2 beer saved.",
        } },
        { example: {
          title: "Worked example: final count",
          lines: [
            "Mia upgraded 3 tiles (3 nobles) and bought 1 more noble with 9 beer: 4 × 10 = 40.",
            "She recruited guests worth 1, 1 and 3 points: 5.",
          ],
          total: "Mia scores 45 points.",
        } },
      ],
    },
    {
      id: "end",
      title: "The end of the game",
      blocks: [
        { p: "The game ends after round 8. Everyone adds up the points on every card they own, in the deck and in the discard pile." },
        { p: "The most points wins. On a tie, the player with more doubloons and beer stored together wins; if still tied, the win is shared." },
      ],
    },
    {
      id: "expansion",
      title: "Module 1 and the later modules",
      blocks: [
        { p: "Taproom plays Module 1, the introductory game the rulebook recommends first. The bards, schnapps, reputation, starting cards and guest books of Modules 2 to 5 are not in play." },
        { p: "One option: counter guests. You gain them from the round track. Spend one for a monastery step on your serving turn, or (if the option is on, as by default) to clear your tavern in phase B and fill it again." },
      ],
    },
  ],
  choices: {
    intro: "Where the printed rules leave room, or a number could not be found, Taproom plays it like this.",
    rows: [
      ["Card values", "The printed prices of tavern cards and upgrades, and the guests' values, are estimates chosen so that upgrades take a few rounds and nobles bring most of the points."],
      ["Taking coloured dice (phase C)", "Automatic: a die never hurts."],
      ["Dice on one space", "Guests, cashbox and barrel hold one die each; monk and supplier any number. A space whose die you took off is used for the round."],
      ["Dishwashers", "A die gets exactly the steps it needs for the space, never past 6."],
      ["Supplier after the upgrade", "2 beer per die, and the supplier cards still add 1 each."],
      ["Nobles", "As many recruitments a turn as your beer pays for."],
      ["The monastery track past 22", "The step after 22 lands on the start space; counting goes on from there."],
      ["Safe and storage", "What you saved becomes money to spend at the start of your serving turn; the end of the turn saves as much as fits."],
      ["Returning cards for an upgrade", "Only cards drawn into your tavern this round; the price never drops below 0."],
      ["Empty stacks", "A bonus from an empty stack gives nothing; a display slot with no guest left stays empty."],
      ["Start player", "Passes to the left every round."],
    ],
  },
  // the guided first game: a short one, against one bot
  tutorial: { options: { rounds: 3 }, length: "3 rounds" },
  coach: {
    intro: "You play a short game of Tiefenthal against a bot. At each decision the coach explains what is at stake and suggests a move.",
    decisions: {
      KeepTavern: "Your tavern is full. Keep it, or spend a counter guest to clear it and draw again.",
      RedrawTavern: "Redrawing costs a counter guest: worth it only if this tavern is poor.",
      PickDie: "Draft one die. Think of your spaces: 1s and 6s for the supplier, 5s for the monk, exact values for your guests.",
      PlaceDie: "Plan where each die goes. Guests pay doubloons, the supplier and barrel give beer, the monk moves you on the monastery track.",
      FinishPlanning: "Done planning? You can still move dice during your serving turn.",
      TakeDie: "Take a die off to collect what its space gives, then spend.",
      BuyCard: "A tavern card goes on top of your deck for next round. At most one of each kind a round.",
      UpgradeTile: "Upgrading improves a tile for good and brings a noble (10 points).",
      RecruitGuest: "Spend beer on a guest: it goes on top of your deck.",
      RecruitNobles: "Nobles are the points: 1 for 9 beer, 2 for 14, 3 for 18.",
      UseCounterGuest: "Spend a counter guest for a monastery step.",
      ChooseBonus: "Choose your bonus.",
      EndTurn: "End your serving turn: the safe and storage keep what fits, the rest is lost.",
    },
    moves: {
      KeepTavern: () => "Keep this tavern.",
      RedrawTavern: () => "Spend a counter guest and draw your tavern again.",
      PickDie: (c) => `Take a ${c.value}.`,
      PlaceDie: (c, view) => `Put your ${dieValue(view, c.die)} on ${spaceName(view, c.space)}.`,
      FinishPlanning: () => "Finish planning.",
      TakeDie: (c, view) => {
        const die = me(view)?.dice?.find((d) => d.die === c.die);
        return `Take your ${dieValue(view, c.die)} off ${die?.space ? spaceName(view, die.space) : "its space"} and collect.`;
      },
      BuyCard: (c) => `Buy a ${CARD[c.card_type] || c.card_type}.`,
      UpgradeTile: (c) => `Upgrade your ${String(c.tile).replace(/_/g, " ")}${c.returned ? `, returning ${c.returned} card${c.returned === 1 ? "" : "s"}` : ""}.`,
      RecruitGuest: (c, view) => `Recruit ${guestName(view, c.card)} with beer.`,
      RecruitNobles: (c) => `Recruit ${c.count} noble${c.count === 1 ? "" : "s"}.`,
      UseCounterGuest: () => "Spend a counter guest for a monastery step.",
      ChooseBonus: (c) => `Take bonus option ${c.option + 1}.`,
      EndTurn: () => "End your turn.",
    },
    firstTurns: [
      "Your first rounds are about money: serve your guests and use the cashbox, then buy an upgrade as soon as you can — each one brings a noble.",
      "The supplier turns 1s and 6s into beer; beer buys guests and nobles. Draft those dice when you see them.",
      "Your safe holds only 2 doubloons: spend what you earn in the same turn.",
    ],
  },
};

const CARD = { merchant: "beer merchant", dishwasher: "dishwasher", waitress: "waitress", table: "table", supplier: "beer supplier" };

const me = (view) => view?.players?.[view.you];

function dieValue(view, id) {
  const die = me(view)?.dice?.find((d) => d.die === id);
  return die ? `${die.white ? "white" : "coloured"} ${die.value}` : "die";
}

// "table:1" is the guest at the second table; other spaces are tiles (cashbox, barrel, monk, supplier).
function spaceName(view, space) {
  const s = String(space);
  const table = /^table:(\d+)$/.exec(s);
  if (table) {
    const seated = me(view)?.tavern?.tables?.[Number(table[1])];
    const guest = seated?.[seated.length - 1];
    return `the ${guest ? guest.name.replace(/ \(\w+\) \d$/, "") : "guest"} at table ${Number(table[1]) + 1}`;
  }
  if (s === "nobles") return "your top noble";
  return `the ${s === "supplier" ? "beer supplier" : s.replace(/[-_:]/g, " ")}`;
}

function guestName(view, id) {
  const card = view?.guests?.display?.find((g) => g.id === id);
  return card ? `the ${card.name} (${card.cost} beer, ${card.vp} point${card.vp === 1 ? "" : "s"})` : "a 3-beer guest";
}
