// Board modules by game id: `"<game_id>": () => import("./<game_id>.js")`. A game without a line here is drawn
// by the generic board. The contract a module implements is in services/web/README.md.
export const BOARDS = {
  "carcassonne": () => import("./carcassonne.js"),
  "heaven-and-ale": () => import("./heaven-and-ale.js"),
  "tiefenthal": () => import("./tiefenthal.js"),
};
