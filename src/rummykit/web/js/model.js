// Reads a server "state" message into the shape the table views draw. It knows the
// observation fields of both games (docs/observations.md, version 2) and nothing of
// their rules.

/**
 * @import { BurracoHandResult, BurracoObservation, BurracoPileMove, BurracoRules,
 *   BurracoTableMeld, Card, GameEvent, Seat, ThreeThirteenHandResult,
 *   ThreeThirteenObservation, ThreeThirteenPileMove, ThreeThirteenRules,
 *   ThreeThirteenTableMeld } from "./protocol-types"
 */

/**
 * Either game's rule options as the views read them: any option of either game.
 * @typedef {Partial<Omit<BurracoRules, "jokers"> & Omit<ThreeThirteenRules, "jokers">>
 *   & { jokers?: number | boolean }} EitherRules
 */
/**
 * A meld on the table in either game (Burraco's have `wild_index`, `suit` and `rank`).
 * @typedef {ThreeThirteenTableMeld & Partial<Pick<BurracoTableMeld, "wild_index" | "suit" | "rank">>} EitherMeld
 */
/**
 * An observation of either game, or a watcher's (`player` and `hand` null, see
 * WatcherObservation), as this module reads it: the fields both games share, and each
 * game's own fields, absent from the other game's.
 * @typedef {Pick<BurracoObservation, "version" | "hand_number" | "dealer" | "current_player"
 *     | "phase" | "turn" | "hand_sizes" | "stock_count" | "discard_pile" | "known_cards"
 *     | "totals" | "hand_over" | "game_over" | "winners">
 *   & Partial<Pick<BurracoObservation, "pozzetti_left" | "took_pozzetto" | "restricted_card"
 *     | "forbidden_discard">>
 *   & Partial<Pick<ThreeThirteenObservation, "round_number" | "wild_rank" | "reshuffled"
 *     | "stock_may_hold" | "went_out" | "last_turns_remaining">>
 *   & {
 *     player: Seat | null,
 *     hand: Card[] | null,
 *     rules: EitherRules,
 *     melds: EitherMeld[],
 *     discard_history: BurracoPileMove[] | ThreeThirteenPileMove[],
 *     hand_results: BurracoHandResult[] | ThreeThirteenHandResult[],
 *   }} AnyObservation
 */

/**
 * What the views of both games have. `Move` and `Result` are the game's discard-pile
 * moves and hand results.
 * @template Move, Result
 * @typedef {object} CommonView
 * @property {string} game
 * @property {Seat | null} player whose view this is (null for a watcher)
 * @property {EitherRules} rules
 * @property {number} numPlayers
 * @property {Seat | null} currentPlayer null once the game is over
 * @property {"draw" | "play" | "over"} phase Three-Thirteen's "discard" reads "play"
 * @property {boolean} gameOver
 * @property {boolean} handOver
 * @property {number} handNumber hands (rounds) played before this one
 * @property {Seat} dealer
 * @property {number} turn
 * @property {Card[]} hand the player's own cards (none for a watcher)
 * @property {number[]} handSizes
 * @property {number} stockCount
 * @property {Card[]} discardPile bottom to top
 * @property {Move[]} discardHistory
 * @property {number[]} totals
 * @property {Seat[]} winners
 * @property {Card[][]} knownCards per player, the cards seen taken and still held
 * @property {Result[]} results the finished hands' (rounds') results
 */
/**
 * A meld as the views draw it; Burraco's runs say where their wild is (`wildIndex`) and
 * what they are (`suit` 0..3 for c d h s, `rank` the lowest place), its sets their rank.
 * @typedef {object} MeldView
 * @property {number} id
 * @property {Seat} owner
 * @property {string} kind "set" or "run" ("meld" for a round summary's arrangement)
 * @property {Card[]} cards
 */
/**
 * @typedef {MeldView & { wildIndex: number | null, suit: number | null, rank: number | null }} BurracoMeldView
 */
