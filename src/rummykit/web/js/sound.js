// Short table sounds made with Web Audio (no files); silent unless the player turns them on.

import { settings } from "./store.js";

/** @type {AudioContext | null} */
let context = null;

/** Each sound's tones: [frequency in Hz, seconds]. @type {Record<string, [number, number][]>} */
const TONES = {
  card: [[520, 0.05]],
  turn: [[660, 0.08], [880, 0.12]],
  chat: [[740, 0.06]],
  error: [[220, 0.15]],
  end: [[523, 0.12], [659, 0.12], [784, 0.2]],
  warn: [[988, 0.07], [988, 0.07]],
};

/**
 * Play the sound `name` ("card", "turn", "chat", "error", "end", "warn": the player's
 * own turn clock is in its last seconds) if the player turned
 * sounds on.
 * @param {string} name
 */
export function play(name) {
  if (!settings.get().sounds) return;
  const tones = TONES[name];
  if (!tones) return;
  try {
    context = context || new AudioContext();
    let at = context.currentTime;
    for (const [frequency, length] of tones) {
      const oscillator = context.createOscillator();
      const gain = context.createGain();
      oscillator.frequency.value = frequency;
      oscillator.type = "triangle";
      gain.gain.setValueAtTime(0.12, at);
      gain.gain.exponentialRampToValueAtTime(0.001, at + length);
      oscillator.connect(gain).connect(context.destination);
      oscillator.start(at);
      oscillator.stop(at + length);
      at += length * 0.9;
    }
  } catch {
    // no audio device: stay silent
  }
}
