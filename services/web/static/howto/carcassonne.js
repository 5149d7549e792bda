// How to play Carcassonne (with Hills & Sheep) on Taproom: the player's guide, the coach's words for each
// decision, and the rule choices this site's engine makes. One catalog per language (English here).
// Blocks: {p}, {steps} (numbered), {list}, {terms: [[term, text]]}, {table: {head, rows}},
// {example: {title, lines, total}}, {figure: {kind, scene, caption}}.

const SCORING_CITY = {
  kind: "carcassonne",
  // a city of three tiles with one pennant, closed on both ends: blue's knight stands in it
  scene: {
    tiles: [{ id: "E", x: -1, y: 0, r: 1 }, { id: "F", x: 0, y: 0, r: 0 }, { id: "E", x: 1, y: 0, r: 3 }],
    figures: [{ x: -1, y: 0, at: [80, 50], seat: 0 }],
  },
  caption: "A finished city of 3 tiles with 1 pennant (the blue shield): blue's knight scores 3 × 2 + 1 × 2 = 8.",
};

const SCORING_MONASTERY = {
  kind: "carcassonne",
  scene: {
    tiles: [
      { id: "B", x: 0, y: 0, r: 0 },
      { id: "U", x: -1, y: 1, r: 0 }, { id: "U", x: 0, y: 1, r: 0 }, { id: "U", x: 1, y: 1, r: 0 },
      { id: "E", x: -1, y: 0, r: 3 }, { id: "E", x: 1, y: 0, r: 1 },
      { id: "U", x: -1, y: -1, r: 0 }, { id: "U", x: 0, y: -1, r: 0 },
    ],
    figures: [{ x: 0, y: 0, at: [74, 70], seat: 1 }],
    empty: [{ x: 1, y: -1 }],
  },
  caption: "A monastery with 7 of its 8 neighbours. One more tile on the dashed square finishes it for 9 points; "
    + "if the game ends first, it scores 1 + 7 = 8.",
};

