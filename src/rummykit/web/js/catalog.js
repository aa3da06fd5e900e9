// The games the server offers, their rule options and bot levels (GET /api/games/catalog),
// read into the shape the pages use.

/**
 * @import { Catalog, GameEntry, RuleOption } from "./protocol-types"
 * @import { PointTables } from "./running-score.js"
 */
/**
 * A rule option read into one shape (`choices` null when the option has none).
 * @typedef {object} OptionInfo
 * @property {string} name
 * @property {RuleOption["type"]} type
 * @property {unknown} default
 * @property {unknown[] | null} choices
 */
/**
 * A game read into one shape.
 * @typedef {object} GameInfo
 * @property {string} name
 * @property {string} title
 * @property {number[]} players the numbers of players it may have
 * @property {OptionInfo[]} options
 * @property {string[]} botLevels
 * @property {PointTables | null} points
 * @property {Record<string, number>} botRatings the bot levels' published ladder ratings
 */

/** The games when the server did not answer: without options, ratings or point tables. */
const BUILT_IN = ["random", "easy", "greedy", "ismcts", "expert"];
/** @type {GameEntry[]} */
const FALLBACK = [
  { name: "burraco", title: "Burraco", player_counts: [2, 4], options: [], bot_levels: BUILT_IN },
  { name: "three-thirteen", title: "Three-Thirteen", player_counts: [2, 3, 4], options: [], bot_levels: BUILT_IN },
];

/**
 * @param {GameEntry} game
 * @returns {GameInfo}
 */
function readGame(game) {
  return {
    name: game.name,
    title: game.title,
    players: game.player_counts,
    options: game.options.map((option) => ({ ...option, choices: option.choices ?? null })),
    botLevels: game.bot_levels,
    points: /** @type {PointTables | null} an open object in the catalogue's model */ (game.points ?? null),
    botRatings: game.bot_ratings ?? {},
  };
}

/**
 * The games of the catalogue (GET /api/games/catalog), or of a built-in list when there
 * is none, and the bot levels a new table offers (the first game's).
 * @param {Catalog | null | undefined} catalog
 * @returns {{ games: GameInfo[], botLevels: string[] }}
 */
export function readCatalog(catalog) {
  const games = (catalog?.games ?? FALLBACK).map(readGame);
  return { games, botLevels: games[0]?.botLevels ?? BUILT_IN };
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
