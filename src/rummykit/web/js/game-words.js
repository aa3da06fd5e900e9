// Words that differ by game, by the game's name: a leaf module (it imports nothing), so
// that any view may read it, the boards' shared parts included. A new game adds its
// entries here as it adds its views to games.js.

/**
 * The message that names the move "take" in each game: Burraco's takes the whole
 * discard pile, Three-Thirteen's only its top card.
 * @type {Record<string, string>}
 */
export const TAKE_MESSAGE = {
  burraco: "action.take",
  "three-thirteen": "action.take_top",
};
