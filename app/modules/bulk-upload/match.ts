/**
 * Which investor a bulk-uploaded file is for, read from its name: the
 * investor's reference code or e-mail address appearing in it as a whole
 * token, whatever the case ("Q3-2026-LRV-0042.pdf", "statement_jane.doe@example.com.pdf").
 * Pure functions (no I/O), unit-tested in tests/unit/bulk-match.test.ts.
 *
 * The name is matched without its final ".pdf" and in lower case. A "word
 * character" is any letter or digit (Unicode).
 *
 * - A reference code matches where it occurs with no word character right
 *   before or right after it: `LRV-0042` is found in "Q3-2026-LRV-0042.pdf"
 *   and "lrv-0042_statement.pdf", but `LRV-004` is not found in
 *   "LRV-0042.pdf" and `RV-0042` not in "LRV-0042.pdf".
 * - An e-mail address matches where it occurs with, right before it, nothing
 *   or a character that cannot continue its local part (white space, `_`,
 *   `-`, brackets, punctuation other than the ones below) and, right after
 *   it, nothing or a character that cannot continue its domain. So
 *   `doe@example.com` is not found in "jane.doe@example.com.pdf" (a `.`, `+`
 *   or word character before it), nor `jane@example.com` in
 *   "jane@example.com.au.pdf" or "jane@example.com-2.pdf" (the domain goes on).
 * - A file matches one investor when every code and address found in it
 *   belongs to that investor; found for two or more it is ambiguous, found
 *   for none it matches nobody. Ambiguous and unmatched files are never
 *   published.
 */

export type MatchCandidate = { id: string; email: string; referenceCode: string | null };

export type FileMatch = { kind: "matched"; userId: string } | { kind: "none" } | { kind: "ambiguous"; userIds: string[] };

const WORD_CHARACTER = /^[\p{L}\p{N}]$/u;
/** Characters that may stand just before an address and still belong to its local part. */
const LOCAL_PART_CHARACTERS = new Set([..."!#$%&'*+/=?^`{|}~.@"]);

function isWordCharacter(char: string | undefined): boolean {
  return char !== undefined && WORD_CHARACTER.test(char);
}

/** The part of a file name that is matched: without a final ".pdf", lower case. */
export function matchableName(fileName: string): string {
  return fileName.replace(/\.pdf$/i, "").toLowerCase();
}

/** Each index at which `needle` occurs in `haystack` (overlapping occurrences included). */
function* occurrences(haystack: string, needle: string): Generator<number> {
  if (needle.length === 0) return;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + 1)) yield at;
}

/** The reference code occurs in the (matchable) name as a whole token. */
export function nameHasCode(name: string, code: string): boolean {
  const needle = code.toLowerCase();
  for (const at of occurrences(name, needle)) {
    // Whole characters around it (a letter outside the BMP is two UTF-16 units).
    const before = Array.from(name.slice(0, at)).at(-1);
    const after = Array.from(name.slice(at + needle.length))[0];
    if (!isWordCharacter(before) && !isWordCharacter(after)) return true;
  }
  return false;
}

/** The e-mail address occurs in the (matchable) name, not as part of a longer address. */
export function nameHasEmail(name: string, email: string): boolean {
  const needle = email.toLowerCase();
  for (const at of occurrences(name, needle)) {
    const before = Array.from(name.slice(0, at)).at(-1);
    const rest = Array.from(name.slice(at + needle.length));
    const [after, next] = rest;
    const localPartGoesOn = isWordCharacter(before) || (before !== undefined && LOCAL_PART_CHARACTERS.has(before));
    const domainGoesOn = isWordCharacter(after) || after === "-" || (after === "." && isWordCharacter(next));
    if (!localPartGoesOn && !domainGoesOn) return true;
  }
  return false;
}

/** The investor a file is for, by its name (see above); `candidates` are the investors who may receive it. */
export function matchFileName(fileName: string, candidates: readonly MatchCandidate[]): FileMatch {
  const name = matchableName(fileName);
  const found = new Set<string>();
  for (const candidate of candidates) {
    if (found.has(candidate.id)) continue;
    if ((candidate.referenceCode && nameHasCode(name, candidate.referenceCode)) || nameHasEmail(name, candidate.email)) {
      found.add(candidate.id);
    }
  }
  const userIds = [...found];
  if (userIds.length === 0) return { kind: "none" };
  if (userIds.length === 1) return { kind: "matched", userId: userIds[0]! };
  return { kind: "ambiguous", userIds };
}
