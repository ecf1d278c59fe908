/** Fund access rules and texts shared by the server and the forms (zod-free). SPEC.md §2, §4, §5, §8. */

export const FUND_IDS = ["fund-i", "fund-ii"] as const;
export type FundId = (typeof FUND_IDS)[number];

export function isFundId(value: unknown): value is FundId {
  return value === "fund-i" || value === "fund-ii";
}

/** Browser storage key of the Fund II token (SPEC.md §9). */
export const FUND_II_TOKEN_STORAGE_KEY = "fund-ii-access-token";

export const fundAccessMessages = {
  nameRequired: "Name is required",
  accreditedRequired: "You must confirm that you are an accredited/qualified investor",
  phoneInvalid: "Enter a valid phone number",
  tokenRequired: "Access token required",
  tokenInvalid: "Invalid access token",
  validationFailed: "Failed to validate access",
  registrationFailed: "An error occurred during registration",
  requestNotFound: "Access request not found",
} as const;
