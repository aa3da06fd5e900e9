// Table sounds made with Web Audio (no files); silent unless the player turns them on.
// Cards sound like cards: a slide (a card drawn or taken), a soft place (a card laid
// down) and a riffle (a shuffle), each a burst of filtered noise under an envelope; the
// turn, chat, refusal and end signals are short soft tones.

import { settings } from "./store.js";

/** @import { GameEvent } from "./protocol-types" */

/** @type {AudioContext | null} */
let context = null;
/** @type {AudioBuffer | null} */
let noise = null;
/** Sounds played since the page opened, by name (read by the browser tests). @type {Record<string, number>} */
export const played = {};

/** Each tone signal's notes: [frequency in Hz, seconds]. @type {Record<string, [number, number][]>} */
const TONES = {
  turn: [[660, 0.08], [880, 0.12]],
  chat: [[740, 0.06]],
  error: [[220, 0.15]],
  end: [[523, 0.12], [659, 0.12], [784, 0.2]],
  warn: [[988, 0.07], [988, 0.07]],
};

/**
 * One burst of noise: band-passed around `from` Hz gliding to `to` Hz, rising in
 * `attack` seconds and dying away over `length` seconds.
 * @typedef {{ at: number, from: number, to: number, q: number, attack: number, length: number, level: number }} Burst
 */

/**
 * The bursts of each card sound, starting at 0 s.
 * @type {Record<string, () => Burst[]>}
 */
const CARD_SOUNDS = {
  // a card sliding over the felt: a soft hiss falling in pitch
  slide: () => [{ at: 0, from: 2600, to: 900, q: 0.9, attack: 0.03, length: 0.2, level: 0.22 }],
  // a card laid down: a short muffled tap
  place: () => [
    { at: 0, from: 1400, to: 500, q: 0.7, attack: 0.004, length: 0.09, level: 0.35 },
    { at: 0.01, from: 3200, to: 2200, q: 1.2, attack: 0.002, length: 0.04, level: 0.08 },
  ],
  // a riffle: many quick flicks, a little irregular
  shuffle: () =>
    Array.from({ length: 14 }, (_, i) => ({
      at: i * 0.034 + Math.random() * 0.012,
      from: 3400 - i * 60,
      to: 1800,
      q: 1.4,
      attack: 0.003,
      length: 0.045,
      level: 0.16,
    })),
};

/**
 * The card sound of a state's events: a shuffle for a deal or a reshuffle, a place for
 * cards laid down, a slide for cards drawn or taken.
 * @param {GameEvent["event"][]} kinds
 * @returns {string}
 */
export function cardSound(kinds) {
  if (kinds.some((k) => k === "hand_dealt" || k === "stock_reshuffled")) return "shuffle";
  if (kinds.some((k) => k === "discarded" || k === "melded" || k === "extended" || k === "went_out")) return "place";
  return "slide";
}

/** @param {AudioContext} audio */
function noiseBuffer(audio) {
  if (noise && noise.sampleRate === audio.sampleRate) return noise;
  const buffer = audio.createBuffer(1, Math.floor(audio.sampleRate * 0.5), audio.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < data.length; i += 1) data[i] = Math.random() * 2 - 1;
  noise = buffer;
  return buffer;
}

/**
 * @param {AudioContext} audio
 * @param {Burst} burst
 * @param {number} start seconds on the context's clock
 */
function playBurst(audio, burst, start) {
  const at = start + burst.at;
  const source = audio.createBufferSource();
  source.buffer = noiseBuffer(audio);
  const filter = audio.createBiquadFilter();
  filter.type = "bandpass";
  filter.Q.value = burst.q;
  filter.frequency.setValueAtTime(burst.from, at);
  filter.frequency.exponentialRampToValueAtTime(burst.to, at + burst.length);
  const gain = audio.createGain();
  gain.gain.setValueAtTime(0.0001, at);
  gain.gain.exponentialRampToValueAtTime(burst.level, at + burst.attack);
  gain.gain.exponentialRampToValueAtTime(0.0001, at + burst.length);
  source.connect(filter).connect(gain).connect(audio.destination);
  source.start(at, Math.random() * 0.2);
  source.stop(at + burst.length + 0.02);
}

/**
 * @param {AudioContext} audio
 * @param {[number, number][]} tones
 */
function playTones(audio, tones) {
  let at = audio.currentTime;
  for (const [frequency, length] of tones) {
    const oscillator = audio.createOscillator();
    const gain = audio.createGain();
    oscillator.frequency.value = frequency;
    oscillator.type = "sine";
    gain.gain.setValueAtTime(0.0001, at);
    gain.gain.exponentialRampToValueAtTime(0.12, at + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
    oscillator.connect(gain).connect(audio.destination);
    oscillator.start(at);
    oscillator.stop(at + length);
    at += length * 0.9;
  }
}

/**
 * Play the sound `name` if the player turned sounds on: a card sound ("slide", "place",
 * "shuffle"; "card" is a place) or a signal ("turn", "chat", "error", "end", "warn": the
 * player's own turn clock is in its last seconds).
 * @param {string} name
 */
export function play(name) {
  if (!settings.get().sounds) return;
  const sound = name === "card" ? "place" : name;
  const bursts = CARD_SOUNDS[sound];
  const tones = TONES[sound];
  if (!bursts && !tones) return;
  try {
    context = context || new AudioContext();
    // a context made before the page was touched starts suspended
    if (context.state === "suspended") context.resume().catch(() => {});
    if (bursts) for (const burst of bursts()) playBurst(context, burst, context.currentTime);
    else playTones(context, tones);
    played[sound] = (played[sound] || 0) + 1;
  } catch {
    // no audio device: stay silent
  }
}
