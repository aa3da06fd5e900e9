// The games the server offers, their rule options and bot levels (GET /api/games/catalog),
// read into one shape whatever the server's wrapping.

/**
 * @import { GameEntry, RuleOption } from "./protocol-types"
 * @import { PointTables } from "./running-score.js"
 */
/**
 * A rule option as the server lists it (RuleOption), or as the draft protocol did
 * (`enum` for `choices`, `min`/`max` or `minimum`/`maximum` bounds); by name, its name
 * may be left out.
 * @typedef {Partial<RuleOption> & { enum?: unknown[], minimum?: number, maximum?: number,
 *   min?: number, max?: number }} OptionFields
 */
/** @typedef {OptionFields & { name: string }} OptionInput */
/**
 * A game as the server lists it (GameEntry), or as the draft protocol did (`players` for
 * `player_counts`, `game` for `name`, options or `rules` as an object by option name).
 * @typedef {Partial<Omit<GameEntry, "options">> & {
 *   game?: string,
 *   players?: number | number[],
 *   options?: OptionInput[] | Record<string, OptionFields>,
 *   rules?: Record<string, OptionFields>,
 * }} GameInput
 */
/**
 * The catalogue as the server sends it, or as the draft protocol did (a bare list of
 * games, games by name, `bot_levels` or `levels` for every game).
 * @typedef {GameInput[] | CatalogObject} CatalogInput
 */
/**
 * @typedef {{
 *   games?: GameInput[] | Record<string, GameInput>,
 *   bot_levels?: string[],
 *   levels?: string[],
 * }} CatalogObject
 */
/**
 * A rule option read into one shape (`choices`, `minimum` and `maximum` null when the
 * option has none).
 * @typedef {object} OptionInfo
 * @property {string} name
 * @property {string} type "int", "bool" or "choice" (else the default's JavaScript type)
 * @property {unknown} default
 * @property {unknown[] | null} choices
 * @property {number | null} minimum
 * @property {number | null} maximum
 */
/**
 * A game read into one shape.
 * @typedef {object} GameInfo
 * @property {string} name
 * @property {string} title
 * @property {number[]} players the numbers of players it may have
 * @property {OptionInfo[]} options
 * @property {string[] | null} botLevels
 * @property {PointTables | null} points
 * @property {Record<string, number>} botRatings the bot levels' published ladder ratings
 */

/** @type {{ games: GameInput[], bot_levels: string[] }} */
const FALLBACK = {
  games: [
    { name: "burraco", title: "Burraco", players: [2, 4], options: [] },
    { name: "three-thirteen", title: "Three-Thirteen", players: [2, 3, 4], options: [] },
  ],
  bot_levels: ["random", "easy", "greedy", "ismcts"],
};

/**
 * @param {OptionInput} option
 * @returns {OptionInfo}
 */
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

/**
 * @param {GameInput} game
 * @param {string} [name]
 * @returns {GameInfo}
 */
function readGame(game, name = game.name) {
  const options = Array.isArray(game.options)
    ? game.options
    : Object.entries(game.options || game.rules || {}).map(([key, value]) => ({ name: key, ...value }));
  const players = game.players || game.player_counts || [2];
  return {
    name: /** @type {string} every catalogue names its games */ (name || game.game),
    title: /** @type {string} */ (game.title || name),
    players: Array.isArray(players) ? players : [players],
    options: options.map(readOption),
    botLevels: game.bot_levels || null,
    points: /** @type {PointTables | null} server/table/point_tables.py */ (game.points || null),
    botRatings: game.bot_ratings || {},
  };
}

/**
 * The games and bot levels of the catalogue (GET /api/games/catalog), or of a built-in
 * list when there is none.
 * @param {CatalogInput | null | undefined} catalog
 * @returns {{ games: GameInfo[], botLevels: string[] }}
 */
export function readCatalog(catalog) {
  const data = catalog || FALLBACK;
  const rawGames = Array.isArray(data) ? data : data.games || FALLBACK.games;
  const games = Array.isArray(rawGames)
    ? rawGames.map((g) => readGame(g))
    : Object.entries(rawGames).map(([name, g]) => readGame(g, name));
  // (a bare list of games has neither bot_levels nor levels)
  const botLevels = /** @type {CatalogObject} */ (data).bot_levels || /** @type {CatalogObject} */ (data).levels || games.find((g) => g.botLevels)?.botLevels || FALLBACK.bot_levels;
  return { games, botLevels };
}

/**
 * Rules as the form starts them: each option's default.
 * @param {GameInfo} game
 * @returns {Record<string, unknown>}
 */
export function defaultRules(game) {
  return Object.fromEntries(game.options.map((o) => [o.name, o.default]));
}

/**
 * How many seats a table of `game` with `rules` has.
 * @param {GameInfo} game
 * @param {Record<string, unknown> | null | undefined} rules
 * @returns {number}
 */
export function seatCount(game, rules) {
  if (rules && typeof rules.players === "number") return rules.players;
  return game.players[0] || 2;
}
