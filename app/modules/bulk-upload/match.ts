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

type Span = { start: number; end: number };

/**
 * Where the reference code occurs in the (matchable) name as a whole token:
 * no word character right before it, and right after it neither a word
 * character nor a hyphen that goes on into one (`LRV` is not found in
 * "LRV-7", whereas "Q3-2026-LRV-0042" does hold `LRV-0042`).
 */
function codeSpans(name: string, code: string): Span[] {
  const needle = code.toLowerCase();
  const spans: Span[] = [];
  for (const at of occurrences(name, needle)) {
    // Whole characters around it (a letter outside the BMP is two UTF-16 units).
    const before = Array.from(name.slice(0, at)).at(-1);
    const [after, next] = Array.from(name.slice(at + needle.length));
    if (!isWordCharacter(before) && !isWordCharacter(after) && !(after === "-" && isWordCharacter(next))) {
      spans.push({ start: at, end: at + needle.length });
    }
  }
  return spans;
}

/** Where the e-mail address occurs in the (matchable) name, not as part of a longer address. */
function emailSpans(name: string, email: string): Span[] {
  const needle = email.toLowerCase();
  const spans: Span[] = [];
  for (const at of occurrences(name, needle)) {
    const before = Array.from(name.slice(0, at)).at(-1);
    const rest = Array.from(name.slice(at + needle.length));
    const [after, next] = rest;
    const localPartGoesOn = isWordCharacter(before) || (before !== undefined && LOCAL_PART_CHARACTERS.has(before));
    const domainGoesOn = isWordCharacter(after) || after === "-" || (after === "." && isWordCharacter(next));
    if (!localPartGoesOn && !domainGoesOn) spans.push({ start: at, end: at + needle.length });
  }
  return spans;
}

/** The reference code occurs in the (matchable) name as a whole token. */
export function nameHasCode(name: string, code: string): boolean {
  return codeSpans(name, code).length > 0;
}

/** The e-mail address occurs in the (matchable) name, not as part of a longer address. */
export function nameHasEmail(name: string, email: string): boolean {
  return emailSpans(name, email).length > 0;
}

const inside = (a: Span, b: Span) => b.start <= a.start && a.end <= b.end && b.end - b.start > a.end - a.start;

/**
 * The account a file is for, by its name (see above). `candidates` should be
 * every account, not only those who may receive documents: a code or address
 * found inside a longer one that was also found (`0042` inside `ACME-0042`,
 * `jane@x.com` inside `mary-jane@x.com`) does not count, so a file naming an
 * account that may not receive it is matched to that account (and flagged by
 * the caller) rather than to the holder of a shorter identifier.
 */
export function matchFileName(fileName: string, candidates: readonly MatchCandidate[]): FileMatch {
  const name = matchableName(fileName);
  const found: Array<{ id: string; span: Span }> = [];
  for (const candidate of candidates) {
    const spans = [...(candidate.referenceCode ? codeSpans(name, candidate.referenceCode) : []), ...emailSpans(name, candidate.email)];
    for (const span of spans) found.push({ id: candidate.id, span });
  }
  const kept = found.filter((f) => !found.some((other) => other.id !== f.id && inside(f.span, other.span)));
  const userIds = [...new Set(kept.map((f) => f.id))];
  if (userIds.length === 0) return { kind: "none" };
  if (userIds.length === 1) return { kind: "matched", userId: userIds[0]! };
  return { kind: "ambiguous", userIds };
}
