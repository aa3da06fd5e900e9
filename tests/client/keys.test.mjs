// keys.js: shortcuts named by the key's place (event.code), whatever the layout types.

import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { describe, test } from "node:test";

import { shortcutKey } from "../../src/rummykit/web/js/keys.js";

describe("shortcutKey", () => {
  test("a Cyrillic layout's letters name the Latin key at the same place", () => {
    assert.equal(shortcutKey({ code: "KeyD", key: "в" }), "d");
    assert.equal(shortcutKey({ code: "KeyH", key: "р" }), "h");
    assert.equal(shortcutKey({ code: "KeyS", key: "ы" }), "s");
  });

  test("digits from the top row and the number pad", () => {
    assert.equal(shortcutKey({ code: "Digit3", key: '"' }), "3");
    assert.equal(shortcutKey({ code: "Numpad0", key: "0" }), "0");
  });

  test("named keys in lower case", () => {
    assert.equal(shortcutKey({ code: "Escape", key: "Escape" }), "escape");
    assert.equal(shortcutKey({ code: "Delete", key: "Delete" }), "delete");
    assert.equal(shortcutKey({ code: "ArrowLeft", key: "ArrowLeft" }), "arrowleft");
  });

  test("without a code (some virtual keyboards) the typed key is used", () => {
    assert.equal(shortcutKey({ code: "", key: "D" }), "d");
  });
});

test("no module reads a letter shortcut from event.key", () => {
  const js = new URL("../../src/rummykit/web/js/", import.meta.url);
  const views = new URL("views/", js);
  const files = [js, views].flatMap((dir) =>
    readdirSync(dir).filter((name) => name.endsWith(".js")).map((name) => new URL(name, dir)),
  );
  assert.ok(files.some((file) => file.pathname.endsWith("/js/keys.js")));
  for (const file of files) {
    const text = readFileSync(file, "utf8");
    const letters = text.match(/event\.key(?:\.toLowerCase\(\))?\s*===\s*"[a-zA-Z0-9]"/g);
    assert.equal(letters, null, `${file} compares event.key with a letter`);
    assert.doesNotMatch(text, /latest\.current\(event\.key/, `${file} passes event.key to shortcuts`);
  }
});
