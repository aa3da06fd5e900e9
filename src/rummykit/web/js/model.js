// Reads a server "state" message into the shape the table views draw. It knows the
// observation fields of both games (docs/observations.md) and nothing of their rules.

function pick(obj, ...names) {
  for (const name of names) if (obj && obj[name] !== undefined) return obj[name];
  return undefined;
}

const PHASES = { draw: "draw", play: "play", discard: "play", over: "over", game_over: "over" };

/** Normalise one observation (either game) into plain fields used by the views. */
export function readObservation(game, obs) {
  const rules = obs.rules || {};
  const handSizes = pick(obs, "hand_sizes") || [];
  const phase = PHASES[obs.phase] || obs.phase;
  const common = {
    game,
    player: obs.player,
    rules,
    numPlayers: handSizes.length || rules.players || 2,
    currentPlayer: obs.current_player,
    phase,
    gameOver: Boolean(pick(obs, "game_over")) || phase === "over",
    handNumber: pick(obs, "hand_number") ?? 0,
    dealer: obs.dealer,
    turn: pick(obs, "turn", "turn_number") ?? 0,
    hand: obs.hand || [],
    handSizes,
    stockCount: obs.stock_count ?? 0,
    discardPile: obs.discard_pile || [],
    totals: obs.totals || [],
    winners: obs.winners || [],
    knownCards: pick(obs, "known_cards", "taken_cards") || [],
  };
  if (game === "burraco") {
    return {
      ...common,
      melds: (pick(obs, "melds", "table_melds") || []).map(readBurracoMeld),
      pileHistory: obs.pile_history || [],
      pozzettiLeft: obs.pozzetti_left || [],
      tookPozzetto: obs.took_pozzetto || [],
      restrictedCard: obs.restricted_card ?? null,
      forbiddenDiscard: obs.forbidden_discard ?? null,
      results: (pick(obs, "hand_results", "results") || []).map((r) => ({
        ...r,
        breakdown: r.breakdown || [],
      })),
      handOver: Boolean(obs.hand_over),
    };
  }
  return {
    ...common,
    roundNumber: pick(obs, "round_number") ?? common.handNumber + 1,
    firstRound: rules.first_round ?? 1,
    lastRound: rules.last_round ?? 11,
    wildRank: obs.wild_rank,
    melds: (pick(obs, "table_melds", "melds") || []).map((m) => ({
      id: m.id ?? m.meld_id,
      owner: m.owner,
      kind: m.kind ?? m.meld?.kind,
      cards: m.cards ?? m.meld?.cards ?? [],
    })),
    wentOut: obs.went_out ?? null,
    lastTurnsRemaining: obs.last_turns_remaining ?? 0,
    results: pick(obs, "round_results", "hand_results", "results") || [],
    discardHistory: pick(obs, "discard_history", "pile_history") || [],
    reshuffled: Boolean(obs.reshuffled),
  };
}

function readBurracoMeld(entry) {
  const meld = entry.meld || entry;
  return {
    id: entry.meld_id ?? entry.id,
    owner: entry.owner,
    kind: meld.kind,
    cards: meld.cards || [],
    wildIndex: meld.wild_index ?? null,
    suit: meld.suit ?? null,
    rank: meld.rank ?? null,
  };
}

/** The event's kind, whichever key the engine used ("event" or "type"). */
export function eventKind(event) {
  return event.event ?? event.type ?? event.kind;
}

const RANKS = "A23456789TJQKA";
const SUITS = "cdhs";

/** The card a Burraco meld's wild stands for (e.g. "6h"), or null. */
export function wildStandsFor(meld) {
  if (meld.wildIndex === null || meld.wildIndex === undefined) return null;
  if (meld.kind === "run") {
    const rank = meld.rank + meld.wildIndex; // rank of the first card plus the position
    const suit = typeof meld.suit === "number" ? SUITS[meld.suit] : meld.suit;
    return RANKS[rank - 1] + suit;
  }
  return null;
}

/** True when a Burraco meld is a burraco; "clean" or "dirty", else null. */
export function burracoKind(meld) {
  if (meld.cards.length < 7) return null;
  return meld.wildIndex === null || meld.wildIndex === undefined ? "clean" : "dirty";
}

/**
 * Each player's latest turn in Three-Thirteen, from the discard history:
 * {took: card|null (null = from the stock), discarded: card, out: bool}.
 */
export function lastTurns(history, numPlayers) {
  const last = Array.from({ length: numPlayers }, () => null);
  const pendingTake = Array.from({ length: numPlayers }, () => null);
  for (const move of history) {
    const kind = move.kind;
    if (kind === "take") {
      pendingTake[move.player] = move.card;
    } else if (kind === "discard" || kind === "out") {
      last[move.player] = { took: pendingTake[move.player], discarded: move.card, out: kind === "out" };
      pendingTake[move.player] = null;
    }
  }
  return { last, pendingTake };
}
