/**
 * The funds table's per-fund behaviours as the UI knows them (zod-free, no
 * server code; decision 038). db/schema.ts spells the same values for the
 * columns; funds.server.ts holds the rows.
 */

/**
 * How a fund's document pages are reached: "open", a sign-up gives access at
 * once (a cookie); "by_request", access comes as a mailed link, which an admin
 * can revoke or send again (decision 012).
 */
export const FUND_ACCESS_MODES = ["open", "by_request"] as const;
export type FundAccessMode = (typeof FUND_ACCESS_MODES)[number];

/** Whether a fund takes new commitments. */
export const FUND_STATUSES = ["closed", "open"] as const;
export type FundStatus = (typeof FUND_STATUSES)[number];
