/**
 * An investor's reference code ("LRV-0042"): the firm's short name for an
 * investor, set by an admin, unique, matched whole in bulk upload file names
 * (modules/bulk-upload/match.ts). Stored upper case, so the unique index
 * compares codes whatever the case they were typed in. Zod-free: the page's
 * form reads the length from here; the schema is in reference-code.server.ts.
 */

export const REFERENCE_CODE_MAX = 20;

/** 2 to 20 characters: groups of A–Z and 0–9 joined by single hyphens (no hyphen first, last or twice). */
export const REFERENCE_CODE_PATTERN = /^(?=.{2,20}$)[A-Z0-9]+(?:-[A-Z0-9]+)*$/;

/** A code as typed, as it is compared and stored: trimmed, upper case. */
export function normalizeReferenceCode(value: string): string {
  return value.trim().toUpperCase();
}
