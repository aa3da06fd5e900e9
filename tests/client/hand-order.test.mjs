// hand-order.js on real hands: keys that tell copies apart, an order carried over a draw,
// the two sorts and moving cards.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { moveTo, reconcile, sortOrder } from "../../src/rummykit/web/js/hand-order.js";
import { position } from "./positions.mjs";

const SUITS = "shcd"; // the hand's suit order: alternating colours
const RANKS = "A23456789TJQK";
const names = (order) => order.map((entry) => entry.name);
const keys = (order) => order.map((entry) => entry.key);
const sorted = (cards) => [...cards].sort();

describe("reconcile", () => {
  test("a new hand: every card a key of its own, both copies of a card too", () => {
    const hand = position("burraco", "play").observation.hand;
    const twice = hand.find((card, i) => hand.indexOf(card) !== i);
    assert.ok(twice, "the fixture's hand holds both copies of a card");
    const { order, fresh } = reconcile([], hand, "suit");
    assert.deepEqual(sorted(names(order)), sorted(hand));
    assert.equal(new Set(keys(order)).size, hand.length);
    assert.deepEqual(new Set(keys(order)), fresh);
    const copies = order.filter((entry) => entry.name === twice);
    assert.equal(copies.length, 2);
    assert.notEqual(copies[0].key, copies[1].key);
    for (const entry of order) assert.ok(entry.key.startsWith(`${entry.name}#`));
  });

  describe("over a draw from the stock", () => {
    const before = position("burraco", "draw");
    const after = position("burraco", "drawn");
    const drawn = after.events.at(-1);

    test("the fixture is the same player's hand before and after the draw", () => {
      assert.equal(after.seat, before.seat);
      assert.equal(drawn.event, "stock_drawn");
      assert.equal(drawn.player, before.seat);
      assert.deepEqual(sorted(after.observation.hand), sorted([...before.observation.hand, drawn.card]));
    });

    test("the cards held keep their keys; the drawn card alone is new", () => {
      const first = reconcile([], before.observation.hand, "suit");
      const second = reconcile(first.order, after.observation.hand, "suit");
      assert.deepEqual(sorted(names(second.order)), sorted(after.observation.hand));
      for (const key of keys(first.order)) assert.ok(keys(second.order).includes(key));
      assert.equal(second.fresh.size, 1);
      const [key] = second.fresh;
      assert.equal(second.order.find((entry) => entry.key === key).name, drawn.card);
    });

    test("the player's own order stays, the new card last", () => {
      const first = reconcile([], before.observation.hand, "suit");
      const arranged = moveTo(first.order, [first.order.at(-1).key], 0);
      const second = reconcile(arranged, after.observation.hand, "custom");
      assert.deepEqual(keys(second.order).slice(0, arranged.length), keys(arranged));
      assert.equal(second.order.at(-1).name, drawn.card);
    });
  });

  test("cards played leave the order; the rest keep their keys", () => {
    const hand = position("three-thirteen", "discard").observation.hand;
    const first = reconcile([], hand, "rank");
    const played = hand.slice(0, 2);
    const left = hand.slice(2);
    const second = reconcile(first.order, left, "rank");
    assert.deepEqual(sorted(names(second.order)), sorted(left));
    assert.equal(second.fresh.size, 0);
    for (const entry of second.order) assert.ok(first.order.some((old) => old.key === entry.key));
    for (const card of played) assert.equal(names(second.order).includes(card), left.includes(card));
  });
});

describe("sortOrder", () => {
  const hand = [
    ...position("burraco", "play").observation.hand,
    ...position("three-thirteen", "out").observation.hand,
    ...position("burraco", "over").observation.hand, // a joker
  ];
  const { order } = reconcile([], hand, "custom");

  /** [suit, rank] (suit first) or [rank, suit], a joker after every card. */
  const place = (name, bySuit) => {
    if (name === "Jk") return [99, 99];
    const suit = SUITS.indexOf(name[1]);
    const rank = RANKS.indexOf(name[0]);
    return bySuit ? [suit, rank] : [rank, suit];
  };
  const inOrder = (entries, bySuit) =>
    entries.every((entry, i) => {
      if (i === 0) return true;
      const [a1, a2] = place(entries[i - 1].name, bySuit);
      const [b1, b2] = place(entry.name, bySuit);
      return a1 < b1 || (a1 === b1 && a2 <= b2);
    });

  test("by suit: spades, hearts, clubs, diamonds, aces low, the joker last", () => {
    const bySuit = sortOrder(order, "suit");
    assert.ok(inOrder(bySuit, true), names(bySuit).join(" "));
    assert.equal(bySuit.at(-1).name, "Jk");
    assert.deepEqual(sorted(keys(bySuit)), sorted(keys(order)));
  });

  test("by rank: aces first, the joker last", () => {
    const byRank = sortOrder(order, "rank");
    assert.ok(inOrder(byRank, false), names(byRank).join(" "));
    assert.equal(byRank[0].name[0], "A");
    assert.equal(byRank.at(-1).name, "Jk");
  });

  test("the order given is left as it was", () => {
    const copy = keys(order);
    sortOrder(order, "rank");
    assert.deepEqual(keys(order), copy);
  });
});

describe("moveTo", () => {
  const { order } = reconcile([], position("three-thirteen", "discard").observation.hand, "suit");
  const [a, b, c] = keys(order);

  test("the cards moved go together to the place asked, in their order", () => {
    const moved = moveTo(order, [c, a], 1);
    assert.deepEqual(keys(moved).slice(1, 3), [a, c]);
    assert.equal(keys(moved)[0], b);
    assert.equal(moved.length, order.length);
  });

  test("a place past either end is the end", () => {
    assert.deepEqual(keys(moveTo(order, [a], 99)).at(-1), a);
    assert.deepEqual(keys(moveTo(order, [keys(order).at(-1)], -5))[0], keys(order).at(-1));
  });
});
