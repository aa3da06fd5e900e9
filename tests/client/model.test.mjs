// model.js on real state messages: readObservation, wildStandsFor, burracoKind,
// lastTurns and eventKind (node --test; the fixtures come from real games).

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { burracoKind, eventKind, lastTurns, readObservation, turnCameWith, wildStandsFor } from "../../src/rummykit/web/js/model.js";
import { position, positions } from "./positions.mjs";

const RANKS = "A23456789TJQKA"; // places 1 (low ace) to 14 (high ace)

describe("readObservation, Burraco", () => {
  const message = position("burraco", "play");
  const obs = message.observation;
  const view = readObservation("burraco", obs);

  test("the player, the turn and the phase", () => {
    assert.equal(view.game, "burraco");
    assert.equal(view.player, message.seat);
    assert.equal(view.currentPlayer, message.seat);
    assert.equal(view.numPlayers, 2);
    assert.equal(view.phase, "play");
    assert.equal(view.gameOver, false);
    assert.equal(view.handNumber, obs.hand_number);
    assert.equal(view.dealer, obs.dealer);
    assert.equal(view.turn, obs.turn);
  });

  test("the cards: hand, stock, pile and what each player was seen to take", () => {
    assert.deepEqual(view.hand, obs.hand);
    assert.deepEqual(view.handSizes, obs.hand_sizes);
    assert.equal(view.handSizes[message.seat], obs.hand.length);
    assert.equal(view.stockCount, obs.stock_count);
    assert.deepEqual(view.discardPile, obs.discard_pile);
    assert.deepEqual(view.discardHistory, obs.discard_history);
    assert.deepEqual(view.knownCards, obs.known_cards);
  });

  test("each meld keeps its id, owner, cards and arrangement", () => {
    assert.equal(view.melds.length, obs.melds.length);
    obs.melds.forEach((meld, i) => {
      assert.deepEqual(view.melds[i], {
        id: meld.meld_id,
        owner: meld.owner,
        kind: meld.kind,
        cards: meld.cards,
        wildIndex: meld.wild_index,
        suit: meld.suit,
        rank: meld.rank,
      });
    });
  });

  test("pozzetti, the card taken alone, totals and rules", () => {
    assert.deepEqual(view.pozzettiLeft, obs.pozzetti_left);
    assert.deepEqual(view.tookPozzetto, obs.took_pozzetto);
    assert.equal(view.restrictedCard, obs.restricted_card);
    assert.equal(view.forbiddenDiscard, obs.forbidden_discard);
    assert.deepEqual(view.totals, obs.totals);
    assert.equal(view.rules.mode, "quick");
  });

  test("the drawing phase", () => {
    const drawing = readObservation("burraco", position("burraco", "draw").observation);
    assert.equal(drawing.phase, "draw");
    assert.equal(drawing.currentPlayer, position("burraco", "draw").seat);
  });

  test("the end of the game: the result of the hand and the winners", () => {
    const over = position("burraco", "over").observation;
    const end = readObservation("burraco", over);
    assert.equal(end.phase, "over");
    assert.equal(end.gameOver, true);
    assert.equal(end.currentPlayer, null);
    assert.deepEqual(end.winners, over.winners);
    assert.ok(end.winners.length >= 1);
    assert.equal(end.results.length, 1);
    assert.deepEqual(end.results[0].totals, end.totals);
  });
});

describe("readObservation, Three-Thirteen", () => {
  test("the discard phase reads as play; the round and its wild rank", () => {
    const message = position("three-thirteen", "discard");
    const obs = message.observation;
    const view = readObservation("three-thirteen", obs);
    assert.equal(obs.phase, "discard");
    assert.equal(view.phase, "play");
    assert.equal(view.numPlayers, 3);
    assert.equal(view.roundNumber, obs.round_number);
    assert.equal(view.hand.length, obs.round_number + 2 + 1); // dealt r + 2, one card taken
    assert.equal(view.wildRank, obs.wild_rank);
    assert.equal(view.firstRound, 5);
    assert.equal(view.lastRound, 7);
    assert.equal(view.wentOut, null);
    assert.equal(view.lastTurnsRemaining, 0);
    assert.deepEqual(view.melds, []);
  });

  test("after someone went out: who, their melds and the last turns left", () => {
    const message = position("three-thirteen", "went_out");
    const view = readObservation("three-thirteen", message.observation);
    const out = message.events.find((event) => event.event === "went_out");
    assert.equal(view.wentOut, out.player);
    assert.notEqual(view.wentOut, message.seat);
    assert.ok(view.lastTurnsRemaining > 0);
    assert.deepEqual(
      view.melds.map((meld) => meld.cards),
      out.melds.map((meld) => meld.cards),
    );
    for (const meld of view.melds) {
      assert.equal(meld.owner, out.player);
      assert.ok(["set", "run"].includes(meld.kind));
      assert.deepEqual(Object.keys(meld).sort(), ["cards", "id", "kind", "owner"]);
    }
  });

  test("a finished round: its result and the next round", () => {
    const message = position("three-thirteen", "round_over");
    const view = readObservation("three-thirteen", message.observation);
    assert.equal(view.handOver, true);
    assert.equal(view.results.length, 1);
    assert.equal(view.results[0].round_number, view.roundNumber - 1);
    assert.equal(view.results[0].players.length, 3);
    const penalties = view.results[0].players.map((player) => player.deadwood);
    assert.deepEqual(view.totals, penalties);
  });

  test("a watcher: no seat and no hand, every public field", () => {
    const message = position("three-thirteen", "watcher");
    const obs = message.observation;
    assert.equal(message.seat, null);
    assert.equal(obs.hand, null);
    const view = readObservation("three-thirteen", obs);
    assert.equal(view.player, null);
    assert.deepEqual(view.hand, []);
    assert.equal(view.numPlayers, 3);
    assert.deepEqual(view.handSizes, obs.hand_sizes);
    assert.equal(view.knownCards.length, 3);
    assert.equal(view.stockCount, obs.stock_count);
  });
});

