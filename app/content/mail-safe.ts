/**
 * Text a stranger typed (a name, a company) in a mail the firm sends to an
 * address nobody proved (issue 21, finding L2). Anyone can type someone else's
 * address into a sign-up form, so whatever the form's text fields hold must not
 * turn the firm's genuine, signed mail into a phishing mail: it goes in on one
 * line, without anything a mail client could make a link of, and short.
 *
 * Mails to the firm's own inbox and admins keep the text as typed (on one line
 * where it fills a field): see `oneLine`.
 */

/** The longest name or company a mail to a stranger's address carries. */
export const MAIL_SAFE_NAME_MAX = 80;

/** Dots a mail client or browser may take for the dot of a host name (after NFKC, which folds the full-width one). */
const DOT = "[.\u3002\uFF0E\uFF61]";

/** Two slashes (`https://`, `hxxp://`, `//host`), or a scheme that needs none (`mailto:`, `javascript:`). */
const SCHEME =
  /\/\/|(?<![\p{L}\p{N}])(?:mailto|javascript|vbscript|data|file|tel|sms|callto|skype|sip|news|ftps?|https?|wss?|xmpp|bitcoin|magnet)\s*:/iu;
/** `www.` anything. */
const WWW = new RegExp(`(?<![\\p{L}\\p{N}])www\\d*${DOT}`, "iu");
/** A dotted host name: a letter or digit, a dot, and a top-level label of two or more letters or punycode (`evil.example`, `a.b.co`). */
const HOST = new RegExp(`[\\p{L}\\p{N}_-]${DOT}(?:xn--|\\p{L}{2})`, "iu");
/** An IPv4 address (`203.0.113.9/login`). */
const IPV4 = new RegExp(`\\d{1,3}(?:${DOT}\\d{1,3}){3}`, "u");

/** Whether a word (no spaces in it) could become a link in a mail client. */
export function isLinkLike(word: string): boolean {
  return SCHEME.test(word) || WWW.test(word) || HOST.test(word) || IPV4.test(word);
}

/**
 * Every run of white space, line break (CR, LF, U+2028/9, NEL) or control
 * character becomes one space; invisible format characters (zero-width
 * spaces and joiners, bidi overrides, soft hyphens) go, so they cannot hide a
 * host name or reorder the line. NFKC folds look-alikes (full-width letters
 * and dots) first. Trimmed.
 */
export function oneLine(text: string): string {
  return text
    .normalize("NFKC")
    .replace(/\p{Cf}/gu, "")
    .replace(/[\s\p{Cc}\p{Z}]+/gu, " ")
    .trim();
}

/**
 * A stranger-supplied name or company as a mail to an unproved address may
 * carry it: on one line (`oneLine`), every word that could become a link
 * dropped (a scheme, `www.`, a dotted host name such as `evil.example/login`,
 * an IPv4 address, an e-mail address), cut to MAIL_SAFE_NAME_MAX characters at
 * a word boundary where there is one. An empty answer means nothing was left:
 * the mail then uses its generic wording. What is stored stays as typed.
 */
export function mailSafeName(text: string): string {
  const words = oneLine(text)
    .split(" ")
    .filter((word) => word !== "" && !isLinkLike(word));
  return cut(words.join(" "), MAIL_SAFE_NAME_MAX);
}

function cut(text: string, max: number): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  const head = chars.slice(0, max).join("");
  const space = head.lastIndexOf(" ");
  return (space >= max / 2 ? head.slice(0, space) : head).trimEnd();
}