export default {
  game: "carcassonne",
  title: "Carcassonne with Hills & Sheep",
  tagline: "Lay tiles to build a landscape of cities, roads, monasteries and fields, and claim them with your followers.",
  glance: [
    ["Players", "2 to 5"],
    ["Length", "about 35 turns each with two players (72 tiles; 90 with Hills & Sheep)"],
    ["Each turn", "place one tile, then maybe one figure"],
    ["You win by", "having the most points when the last tile is placed"],
  ],
  sections: [
    {
      id: "setup",
      title: "Setup at a glance",
      blocks: [
        { p: "The site does the setting up for you. The start tile lies in the middle of the table; every other tile waits face down in the stack." },
        { list: [
          "You have 7 followers in your colour. A follower on the board is busy until its feature is finished; then it comes back to you.",
          "Everyone starts on 0 points. The player to go first is drawn at random and the turn passes round the table.",
          "With Hills & Sheep you also have one shepherd, and a bag holds 18 tokens: sheep worth 1 to 4, and 2 wolves.",
        ] },
      ],
    },
    {
      id: "turn",
      title: "Your turn",
      blocks: [
        { p: "Every turn has the same three steps. The board shows which squares and spots are legal, so you never have to check a rule by hand." },
        { steps: [
          "Place the tile. The top tile of the stack is shown to everyone. Put it next to a tile already on the table, turned so that every side touching a neighbour matches it: city against city, road against road, field against field.",
          "Place a figure (optional). You may put one follower from your supply on a city, road, monastery or field of the tile you just placed, but only if nobody (you included) already has a follower in that whole city, road or field.",
          "Score what you finished. Every city, road or monastery completed by your tile scores now, for whoever has the most followers in it, and those followers go back to their owners.",
        ] },
        { p: "A tile that fits nowhere is put aside for good and you draw another. Placed the tile in the wrong spot? Until you have chosen your figure (or no figure), Undo takes it back." },
      ],
    },
    {
      id: "actions",
      title: "Where a follower can go",
      blocks: [
        { terms: [
          ["Knight, in a city", "Scores when the city is closed on every side by walls."],
          ["Thief, on a road", "Scores when both ends of the road stop: at a crossroads, a city, a monastery, or by closing a loop."],
          ["Monk, on a monastery", "Scores when the monastery is surrounded by 8 tiles (the sides and corners)."],
          ["Farmer, lying in a field", "Never comes back during the game. Fields score only at the very end, for the finished cities they touch."],
        ] },
        { p: "Two groups of followers can end up in one city or road when a tile joins them. Then the player with more followers there takes all the points, and a tie pays every tied player in full." },
        { p: "Followers are the limiting resource: with 7 of them, a farmer placed early is gone for the whole game, and a knight in a city that never closes is stuck." },
      ],
    },
    {
      id: "scoring",
      title: "Scoring",
      blocks: [
        { table: {
          head: ["Feature", "When it is finished", "Left unfinished at the end"],
          rows: [
            ["Road", "1 point a tile", "1 point a tile"],
            ["City", "2 points a tile, +2 a pennant", "1 point a tile, +1 a pennant"],
            ["Monastery", "9 points", "1 + 1 for each neighbouring tile"],
            ["Field (farmers)", "—", "3 points for each finished city it touches"],
          ],
        } },
        { figure: SCORING_CITY },
        { example: {
          title: "Worked example: one turn, two features",
          lines: [
            "Blue has a knight in a city of two tiles with a pennant, and a thief on a road of three tiles.",
            "Blue places a tile with a city edge and a crossroads: the city edge closes the city, and the road runs into the crossroads, where it ends.",
            "City: 3 tiles × 2 + 1 pennant × 2 = 8 points.",
            "Road: 4 tiles × 1 = 4 points (the new tile counts for the road too).",
            "Both followers come home, ready for the next turn.",
          ],
          total: "Blue scores 12 points this turn.",
        } },
        { figure: SCORING_MONASTERY },
        { p: "A city of only two tiles is worth 4 when finished: no smaller rate for tiny cities." },
      ],
    },
    {
      id: "end",
      title: "The end of the game",
      blocks: [
        { p: "The game ends after the turn in which the last tile is placed. Then every follower still on the board scores once, by the right-hand column of the table above." },
        { steps: [
          "Unfinished roads, cities and monasteries score for their majority.",
          "Each field scores 3 points for every finished city that touches it, for the player with the most farmers in that field. A city touching two fields counts for each of them.",
          "The highest total wins. Players who tie for the most points share the win.",
        ] },
        { example: {
          title: "Worked example: a field at the end",
          lines: [
            "Red has 2 farmers and Blue 1 farmer in one big field.",
            "The field touches three cities; two of them were finished during the game.",
            "Red has the majority: 2 finished cities × 3 = 6 points. Blue scores nothing for this field.",
          ],
          total: "Red +6.",
        } },
      ],
    },
    {
      id: "expansion",
      title: "With Hills & Sheep",
      blocks: [
        { p: "Switch the expansion on in the new-game form. It adds 18 tiles and three ideas." },
        { terms: [
          ["Hills", "When a hill tile is drawn, another tile goes under it face down, unseen, and leaves the game. A follower on a hill tile wins ties: when players tie for the most followers in a city, road or field, only those with a follower on a hill tile of it score. A hill never beats a larger number of followers."],
          ["Vineyards", "A finished monastery scores 3 more points for each vineyard tile among its 8 neighbours. Unfinished monasteries get no bonus."],
          ["The shepherd", "Instead of a follower you may put your shepherd on a field of your new tile where no shepherd stands yet. Draw a token at once: a sheep joins your flock; a wolf sends the shepherd home and ends your figure step."],
        ] },
        { p: "Later, whenever your tile makes your shepherd's field bigger, you must choose:" },
        { steps: [
          "Grow the flock: draw one token. A sheep joins; a wolf eats every flock in that field, nobody scores.",
          "Bring the flock home: score 1 point per sheep, and the shepherd and the sheep leave the board.",
        ] },
        { p: "A field that becomes closed on every side brings its flocks home at once, whoever closed it. Flocks still out when the game ends score nothing, so bring yours in before the stack runs out." },
        { example: {
          title: "Worked example: a flock",
          lines: [
            "Green places the shepherd and draws a 2. Two turns later Green's tile extends that field.",
            "Green grows the flock and draws a 3: the flock is now 5.",
            "Next time the field grows, Green plays it safe and brings the flock home.",
          ],
          total: "Green scores 5 points.",
        } },
      ],
    },
  ],
  choices: {
    intro: "The printed rules leave a few questions open. This is how Taproom plays them.",
    rows: [
      ["Two shepherds end up in one field", "Bringing the flocks home pays every shepherd's owner the whole field's total; a wolf sends them all home."],
      ["You close a field where your own shepherd stands", "You may first grow your flock once, then the field's flocks are brought home."],
      ["A hill is the last tile", "Nothing goes under it and the turn is normal. A hill that fits nowhere still takes a tile under it out of the game."],
      ["A wolf is drawn when you place your shepherd", "The shepherd goes home and you place no other figure this turn."],
      ["Hill tie-breaks", "Having at least one follower on a hill tile of the feature is enough; more hill followers do not beat fewer."],
      ["A tile that fits nowhere", "It is put aside for good and you draw again; the game ends when the stack is empty."],
      ["Ties for the win", "Shared."],
      ["Farmers", "Always in play, as in the printed game."],
      ["Short games", "A game may be set to use only some of the land tiles, picked at random (tutorials and quick games)."],
    ],
  },
  // the guided first game: a short one, against one bot
  tutorial: { options: { stack_size: 20 }, length: "20 tiles, about 10 turns each" },
  coach: {
    intro: "You play Carcassonne against a bot. Each turn the coach says what the choice is about and suggests a good move; "
      + "you may follow it or play your own.",
    decisions: {
      PlaceTile: "Choose where the drawn tile goes. The glowing squares are the legal ones; turn the tile until its sides match its neighbours. Extending your own city or road, or closing one, is usually best.",
      PlaceFigure: "You may now put a figure on the tile you just placed. A follower on a feature you can finish soon comes back quickly with points; a farmer stays until the end.",
      Pass: "You can also place no figure and keep your followers for a better chance.",
      TendFlock: "Your tile extended your shepherd's field. Grow the flock for more sheep (a wolf loses it all) or bring it home for the points now.",
      RecallAbbot: "You may call your abbot back and score its monastery or garden as it stands.",
    },
    moves: {
      PlaceTile: (c) => `Place the tile ${where(c.x, c.y)}, ${c.rotation ? `rotated ${QUARTERS[c.rotation]}` : "not rotated"}.`,
      PlaceFigure: (c) => `Put your ${c.figure === "follower" ? "follower" : c.figure} on the ${FEATURE[c.feature?.[0]] || "feature"} of the new tile.`,
      Pass: () => "Place no figure this turn.",
      TendFlock: (c) => (c.action === "grow" ? "Grow the flock: draw one more token." : "Bring the flock home and score it."),
      RecallAbbot: () => "Call your abbot back and score it now.",
    },
    firstTurns: [
      "Turn 1: your tile must touch the start tile. Look at the sides: a city edge may only touch a city edge.",
      "A follower on a small city is a good start: two or three tiles close it for 4 to 8 points and the follower comes back.",
      "Keep two or three followers in your supply: finishing things needs them, and the last turns reward a spare follower.",
    ],
  },
};

const QUARTERS = { 1: "once (a quarter turn clockwise)", 2: "twice (half a turn)", 3: "three times (three quarter turns clockwise)" };
const FEATURE = { c: "city", r: "road", f: "field", m: "monastery", g: "garden" };

function where(x, y) {
  if (x === 0 && y === 0) return "on the start square";
  const parts = [];
  const squares = (n) => `${Math.abs(n)} square${Math.abs(n) === 1 ? "" : "s"}`;
  if (x) parts.push(`${squares(x)} ${x > 0 ? "right" : "left"}`);
  if (y) parts.push(`${y && x ? Math.abs(y) : squares(y)} ${y > 0 ? "up" : "down"}`);
  return `${parts.join(" and ")} from the start tile`;
}
