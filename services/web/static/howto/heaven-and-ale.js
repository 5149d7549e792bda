// How to play Heaven & Ale (with Kegs & More) on Taproom: the player's guide, the coach's words for each
// decision, and the rule choices this site's engine makes. One catalog per language (English here).
// Block kinds: see carcassonne.js.

const COLOUR = { wood: "wood", yeast: "yeast", hops: "hops", water: "water", barley: "barley" };

export default {
  game: "heaven-and-ale",
  title: "Heaven & Ale with Kegs & More",
  tagline: "Plant a monastery garden of ingredients, harvest it at the right moments, and brew the best beer.",
  glance: [
    ["Players", "2 to 4"],
    ["Length", "3 rounds with two players, 4 with three, 6 with four"],
    ["Each turn", "move your figure forward on the track and do what the space offers"],
    ["You win by", "bringing all five ingredients high on your production track, and collecting barrels"],
  ],
  sections: [
    {
      id: "setup",
      title: "Setup at a glance",
      blocks: [
        { p: "You own a garden board with two sides: 15 sunny spots and 15 shady spots, and 7 shed spots in between. Beside it is your production track, numbered 1 to 20." },
        { list: [
          "25 ducats (coins). Everyone's money is public.",
          "Five ingredient markers (wood, yeast, hops, water, barley) at the start of your production track, and your brewmaster below them.",
          "Five privilege cards in your hand.",
          "Your figure on the round track's starting area. The first player is drawn at random; the others pick a starting space and take its small reward: 2 ducats, one brewmaster step, or two steps for one ingredient.",
        ] },
        { p: "The main board shows a track of 27 action spaces around the starting area, with ingredient tiles, monk tiles, scoring discs and barrels on it." },
      ],
    },
    {
      id: "turn",
      title: "Your turn",
      blocks: [
        { steps: [
          "Move your figure forward, clockwise, as many spaces as you like. You can never move back or stay put, and you may only stop where you can actually do the action.",
          "Do the action of the space you stopped on (see below).",
          "The next player goes. The player furthest behind often gets several turns in a row: the track is a race where every step forward is a chance you give up.",
        ] },
        { p: "Moving into the starting area ends your round: pick a free starting space and take its reward. When everyone is in, the round ends, new tiles and discs are laid out, and whoever took the first-player space starts the next round." },
      ],
    },
    {
      id: "actions",
      title: "The actions",
      blocks: [
        { terms: [
          ["Ingredient tiles", "Buy one or more tiles from the space. A tile in the shade costs its number (1 to 5) in ducats; in the sun it costs twice that."],
          ["Monk tiles", "Buy one or more monks, at the price printed on the space (4, 3, 2 or 1), doubled in the sun."],
          ["Scoring disc (A, B, C, or A/B/C)", "Take the disc and put it on a free scoring spot of your board. This harvests tiles: see Scoring."],
          ["Barrels", "Take every barrel whose goal you have reached (a large one if it is still there, else the small one)."],
        ] },
        { p: "A harvested tile pays according to where it lies:" },
        { list: [
          "In the shade: you take ducats equal to its number. Money for more tiles.",
          "In the sun: the marker of its ingredient moves forward that many steps. Points at the end.",
        ] },
        { p: "Sheds. When the six spots around a shed spot are all filled, add up the numbers of the ingredient tiles around it. A low sum moves your brewmaster far (0–7: 6 steps; 8–11: 3; 12–17: 1; 18–23: 1; 24 or more: none) and gives a weak shed; a high sum gives a shed that harvests up to 4 of its neighbours at once." },
        { p: "Privileges. Your 10 scoring spots form 5 pairs. Fill both spots of a pair and you may lay a privilege card there: 12 ducats, 5 brewmaster steps, 1 point per barrel at the end, steps for your weakest ingredient, or steps for one colour. Short of money? Any time in your turn you may give up an unused privilege card for 3 ducats." },
      ],
    },
    {
      id: "scoring",
      title: "Scoring",
      blocks: [
        { terms: [
          ["Disc A", "Name a number from 1 to 5: every ingredient tile with that number is harvested."],
          ["Disc B", "Choose a kind of monk: every monk of that kind harvests each tile touching it (a touching monk moves your brewmaster one step instead)."],
          ["Disc C", "Choose an ingredient colour: every tile of that colour is harvested."],
          ["Disc A/B/C", "Any one of the three, on a free spot."],
        ] },
        { p: "Each scoring spot takes one disc for the whole game, and there are few discs each round: plan which harvest you want before someone else takes the disc." },
        { example: {
          title: "Worked example: one disc",
          lines: [
            "Anna takes disc A and names 3.",
            "She has a hops 3 in the sun and a water 3 and a wood 3 in the shade.",
            "Sun: her hops marker moves 3 steps. Shade: she takes 3 + 3 = 6 ducats.",
            "The disc also completes one of her privilege pairs, so she lays the 12-ducat card: 18 ducats in all this turn.",
          ],
          total: "Hops +3 steps, +18 ducats.",
        } },
      ],
    },
    {
      id: "end",
      title: "The end of the game",
      blocks: [
        { p: "The game ends when the last figure enters the starting area in the last round. Then the site works out everyone's score:" },
        { steps: [
          "Your brewmaster's position sets two numbers: a trade rate and a value per step.",
          "Trade: at that rate, steps from your strongest ingredients move your weakest one forward (the site does this for you, as far as it helps). Then every 10 ducats left buy one more step for the weakest.",
          "Your weakest ingredient's number × the value = your brewing points. An ingredient still before space 1 makes this 0!",
          "Add 4 points per large barrel, 2 per small barrel, and 1 point if you hold the first-player space.",
        ] },
        { table: {
          head: ["Brewmaster on", "Trade rate", "Points per step"],
          rows: [["below 1", "5 : 1", "2"], ["1–4", "4 : 1", "3"], ["5–8", "3 : 1", "3"], ["9–11", "3 : 1", "4"],
            ["12–14", "2 : 1", "4"], ["15–17", "2 : 1", "5"], ["18–19", "2 : 1", "6"], ["20", "1 : 1", "6"]],
        } },
        { example: {
          title: "Worked example: final score",
          lines: [
            "Ben's brewmaster stands on 10: trade 3 : 1, 4 points per step.",
            "After trading, his weakest ingredient is barley on 9: 9 × 4 = 36.",
            "He holds 2 large barrels and 1 small: 4 + 4 + 2 = 10.",
            "He is on the first-player space: +1.",
          ],
          total: "Ben scores 36 + 10 + 1 = 47 points.",
        } },
        { p: "The lesson: the score is only as good as your weakest ingredient. Five markers at 9 beat four at 15 and one at 3." },
      ],
    },
    {
      id: "expansion",
      title: "With Kegs & More",
      blocks: [
        { p: "Switch the expansion on in the new-game form. Each player gets a delivery board: a road from your monastery past three taverns, a cart, and storage for kegs and hay bales (1 keg and 1 bale to start)." },
        { list: [
          "Every round, 4 kegs and 4 bales are laid out on spaces of the track, and a carter die sits on one space.",
          "When you stop on a space you may do its usual action, take its kegs and bales, and use the die, in that order; you must do at least one. A space with only kegs on it is now a legal stop.",
          "Each storage spot holds one piece. One extra rental spot costs 4 ducats a piece.",
          "Using the die moves your cart that many steps. Leaving the monastery you load kegs, one bale per keg to feed the horses. At the first two taverns you drop exactly one keg; at the third, all the rest.",
          "Your 7 storage tiles start on your shed spots. Enclosing a shed spot frees its tile: use the back as one more storage spot, or the front: a keg and a bale, a stronger cart (+2 or +3 on every die), a better tavern (7 or 8 points a keg), or an extra cart move (3 or 4 steps).",
        ] },
        { example: {
          title: "Worked example: kegs at the end",
          lines: [
            "Clara delivered 3 kegs to the first tavern (6 points each) and 2 to the second (4 each): 18 + 8 = 26.",
            "She still has 3 kegs in storage: half a point each, 1½. (Kegs still on the cart score what its spot on the road shows, often nothing.)",
          ],
          total: "Clara adds 27½ points to her score.",
        } },
        { p: "A new barrel asks for 3 kegs delivered in all." },
      ],
    },
  ],
  choices: {
    intro: "Where the printed rules leave room, Taproom plays it like this.",
    rows: [
      ["Who starts", "Drawn at random."],
      ["Reachable spaces", "You may stop on an ingredient or monk space only if some tile there fits an empty spot and you can pay for it, counting the 3 ducats of each privilege card you could still give up."],
      ["Disc A's number", "You may name any number from 1 to 5, but you need at least one ingredient tile to use the space."],
      ["Two triggered monks side by side", "Each moves your brewmaster one step for the other; nothing chains further."],
      ["Brewmaster past 20", "The extra steps are lost. Ingredient markers past 20 pay 1 ducat a step instead."],
      ["The disc-count privilege", "Counts every disc on your board, the new one included."],
      ["Final trading", "Done for you, in the way that scores best; then 10 ducats buy a step for your weakest ingredient."],
      ["Giving up a privilege card", "Any decision of your own turn, never in someone else's."],
      ["A shed with only one possible choice", "Resolved for you."],
      ["A pair completed when no privilege card is left", "Nothing happens."],
      ["The carter die when everyone skipped it", "It is rolled at the end of the turn of the last player to pass it, and starts again one space ahead of the figure furthest ahead."],
      ["The rental spot", "May be used at any time, not only when the others are full."],
      ["Which stored piece leaves first", "Regular spots first, the rental spot last."],
    ],
  },
  // the guided first game: a short one, against one bot
  tutorial: { options: { rounds: 2 }, length: "2 rounds" },
  coach: {
    intro: "You play Heaven & Ale against a bot, over a short game. Each decision the coach explains what you are choosing and suggests a good move.",
    decisions: {
      Move: "Choose how far to move. Stopping close keeps future spaces open to you; jumping ahead grabs a tile or disc before the bot.",
      EnterStartingArea: "Entering the starting area ends your round. Choose a starting space: the first-player space lets you start next round and is worth 1 point at the end.",
      BuyTile: "Choose a tile and a spot. Shade tiles pay ducats when harvested; sun tiles move your ingredient markers. Surrounding a shed spot with low numbers moves your brewmaster.",
      EndBuying: "You may stop buying here and keep your ducats.",
      TakeDisc: "Choose where the disc goes. Count what each choice harvests: the sunny tiles move your markers, the shady ones pay ducats.",
      ClaimBarrels: "Take the barrels whose goals you have met.",
      ChooseShedTiles: "Your new shed harvests some of its neighbours: pick the ones worth most.",
      PlacePrivilege: "You completed a pair: lay a privilege card for its reward now, or it is lost for this pair.",
      DeclinePrivilege: "You may keep your cards for a later pair.",
      UseEmergencyCoin: "Short of money? Give up a privilege card you have not laid for 3 ducats.",
      PlaceStorageTile: "Set up your storage tiles on the shed spots; each becomes useful when that shed is enclosed.",
      ResolveStorageTile: "Choose how to use the storage tile of the shed you just enclosed.",
      TakeGoods: "Take kegs and bales into your storage.",
      UseCarterDie: "Move your cart by the die: load kegs at the monastery (a bale each) and deliver them at the taverns.",
      Pass: "You may skip the rest of this space.",
    },
    moves: {
      Move: (c, view) => `Move to space ${c.space} of the track${spaceKind(view?.track?.[c.space])}.`,
      EnterStartingArea: (c) => `Enter the starting area on the ${SLOT[c.slot] || c.slot} space${c.colour ? ` (${COLOUR[c.colour] || c.colour})` : ""}.`,
      BuyTile: (c) => `Buy ${tileName(c.tile)} and plant it on the ${c.spot?.[0] === "S" ? "sunny" : "shady"} side.`,
      EndBuying: () => "Stop buying here.",
      TakeDisc: (c) => `Put the disc on ${discSpot(c.spot)}${c.number ? ` and name ${c.number}` : ""}.`,
      ClaimBarrels: () => "Claim your barrels.",
      ChooseShedTiles: (c) => `Let the shed harvest ${c.spots?.length ? c.spots.join(", ") : "nothing"}.`,
      PlacePrivilege: (c) => `Lay your ${PRIVILEGE[c.card] || c.card} privilege card${c.colour ? ` for ${c.colour}` : ""}.`,
      DeclinePrivilege: () => "Keep your privilege cards for later.",
      UseEmergencyCoin: (c) => `Give up your ${PRIVILEGE[c.card] || c.card} card for 3 ducats.`,
      PlaceStorageTile: () => "Place your next storage tile.",
      ResolveStorageTile: (c) => `Use the storage tile's ${c.side === "back" ? "back as an extra storage spot" : "front"}.`,
      TakeGoods: (c) => `Take ${c.kegs} keg${c.kegs === 1 ? "" : "s"} and ${c.bales} bale${c.bales === 1 ? "" : "s"}.`,
      UseCarterDie: (c) => `Use the carter die${c.load ? `, loading ${c.load} keg${c.load === 1 ? "" : "s"}` : ""}.`,
      Pass: () => "Skip the rest of this space.",
    },
    firstTurns: [
      "Early on, buy cheap shady tiles: they pay their number back in ducats each time they are harvested.",
      "Put tiles of the same number, or the same colour, where one disc can harvest them together.",
      "Watch your weakest ingredient: at the end it alone sets your brewing score.",
    ],
  },
};

