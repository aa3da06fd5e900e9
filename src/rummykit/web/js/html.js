// The one place the vendored view library is imported: Preact with htm templates.
import { h, render, Fragment } from "../vendor/preact.module.js";
import htm from "../vendor/htm.module.js";

export {
  useState,
  useEffect,
  useRef,
  useMemo,
  useCallback,
  useLayoutEffect,
} from "../vendor/preact-hooks.module.js";
export { h, render, Fragment };
export const html = htm.bind(h);