/**
 * A Burraco view: melds per player, pozzetti, the card the player to move took alone.
 * @typedef {CommonView<BurracoPileMove, BurracoHandResult> & {
 *   melds: BurracoMeldView[],
 *   pozzettiLeft: number[],
 *   tookPozzetto: boolean[],
 *   restrictedCard: Card | null,
 *   forbiddenDiscard: Card | null,
 * }} BurracoView
 */
/**
 * A Three-Thirteen view: the round, its wild rank, who went out and their melds.
 * @typedef {CommonView<ThreeThirteenPileMove, ThreeThirteenHandResult> & {
 *   roundNumber: number,
 *   firstRound: number,
 *   lastRound: number,
 *   wildRank: number,
 *   melds: MeldView[],
 *   wentOut: Seat | null,
 *   lastTurnsRemaining: number,
 *   reshuffled: boolean,
 * }} ThirteenView
 */
/** @typedef {BurracoView | ThirteenView} TableView */

/**
 * Normalise one observation (either game) into plain fields used by the views. The view
 * is the one of `game` ("burraco" or "three-thirteen"): the lists of results and of
 * discard-pile moves are taken to be that game's.
 * @param {string} game
 * @param {AnyObservation} obs
 * @returns {TableView}
 */
export function readObservation(game, obs) {
  const phase = obs.phase === "discard" ? "play" : obs.phase;
  const common = {
    game,
    player: obs.player,
    rules: obs.rules,
    numPlayers: obs.hand_sizes.length,
    currentPlayer: obs.current_player,
    phase,
    gameOver: obs.game_over,
    handOver: obs.hand_over,
    handNumber: obs.hand_number,
    dealer: obs.dealer,
    turn: obs.turn,
    hand: obs.hand || [], // a watcher's is null
    handSizes: obs.hand_sizes,
    stockCount: obs.stock_count,
    discardPile: obs.discard_pile || [],
    discardHistory: /** @type {BurracoPileMove[] & ThreeThirteenPileMove[]} */ (obs.discard_history || []),
    totals: obs.totals || [],
    winners: obs.winners || [],
    knownCards: (obs.known_cards || []).map((cards) => cards || []),
    results: /** @type {BurracoHandResult[] & ThreeThirteenHandResult[]} */ (obs.hand_results || []),
  };
  return (READERS[game] || readUnknown)(common, obs);
}

/**
 * A Burraco view: the common fields, then the melds and the pozzetti.
 * @param {CommonView<BurracoPileMove, BurracoHandResult>} common
 * @param {AnyObservation} obs
 * @returns {BurracoView}
 */
function readBurraco(common, obs) {
  return {
    ...common,
    melds: (obs.melds || []).map((m) => ({
      id: m.meld_id,
      owner: m.owner,
      kind: m.kind,
      cards: m.cards || [],
      wildIndex: m.wild_index ?? null,
      suit: m.suit ?? null,
      rank: m.rank ?? null,
    })),
    pozzettiLeft: obs.pozzetti_left || [],
    tookPozzetto: obs.took_pozzetto || [],
    restrictedCard: obs.restricted_card ?? null,
    forbiddenDiscard: obs.forbidden_discard ?? null,
  };
}

/**
 * A Three-Thirteen view: the common fields, then the round, its wild and who went out.
 * @param {CommonView<ThreeThirteenPileMove, ThreeThirteenHandResult>} common
 * @param {AnyObservation} obs
 * @returns {ThirteenView}
 */
function readThirteen(common, obs) {
  // this game's observation has each of these (AnyObservation leaves them optional)
  const own = /** @type {AnyObservation & ThreeThirteenObservation} */ (obs);
  const rules = /** @type {ThreeThirteenRules} */ (common.rules);
  return {
    ...common,
    roundNumber: own.round_number,
    firstRound: rules.first_round,
    lastRound: rules.last_round,
    wildRank: own.wild_rank,
    melds: (obs.melds || []).map((m) => ({ id: m.meld_id, owner: m.owner, kind: m.kind, cards: m.cards || [] })),
    wentOut: own.went_out,
    lastTurnsRemaining: own.last_turns_remaining,
    reshuffled: own.reshuffled,
  };
}

