/**
 * The history import's limits and names (issue 25 §5), shared by the page,
 * the domain and server/app.ts (no server-only imports here).
 */

/**
 * The history file and the P&L file together. A grown fund's history is big:
 * 2,000 entities × 40 quarters of a call, a payment and a valuation each is
 * 240,000 rows, about 15 MB with entity names (22 MB with ids), and its P&L
 * another 80,000 rows (6 MB). The valuations import's 8 MB is too small for it.
 */
export const HISTORY_FILES_BYTES = 32 * 1024 * 1024;

/**
 * The page's form posts may carry that and the multipart framing; the app
 * answers a larger declared body with its own message (HISTORY_FILES_BYTES + 1 MB).
 */
export const HISTORY_FORM_BYTES = HISTORY_FILES_BYTES + 1024 * 1024;

/** server/app.ts's limit for the page's posts: above the app's own, so a body a little too large gets the page's message. */
export const HISTORY_PAGE_BODY_BYTES = HISTORY_FORM_BYTES + 1024 * 1024;

/** The import page of a fund and its single-fetch twin (`….data`, where a form posts once React runs). */
export const HISTORY_PAGE_PATH = /^\/admin\/funds\/[^/]+\/import(?:\.data)?$/;

/** The page's form intent (a `step` field tells the upload from the confirm). */
export const HISTORY_INTENT = "history-import";

/** The most rows of the history file: 2,000 entities × 40 quarters × 3 events, with room to spare. */
export const MAX_HISTORY_ROWS = 250_000;

/** The most rows of the P&L file: 2,000 entities × 50 quarters. */
export const MAX_HISTORY_PNL_ROWS = 100_000;

/** The events of a history row. */
export const HISTORY_EVENTS = ["call", "payment", "distribution", "valuation"] as const;
export type HistoryEvent = (typeof HISTORY_EVENTS)[number];

/** How long an uploaded pair of files waits for its confirm (STORAGE_DIR/incoming). */
export const HISTORY_UPLOAD_TTL_MS = 60 * 60 * 1000;
