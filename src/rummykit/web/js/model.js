// Reads a server "state" message into the shape the table views draw. It knows the
// observation fields of both games (docs/observations.md, version 2) and nothing of
// their rules.

/** Normalise one observation (either game) into plain fields used by the views. */
export function readObservation(game, obs) {
  const rules = obs.rules || {};
  const handSizes = obs.hand_sizes || [];
  const phase = obs.phase === "discard" ? "play" : obs.phase;
  const common = {
    game,
    player: obs.player,
    rules,
    numPlayers: handSizes.length || rules.players || 2,
    currentPlayer: obs.current_player,
    phase,
    gameOver: Boolean(obs.game_over) || phase === "over",
    handOver: Boolean(obs.hand_over),
    handNumber: obs.hand_number ?? 0,
    dealer: obs.dealer,
    turn: obs.turn ?? 0,
    hand: obs.hand || [],
    handSizes,
    stockCount: obs.stock_count ?? 0,
    discardPile: obs.discard_pile || [],
    discardHistory: obs.discard_history || [],
    totals: obs.totals || [],
    winners: obs.winners || [],
    knownCards: (obs.known_cards || []).map((cards) => cards || []),
    results: obs.hand_results || [],
  };
  if (game === "burraco") {
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
  return {
    ...common,
    roundNumber: obs.round_number ?? common.handNumber + 1,
    firstRound: rules.first_round ?? 1,
    lastRound: rules.last_round ?? 11,
    wildRank: obs.wild_rank,
    melds: (obs.melds || []).map((m) => ({ id: m.meld_id, owner: m.owner, kind: m.kind, cards: m.cards || [] })),
    wentOut: obs.went_out ?? null,
    lastTurnsRemaining: obs.last_turns_remaining ?? 0,
    reshuffled: Boolean(obs.reshuffled),
  };
}

/** The event's kind. */
export function eventKind(event) {
  return event.event;
}

const RANKS = "A23456789TJQKA";
const SUITS = "cdhs";

/** The card a Burraco run's wild stands for (e.g. "6h"), or null (sets, clean melds). */
export function wildStandsFor(meld) {
  if (meld.wildIndex === null || meld.wildIndex === undefined || meld.kind !== "run") return null;
  const rank = meld.rank + meld.wildIndex; // the run's lowest place plus the wild's position
  return RANKS[rank - 1] + SUITS[meld.suit];
}

/** "clean" or "dirty" when a Burraco meld is a burraco (7 cards or more), else null. */
export function burracoKind(meld) {
  if (meld.cards.length < 7) return null;
  return meld.wildIndex === null || meld.wildIndex === undefined ? "clean" : "dirty";
}

/**
 * Each player's latest turn in Three-Thirteen, from the discard history:
 * last[p] = {took: card|null (null: from the stock), discarded: card, out: bool}, and
 * pendingTake[p], a card taken this turn and not yet followed by a discard.
 */
export function lastTurns(history, numPlayers) {
  const last = Array.from({ length: numPlayers }, () => null);
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
