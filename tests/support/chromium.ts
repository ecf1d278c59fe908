import fs from "node:fs";

/**
 * The browser the e2e suite and the hardening run drive: Debian's
 * chromium-headless-shell, the same Chromium build as the `chromium` package
 * without the browser's window machinery (what Playwright itself runs
 * headless); a page costs it about half the CPU (decision 035). Without it, the
 * full browser. E2E_CHROMIUM picks another. Playwright never downloads one.
 */
export const CHROMIUM_PATH =
  process.env.E2E_CHROMIUM ?? ["/usr/bin/chromium-headless-shell", "/usr/bin/chromium"].find((candidate) => fs.existsSync(candidate)) ?? "/usr/bin/chromium";
