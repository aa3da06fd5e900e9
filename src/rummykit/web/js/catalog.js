// The games the server offers, their rule options and bot levels (GET /api/games/catalog),
// read into one shape whatever the server's wrapping.

const FALLBACK = {
  games: [
    { name: "burraco", title: "Burraco", players: [2], options: [] },
    { name: "three-thirteen", title: "Three-Thirteen", players: [2, 3, 4], options: [] },
  ],
  bot_levels: ["random", "greedy", "ismcts"],
};

function readOption(option) {
  return {
    name: option.name,
    type: option.type || typeof option.default,
    default: option.default,
    choices: option.choices || option.enum || null,
    minimum: option.minimum ?? option.min ?? null,
    maximum: option.maximum ?? option.max ?? null,
  };
}

function readGame(game, name = game.name) {
  const options = Array.isArray(game.options)
    ? game.options
    : Object.entries(game.options || game.rules || {}).map(([key, value]) => ({ name: key, ...value }));
  const players = game.players || game.player_counts || [2];
  return {
    name: name || game.game,
    title: game.title || name,
    players: Array.isArray(players) ? players : [players],
    options: options.map(readOption),
    botLevels: game.bot_levels || null,
    points: game.points || null,
  };
}

export function readCatalog(catalog) {
  const data = catalog || FALLBACK;
  const rawGames = Array.isArray(data) ? data : data.games || FALLBACK.games;
  const games = Array.isArray(rawGames)
    ? rawGames.map((g) => readGame(g))
    : Object.entries(rawGames).map(([name, g]) => readGame(g, name));
  const botLevels = data.bot_levels || data.levels || games.find((g) => g.botLevels)?.botLevels || FALLBACK.bot_levels;
  return { games, botLevels };
}

/** Rules as the form starts them: each option's default. */
export function defaultRules(game) {
  return Object.fromEntries(game.options.map((o) => [o.name, o.default]));
}

/** How many seats a table of `game` with `rules` has. */
export function seatCount(game, rules) {
  if (rules && typeof rules.players === "number") return rules.players;
  return game.players[0] || 2;
}