const SLOT = { first: "first-player", ducats: "2-ducat", brewmaster: "brewmaster", resource: "ingredient" };
const PRIVILEGE = { ducats: "12-ducat", brewmaster: "brewmaster", barrels: "barrel", discs: "disc-count", resource: "colour" };

function spaceKind(space) {
  if (!space) return "";
  if (space.kind === "resource") return ` (ingredient tiles: ${space.tiles.map((t) => t.replace("-", " ")).join(", ")})`;
  if (space.kind === "monk") return ` (monks at ${space.monk_cost} ducats)`;
  if (space.kind === "barrel") return " (barrels)";
  if (["A", "B", "C"].includes(space.kind)) return ` (scoring disc ${space.kind})`;
  if (space.kind === "start") return "";
  return ` (scoring disc ${space.kind === "ABC" ? "A/B/C" : space.kind})`;
}

function tileName(tile) {
  const [colour, number] = String(tile).split("-");
  if (colour === "monk") return `a monk of type ${number}`;
  return number ? `the ${COLOUR[colour] || colour} ${number}` : `a ${colour.replace(/_/g, " ")}`;
}

function discSpot(spot) {
  if (spot === "x") return "the number spot (A)";
  if (COLOUR[spot]) return `the ${spot} spot (C)`;
  return `the spot of monk type ${String(spot).replace(/\D/g, "")} (B)`;
}
