// i18n.js: an engine's English explanation with its cards written as cards, a wild's
// meaning in words ("2h(=K)" is "2♥ as K"), read with the real message files.

import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { before, test } from "node:test";

globalThis.fetch = /** @type {any} */ (async (/** @type {string} */ url) => {
  const text = await readFile(new URL(url), "utf8");
  return { ok: true, status: 200, json: async () => JSON.parse(text) };
});
globalThis.document = /** @type {any} */ ({ documentElement: {} });

const { cardsInText, refusalText, setCardFormatter, setLanguage } = await import("../../src/rummykit/web/js/i18n.js");

before(async () => {
  setCardFormatter((name) => `[${name}]`);
});

test("a wild's meaning is said in words, in each language", async () => {
  await setLanguage("en");
  assert.equal(cardsInText("5h 2c(=6h) 7h"), "[5h] [2c] as [6h] [7h]");
  assert.equal(cardsInText("Kc Kd Jk(=K)"), "[Kc] [Kd] [Jk] as K");
  await setLanguage("hu");
  assert.equal(cardsInText("Qc Qd Jk(=Q)"), "[Qc] [Qd] [Jk] (D helyett)");
  await setLanguage("ru");
  assert.equal(cardsInText("Ac Ad 2h(=A)"), "[Ac] [Ad] [2h] (вместо Т)");
});

test("no engine notation is left, and the plural 2s stays a word", async () => {
  await setLanguage("en");
  assert.doesNotMatch(cardsInText("3h 4h 2c(=5h) 6h cannot take 2d(=7h)"), /\(=/);
  assert.equal(cardsInText("2s cannot form a set"), "2s cannot form a set");
});

test("a refused meld says what is wrong with it in the player's language", async () => {
  const params = { cards: ["5h", "5h", "6h", "7h"], why: "twice", detail: ["5h"], reason: "a run cannot hold 5h twice" };
  await setLanguage("hu");
  assert.equal(
    refusalText({ code: "illegal_meld", params }),
    "Ezek a lapok nem alkotnak kombinációt: [5h] [5h] [6h] [7h]. Egy sorban ugyanaz a lap nem lehet kétszer: [5h].",
  );
  await setLanguage("ru");
  assert.match(refusalText({ code: "illegal_meld", params: { ...params, why: "gap" } }), /не идущие подряд/);
  // a reason this client has no words for: the general words, never the English reason
  assert.doesNotMatch(refusalText({ code: "illegal_meld", params: { ...params, why: "newer" } }), /twice/);
  await setLanguage("en");
  assert.equal(refusalText({ code: "illegal_meld", params: { ...params, why: "newer" } }), "[5h] [5h] [6h] [7h] is not a meld: a run cannot hold [5h] twice.");
});
