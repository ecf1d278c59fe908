import { z } from "~/modules/validation/z";

/**
 * Money (DESIGN.md §10): integer minor units as `bigint` everywhere in the app, a
 * decimal string with exactly the currency's minor digits in JSON ("250000.00"),
 * never a float, and two currencies are never added. A currency is an ISO 4217
 * code ("USD"); its minor digits are the ones Intl knows (USD 2, JPY 0, BHD 3).
 */

/** An amount in one currency. */
export type Money = { currency: string; minor: bigint };

export type ParsedAmount = { ok: true; minor: bigint } | { ok: false; message: string };

/**
 * More integer digits than any fund will hold (10^18 minor units is far beyond the
 * world's GDP): refused with a message, so nothing downstream meets a silly number.
 */
export const MAX_INTEGER_DIGITS = 18;

const CURRENCY_CODE = /^[A-Z]{3}$/;
const digitsByCurrency = new Map<string, number>();
const formatterByCurrency = new Map<string, Intl.NumberFormat>();

/**
 * The currency's minor digits, from Intl (cached). A malformed code is a
 * programmer's error (currencies come from the funds table), so it throws.
 */
export function minorDigits(currency: string): number {
  let digits = digitsByCurrency.get(currency);
  if (digits === undefined) {
    if (!CURRENCY_CODE.test(currency)) throw new RangeError(`Not an ISO 4217 currency code: ${JSON.stringify(currency)}`);
    digits = new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2;
    digitsByCurrency.set(currency, digits);
  }
  return digits;
}

/** An example amount in the currency's own shape, for messages: "250000.00", "250000" for JPY. */
export function amountExample(currency: string): string {
  const digits = minorDigits(currency);
  return digits === 0 ? "250000" : `250000.${"0".repeat(digits)}`;
}

/**
 * The messages a form or an endpoint shows for a refused amount. They name the
 * currency's shape, so they are built here from its digits rather than kept as
 * fixed copy.
 */
export function amountMessages(currency: string) {
  const digits = minorDigits(currency);
  const example = amountExample(currency);
  return {
    required: "Enter an amount",
    format: `Enter an amount like ${example}`,
    notText: `Send the amount as a decimal string, like "${example}"`,
    decimals: digits === 0 ? `Enter a whole amount, like ${example}` : `Use at most ${digits} decimal place${digits === 1 ? "" : "s"}`,
    tooLarge: "The amount is too large",
    positive: "The amount must be greater than zero",
  };
}

/** Digits, an optional sign and an optional fraction: the general shape, before the currency's limits. */
const DECIMAL = /^(-?)([0-9]+)(?:\.([0-9]+))?$/;

function parseDecimal(input: unknown, currency: string, signed: boolean): ParsedAmount {
  const messages = amountMessages(currency);
  if (typeof input === "number" || typeof input === "bigint") return { ok: false, message: messages.notText };
  if (input === undefined || input === null) return { ok: false, message: messages.required };
  if (typeof input !== "string") return { ok: false, message: messages.format };
  // Surrounding spaces are a paste's accident, not a different amount.
  const text = input.trim();
  if (text === "") return { ok: false, message: messages.required };
  const match = DECIMAL.exec(text);
  if (!match) return { ok: false, message: messages.format };
  const [, sign = "", whole = "", fraction = ""] = match;
  if (sign && !signed) return { ok: false, message: messages.positive };
  if (whole.length > MAX_INTEGER_DIGITS) return { ok: false, message: messages.tooLarge };
  const digits = minorDigits(currency);
  if (fraction.length > digits) return { ok: false, message: messages.decimals };
  const magnitude = BigInt(whole) * 10n ** BigInt(digits) + BigInt(fraction.padEnd(digits, "0") || "0");
  if (!signed && magnitude === 0n) return { ok: false, message: messages.positive };
  return { ok: true, minor: sign ? -magnitude : magnitude };
}

