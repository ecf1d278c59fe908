import { VALUATIONS_BODY_BYTES } from "~/modules/valuations/constants";

/**
 * The forms of /admin/funds/{slug}/statements (routes/admin/fund-statements.server.ts
 * answers them): the P&L import (`step` preview or confirm), a quarter's publish and
 * restate (`quarter`), and the watermark setting (`watermark`).
 */
export const STATEMENTS_IMPORT_INTENT = "statements-import";
export const QUARTER_INTENTS = ["publish-quarter", "restate-quarter"] as const;
export const WATERMARK_INTENT = "statements-watermark";
export const FUND_STATEMENTS_INTENTS = [STATEMENTS_IMPORT_INTENT, ...QUARTER_INTENTS, WATERMARK_INTENT] as const;

/** The page's largest file (the JSON import's limit: 8 MB; server/app.ts lets the page's posts carry it and the confirm's text). */
export const STATEMENTS_FILE_BYTES = VALUATIONS_BODY_BYTES;

export const statementsPagePath = (fund: { slug: string }) => `/admin/funds/${fund.slug}/statements`;
