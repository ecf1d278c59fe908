import { z } from "zod";

/**
 * zod, as the app uses it: every schema imports `z` from here. zod compiles
 * object schemas with `new Function` when it can, and probes for it on the
 * first parse; our Content-Security-Policy forbids eval, so in the browser the
 * probe was reported as a violation on every page that validates a form (the
 * account, pitch and admin pages; Lighthouse counts it too). `jitless` skips
 * the compiler and the probe: parsing stays the same, interpreted.
 */
z.config({ jitless: true });

export { z };