/**
 * A user's amount: a string of digits with at most the currency's minor digits
 * after a point ("250000.00", "250000.5", "250000"), greater than zero. Numbers,
 * exponents, signs and thousands separators are refused, so what is stored is
 * exactly what was typed. Surrounding whitespace is ignored.
 */
export function parseAmount(input: unknown, currency: string): ParsedAmount {
  return parseDecimal(input, currency, false);
}

/**
 * An amount that may be zero or negative (a P&L cell, a correction): the same
 * shape as `parseAmount` with an optional leading "-".
 */
export function parseSignedAmount(input: unknown, currency: string): ParsedAmount {
  return parseDecimal(input, currency, true);
}

function schemaOf(parse: (input: unknown, currency: string) => ParsedAmount, currency: string) {
  minorDigits(currency); // a malformed currency fails when the schema is made, not on the first request
  return z.unknown().transform((value, ctx) => {
    const parsed = parse(value, currency);
    if (!parsed.ok) {
      ctx.addIssue({ code: "custom", message: parsed.message });
      return z.NEVER;
    }
    return parsed.minor;
  });
}

/** The API edge's amount (> 0) as bigint minor units; its messages are `parseAmount`'s. */
export function amountSchema(currency: string) {
  return schemaOf(parseAmount, currency);
}

/** The API edge's signed amount (zero and negatives allowed) as bigint minor units. */
export function signedAmountSchema(currency: string) {
  return schemaOf(parseSignedAmount, currency);
}

/** Minor units as the JSON decimal string, with exactly the currency's digits: 25000000n USD → "250000.00", -5n → "-0.05". */
export function toDecimalString(minor: bigint, currency: string): string {
  const digits = minorDigits(currency);
  const negative = minor < 0n;
  const text = (negative ? -minor : minor).toString();
  if (digits === 0) return (negative ? "-" : "") + text;
  const padded = text.padStart(digits + 1, "0");
  return `${negative ? "-" : ""}${padded.slice(0, -digits)}.${padded.slice(-digits)}`;
}

function formatter(currency: string): Intl.NumberFormat {
  let format = formatterByCurrency.get(currency);
  if (!format) {
    minorDigits(currency);
    format = new Intl.NumberFormat("en-US", { style: "currency", currency });
    formatterByCurrency.set(currency, format);
  }
  return format;
}

/**
 * An amount for people, in its fund's currency ("$1,234.56", "-$0.05"; with
 * `parentheses`, a statement's "($1,234.56)"). Intl is given the exact decimal
 * string (Intl.NumberFormat v3, Node 20+), never `minor / 100` as a float, so a
 * large amount is never off by a cent. Parentheses are added here around the
 * absolute value rather than through `currencySign: "accounting"`, whose output
 * depends on the locale data.
 */
export function formatMoney(minor: bigint, currency: string, options: { parentheses?: boolean } = {}): string {
  const format = formatter(currency);
  if (options.parentheses && minor < 0n) return `(${format.format(toDecimalString(-minor, currency) as `${number}`)})`;
  return format.format(toDecimalString(minor, currency) as `${number}`);
}

/**
 * Totals per currency, for a view that spans funds: never one sum across
 * currencies. The map keeps the order in which currencies first appear.
 */
export function sumByCurrency(items: readonly Money[]): Map<string, bigint> {
  const totals = new Map<string, bigint>();
  for (const { currency, minor } of items) totals.set(currency, (totals.get(currency) ?? 0n) + minor);
  return totals;
}

/** A decimal string as JSON carries it ("250000.00"), formatted as formatMoney does. */
export function formatDecimal(amount: string, currency: string, options: { parentheses?: boolean } = {}): string {
  const parsed = parseSignedAmount(amount, currency);
  if (!parsed.ok) throw new RangeError(`Not an amount in ${currency}: ${JSON.stringify(amount)}`);
  return formatMoney(parsed.minor, currency, options);
}
