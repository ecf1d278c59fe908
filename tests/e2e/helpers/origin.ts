/** The e2e server's origin (playwright.config.ts; E2E_PORT overrides the port). */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3210);
export const BASE_URL = `http://localhost:${E2E_PORT}`;
/** A RegExp-safe form of BASE_URL. */
export const BASE_URL_RE = BASE_URL.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
