// notifications.js and push.js: a kind's channels turned on and off (the page never
// stored), and the server's base64url key read as the bytes a browser subscribes with.

import assert from "node:assert/strict";
import { test } from "node:test";

globalThis.document = /** @type {any} */ ({ documentElement: {} });

const { toggled } = await import("../../src/rummykit/web/js/views/notifications.js");
const { base64UrlBytes } = await import("../../src/rummykit/web/js/push.js");

test("a channel is added to or taken from its kind alone, never the page", () => {
  const before = { game_ended: ["email"], your_turn: ["push"] };
  assert.deepEqual(toggled(before, "game_ended", "push", true), {
    game_ended: ["email", "push"],
    your_turn: ["push"],
  });
  assert.deepEqual(toggled(before, "game_ended", "email", false), { game_ended: [], your_turn: ["push"] });
  assert.deepEqual(toggled({}, "invitation", "email", true), { invitation: ["email"] });
  assert.deepEqual(toggled({ time_low: ["page", "push"] }, "time_low", "push", true), { time_low: ["push"] });
  assert.deepEqual(before, { game_ended: ["email"], your_turn: ["push"] }); // unchanged
});

test("a base64url key without padding becomes its bytes", () => {
  assert.deepEqual([...base64UrlBytes("-_8")], [0xfb, 0xff]);
  assert.deepEqual([...base64UrlBytes("AQID")], [1, 2, 3]);
  const key = "BP" + "A".repeat(85); // 65 bytes, the first 0x04 as an uncompressed point's
  const bytes = base64UrlBytes(key);
  assert.equal(bytes.length, 65);
  assert.equal(bytes[0], 0x04);
});