/** Every Burraco meld of every position, read by the model. */
function burracoMelds() {
  return Object.values(positions("burraco")).flatMap(
    (message) => readObservation("burraco", message.observation).melds,
  );
}

describe("wildStandsFor", () => {
  test("a run's wild stands for the place between its natural neighbours", () => {
    const dirtyRuns = burracoMelds().filter((meld) => meld.kind === "run" && meld.wildIndex !== null);
    assert.ok(dirtyRuns.length >= 2);
    for (const meld of dirtyRuns) {
      // a natural card of the run and its place, and the wild's distance from it
      const j = meld.cards.findIndex((name, i) => i !== meld.wildIndex && name !== "Jk" && name[0] !== "2");
      const natural = meld.cards[j];
      const place = natural[0] === "A" ? (j === 0 ? 1 : 14) : RANKS.indexOf(natural[0]) + 1;
      const expected = RANKS[place + meld.wildIndex - j - 1] + natural[1];
      assert.equal(wildStandsFor(meld), expected, meld.cards.join(" "));
    }
  });

  test("nothing for a set or a clean meld", () => {
    for (const meld of burracoMelds()) {
      if (meld.kind === "set" || meld.wildIndex === null) assert.equal(wildStandsFor(meld), null);
    }
  });
});

describe("burracoKind", () => {
  test("counts the clean and dirty burracos the engine scores", () => {
    const message = position("burraco", "over");
    const view = readObservation("burraco", message.observation);
    const [result] = view.results;
    for (let player = 0; player < 2; player += 1) {
      const kinds = view.melds.filter((meld) => meld.owner === player).map(burracoKind);
      assert.equal(kinds.filter((kind) => kind === "clean").length, result.breakdown[player].clean_burracos);
      assert.equal(kinds.filter((kind) => kind === "dirty").length, result.breakdown[player].dirty_burracos);
    }
    assert.ok(view.melds.some((meld) => burracoKind(meld) !== null));
  });

  test("a meld of fewer than seven cards is no burraco", () => {
    for (const meld of burracoMelds()) {
      if (meld.cards.length < 7) assert.equal(burracoKind(meld), null);
    }
  });
});

describe("lastTurns", () => {
  /** Each player's latest turn told by the events: what they took and discarded. */
  function fromEvents(events, numPlayers) {
    const last = Array(numPlayers).fill(null);
    const took = Array(numPlayers).fill(null);
    for (const event of events) {
      if (event.event === "discard_taken") took[event.player] = event.card;
      else if (event.event === "stock_drawn") took[event.player] = null;
      else if (event.event === "discarded" || event.event === "went_out") {
        const discarded = event.event === "discarded" ? event.card : event.discard;
        last[event.player] = { took: took[event.player], discarded, out: event.event === "went_out" };
        took[event.player] = null;
      }
    }
    return { last, took };
  }

  for (const name of ["discard", "went_out", "out"]) {
    test(`the discard history tells the turns the events tell (${name})`, () => {
      const message = position("three-thirteen", name);
      const view = readObservation("three-thirteen", message.observation);
      const turns = lastTurns(view.discardHistory, view.numPlayers);
      const told = fromEvents(message.events, view.numPlayers);
      assert.deepEqual(turns.last, told.last);
      assert.ok(turns.last.filter(Boolean).length >= 2);
      // the player to move has taken or drawn this turn and not yet discarded
      const mover = view.currentPlayer;
      assert.equal(turns.pendingTake[mover], told.took[mover]);
    });
  }

  test("every player's turn, each taking from the pile once", () => {
    const view = readObservation("three-thirteen", position("three-thirteen", "discard").observation);
    const turns = lastTurns(view.discardHistory, view.numPlayers);
    assert.equal(turns.last.length, 3);
    assert.equal(turns.pendingTake.length, 3);
  });

  test("no turns before any move", () => {
    assert.deepEqual(lastTurns([], 2), { last: [null, null], pendingTake: [null, null] });
  });
});

describe("eventKind", () => {
  test("names each event's kind", () => {
    for (const game of ["burraco", "three-thirteen"]) {
      for (const message of Object.values(positions(game))) {
        for (const event of message.events) assert.equal(eventKind(event), event.event);
      }
    }
  });
});

describe("turnCameWith", () => {
  const entry = (/** @type {number} */ index, /** @type {number | undefined} */ player) => ({ index, event: { player } });

  test("the last entry that is not the player's own move", () => {
    const log = [entry(0, undefined), entry(1, 1), entry(2, 0), entry(3, 0)];
    assert.equal(turnCameWith(log, 0), 1);
    assert.equal(turnCameWith(log, 1), 3);
  });

  test("a deal brings a turn too; before any entry there is none", () => {
    assert.equal(turnCameWith([entry(0, 1), entry(1, undefined), entry(2, 0)], 0), 1);
    assert.equal(turnCameWith([], 0), -1);
  });

  test("a reply that arrives with the player's own move is a new turn", () => {
    const before = [entry(0, undefined)];
    const after = [...before, entry(1, 0), entry(2, 1), entry(3, 1)];
    assert.notEqual(turnCameWith(after, 0), turnCameWith(before, 0));
  });
});
