// legal.js on the legal-move lists real games send: indexLegal and actionCards.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { bagKey } from "../../src/rummykit/web/js/cards.js";
import { actionCards, indexLegal } from "../../src/rummykit/web/js/legal.js";
import { position } from "./positions.mjs";

const words = (action) => action.split(" ");

describe("indexLegal", () => {
  test("before drawing: draw and take, nothing else", () => {
    const message = position("burraco", "draw");
    assert.deepEqual([...message.legal_actions].sort(), ["draw", "take"]);
    const index = indexLegal(message.legal_actions);
    assert.equal(index.known, true);
    assert.equal(index.draw, true);
    assert.equal(index.take, true);
    for (const map of [index.melds, index.extensions, index.discards, index.outs]) assert.equal(map.size, 0);
    assert.equal(index.extendable.size, 0);
  });

  describe("after drawing (Burraco)", () => {
    const message = position("burraco", "play");
    const legal = message.legal_actions;
    const index = indexLegal(legal);
    const hand = message.observation.hand;

    test("every new meld by its cards, in any order", () => {
      const melds = legal.filter((action) => action.startsWith("meld "));
      assert.ok(melds.length >= 1);
      assert.equal(index.melds.size, melds.length);
      for (const action of melds) {
        const cards = words(action).slice(1);
        assert.equal(index.melds.get(bagKey(cards)), action);
        assert.equal(index.melds.get(bagKey([...cards].reverse())), action);
        for (const card of cards) assert.ok(hand.includes(card), `${card} is not in the hand`);
      }
    });

    test("every addition by meld id and cards; only the player's own melds accept one", () => {
      const extensions = legal.filter((action) => action.startsWith("extend "));
      assert.ok(extensions.length >= 1);
      assert.equal(index.extensions.size, extensions.length);
      for (const action of extensions) {
        const [, id, ...cards] = words(action);
        assert.equal(index.extensions.get(`${id}|${bagKey(cards)}`), action);
      }
      const own = message.observation.melds.filter((meld) => meld.owner === message.seat).map((meld) => meld.meld_id);
      assert.ok(index.extendable.size >= 1);
      for (const id of index.extendable) assert.ok(own.includes(id), `meld ${id} is not the player's`);
    });

    test("every discard by its card, each a card of the hand", () => {
      const discards = legal.filter((action) => action.startsWith("discard "));
      assert.equal(index.discards.size, new Set(discards).size);
      for (const action of discards) assert.equal(index.discards.get(words(action)[1]), action);
      for (const card of index.discards.keys()) assert.ok(hand.includes(card));
      assert.equal(index.draw, false);
      assert.equal(index.take, false);
      assert.equal(index.outs.size, 0);
    });
  });

  test("Three-Thirteen: going out by the card discarded", () => {
    const message = position("three-thirteen", "out");
    const index = indexLegal(message.legal_actions);
    const outs = message.legal_actions.filter((action) => action.startsWith("out "));
    assert.ok(outs.length >= 1);
    assert.equal(index.outs.size, outs.length);
    for (const action of outs) assert.equal(index.outs.get(words(action)[1]), action);
    // every card of the hand may be discarded
    assert.deepEqual([...index.discards.keys()].sort(), [...new Set(message.observation.hand)].sort());
  });

  test("nothing known while another seat has the turn", () => {
    const message = position("burraco", "burraco");
    assert.notEqual(message.turn.player, message.seat);
    assert.deepEqual(message.legal_actions, []);
    const index = indexLegal(message.legal_actions);
    assert.equal(index.known, false);
    assert.equal(index.draw || index.take, false);
    assert.equal(index.melds.size + index.extensions.size + index.discards.size + index.outs.size, 0);
  });
});

describe("actionCards", () => {
  test("the cards each legal action plays", () => {
    for (const message of [position("burraco", "play"), position("burraco", "draw"), position("three-thirteen", "out")]) {
      for (const action of message.legal_actions) {
        const [verb, ...rest] = words(action);
        const expected = verb === "extend" ? rest.slice(1) : verb === "draw" || verb === "take" ? [] : rest;
        assert.deepEqual(actionCards(action), expected, action);
      }
    }
  });

  test("a hint's action with spaces around it, and no action", () => {
    const [action] = position("burraco", "play").legal_actions.filter((a) => a.startsWith("meld "));
    assert.deepEqual(actionCards(`  ${action} `), words(action).slice(1));
    assert.deepEqual(actionCards(null), []);
    assert.deepEqual(actionCards(""), []);
  });
});