/**
 * A game this client has no reader for.
 * @param {CommonView<unknown, unknown>} common
 * @returns {never}
 */
function readUnknown(common) {
  throw new Error(`no reader for the observations of the game ${JSON.stringify(common.game)}`);
}

/**
 * Each game's reader of its own observation fields, by the game's name (the names the
 * server's catalog lists): a new game adds its reader here.
 * @type {Record<string, (common: any, obs: AnyObservation) => TableView>}
 */
const READERS = { burraco: readBurraco, "three-thirteen": readThirteen };

/**
 * The event's kind.
 * @param {Pick<GameEvent, "event">} event
 * @returns {GameEvent["event"]}
 */
export function eventKind(event) {
  return event.event;
}

const RANKS = "A23456789TJQKA";
const SUITS = "cdhs";

/**
 * The card a Burraco run's wild stands for (e.g. "6h"), or null (sets, clean melds).
 * @param {BurracoMeldView} meld
 * @returns {Card | null}
 */
export function wildStandsFor(meld) {
  if (meld.wildIndex === null || meld.wildIndex === undefined || meld.kind !== "run") return null;
  // a run has its lowest place and its suit
  const rank = /** @type {number} */ (meld.rank) + meld.wildIndex; // the run's lowest place plus the wild's position
  return RANKS[rank - 1] + SUITS[/** @type {number} */ (meld.suit)];
}

/**
 * "clean" or "dirty" when a Burraco meld is a burraco (7 cards or more), else null.
 * @param {BurracoMeldView} meld
 * @returns {"clean" | "dirty" | null}
 */
export function burracoKind(meld) {
  if (meld.cards.length < 7) return null;
  return meld.wildIndex === null || meld.wildIndex === undefined ? "clean" : "dirty";
}

/**
 * A player's latest turn: the card taken from the discard pile (null: drawn from the
 * stock), the card discarded, and whether the discard went out.
 * @typedef {{ took: Card | null, discarded: Card, out: boolean }} LastTurn
 */

/**
 * Each player's latest turn in Three-Thirteen, from the discard history:
 * last[p] = {took: card|null (null: from the stock), discarded: card, out: bool}, and
 * pendingTake[p], a card taken this turn and not yet followed by a discard.
 * @param {{ kind: string, player: Seat | null, cards: Card[] }[]} history
 * @param {number} numPlayers
 * @returns {{ last: (LastTurn | null)[], pendingTake: (Card | null)[] }}
 */
export function lastTurns(history, numPlayers) {
  /** @type {(LastTurn | null)[]} */
  const last = Array.from({ length: numPlayers }, () => null);
  /** @type {(Card | null)[]} */
  const pendingTake = Array.from({ length: numPlayers }, () => null);
  for (const move of history) {
    const card = move.cards?.[0];
    if (move.player === null || move.player === undefined) continue;
    if (move.kind === "take") {
      pendingTake[move.player] = card;
    } else if (move.kind === "discard" || move.kind === "out") {
      last[move.player] = { took: pendingTake[move.player], discarded: card, out: move.kind === "out" };
      pendingTake[move.player] = null;
    }
  }
  return { last, pendingTake };
}

/**
 * The index of the log entry a player's present turn came with: the last entry that is
 * not their own move (a deal, another player's move), -1 before any. A turn is new when
 * this index is, however the updates that brought it were batched into renders.
 * @param {{ index: number, event: { player?: Seat } }[]} log
 * @param {Seat | null} seat
 * @returns {number}
 */
export function turnCameWith(log, seat) {
  for (let i = log.length - 1; i >= 0; i--) {
    if (log[i].event.player !== seat) return log[i].index;
  }
  return -1;
}
