/** The longest search the investors page accepts (longer input is cut). */
export const INVESTOR_QUERY_MAX = 100;

/** A search as typed, trimmed, runs of white space as one space, cut to INVESTOR_QUERY_MAX; empty when there is none. */
export function cleanInvestorQuery(value: string | null | undefined): string {
  return (value ?? "").trim().replace(/\s+/g, " ").slice(0, INVESTOR_QUERY_MAX);
}
