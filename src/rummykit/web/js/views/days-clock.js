// A turn-based game's clock (a game over days): the days or hours left of the mover's
// time per move, "on vacation until …" while the mover is away, or that the time ran out.

import { html } from "../html.js";
import { formatDateTime, t } from "../i18n.js";
import { useTicker } from "../hooks.js";

/**
 * @import { TurnInfo } from "../protocol-types"
 */

const HOUR = 3600;
const DAY = 24 * HOUR;

/**
 * The time left of a turn in words: whole days while two days or more are left, else
 * whole hours (at least one), or that the time ran out.
 * @param {number} seconds
 * @returns {string}
 */
export function daysLeftText(seconds) {
  if (seconds <= 0) return t("turns.time_out");
  if (seconds >= 2 * DAY) return t("turns.days_left", { days: Math.floor(seconds / DAY) });
  return t("turns.hours_left", { hours: Math.max(1, Math.floor(seconds / HOUR)) });
}

/**
 * The mover's clock at a turn-based table, counted from the turn's deadline.
 * @param {{ turn: (TurnInfo & { receivedAt?: number }) | null }} props
 */
export function DaysClock({ turn }) {
  useTicker(60_000, Boolean(turn));
  if (!turn || typeof turn.deadline !== "number") return null;
  const away = turn.vacation_until ?? null;
  const left = turn.expired ? 0 : turn.deadline - Date.now() / 1000;
  const text = away !== null ? t("turns.on_vacation", { date: formatDateTime(away) }) : daysLeftText(left);
  const urgent = !away && left < DAY;
  return html`<span class=${`turn-clock days-clock${urgent ? " urgent" : ""}`} role="timer"
      data-testid="days-clock" title=${t("turns.deadline", { date: formatDateTime(turn.deadline) })}>${text}</span>`;
}
