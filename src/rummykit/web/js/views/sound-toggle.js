// The table's sound switch in the top bar: the same setting as the settings dialog's
// "Sounds", one tap away during a game; turning it on plays a card sound to hear it.

import { html } from "../html.js";
import { t } from "../i18n.js";
import { settings } from "../store.js";
import { useStore } from "../hooks.js";
import { play } from "../sound.js";

/** A speaker, with waves when `on`, crossed out when not. @param {{ on: boolean }} props */
function IconSpeaker({ on }) {
  return html`<svg class="icon" viewBox="0 0 24 24" width="1em" height="1em" aria-hidden="true">
    <path d="M4 9h4l5-4v14l-5-4H4z" fill="currentColor" />
    ${on
      ? html`<path d="M16 8.5a5 5 0 0 1 0 7M18.5 6a8.5 8.5 0 0 1 0 12" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linecap="round" />`
      : html`<path d="M16 9l5 6M21 9l-5 6" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linecap="round" />`}
  </svg>`;
}

export function SoundToggle() {
  const { sounds } = useStore(settings);
  const flip = () => {
    settings.set({ sounds: !sounds });
    if (!sounds) play("place");
  };
  return html`<button type="button" class="quiet sound-toggle" data-testid="sound-toggle" aria-pressed=${String(sounds)}
      aria-label=${t("table.sounds")} title=${sounds ? t("table.sounds_on") : t("table.sounds_off")} onClick=${flip}>
    <${IconSpeaker} on=${sounds} />
  </button>`;
}
