/** Fund access rules shared by the server and the forms (zod-free; their messages are in content/validation.ts). SPEC.md §2, §4, §5, §8. */

export const FUND_IDS = ["fund-i", "fund-ii"] as const;
export type FundId = (typeof FUND_IDS)[number];

export function isFundId(value: unknown): value is FundId {
  return value === "fund-i" || value === "fund-ii";
}

/** Browser storage key of the Fund II token (SPEC.md §9). */
export const FUND_II_TOKEN_STORAGE_KEY = "fund-ii-access-token";

