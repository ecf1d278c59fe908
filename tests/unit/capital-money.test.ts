import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import {
  MAX_INTEGER_DIGITS,
  amountMessages,
  amountSchema,
  formatMoney,
  minorDigits,
  parseAmount,
  parseSignedAmount,
  signedAmountSchema,
  sumByCurrency,
  toDecimalString,
} from "~/modules/capital/money";

/**
 * Money (DESIGN.md §10): bigint minor units inside, a decimal string with the
 * currency's digits at the edge, Intl for people, never a float.
 */

const usd = amountMessages("USD");

function refused(result: ReturnType<typeof parseAmount>): string {
  if (result.ok) throw new Error(`expected a refusal, got ${result.minor}`);
  return result.message;
}

describe("minor digits", () => {
  test("come from Intl, per currency", () => {
    expect(minorDigits("USD")).toBe(2);
    expect(minorDigits("EUR")).toBe(2);
    expect(minorDigits("CHF")).toBe(2);
    expect(minorDigits("JPY")).toBe(0);
    expect(minorDigits("BHD")).toBe(3);
  });

  test("a malformed code is a programmer's error", () => {
    expect(() => minorDigits("usd")).toThrow(RangeError);
    expect(() => minorDigits("US")).toThrow(RangeError);
    expect(() => minorDigits("")).toThrow(RangeError);
  });
});

describe("parseAmount", () => {
  test("reads digits with up to the currency's minor digits, as minor units", () => {
    expect(parseAmount("250000.00", "USD")).toEqual({ ok: true, minor: 25_000_000n });
    expect(parseAmount("250000.5", "USD")).toEqual({ ok: true, minor: 25_000_050n });
    expect(parseAmount("250000", "USD")).toEqual({ ok: true, minor: 25_000_000n });
    expect(parseAmount("0.01", "USD")).toEqual({ ok: true, minor: 1n });
    expect(parseAmount("007.10", "USD")).toEqual({ ok: true, minor: 710n });
    expect(parseAmount(" 12.34\n", "USD")).toEqual({ ok: true, minor: 1234n });
    expect(parseAmount("1000", "JPY")).toEqual({ ok: true, minor: 1000n });
    expect(parseAmount("1.234", "BHD")).toEqual({ ok: true, minor: 1234n });
  });

  test("takes up to 18 integer digits, exactly", () => {
    const largest = `${"9".repeat(MAX_INTEGER_DIGITS)}.99`;
    expect(parseAmount(largest, "USD")).toEqual({ ok: true, minor: 10n ** 20n - 1n });
    expect(refused(parseAmount(`1${"0".repeat(MAX_INTEGER_DIGITS)}`, "USD"))).toBe(usd.tooLarge);
    expect(refused(parseAmount("1".repeat(10_000), "USD"))).toBe(usd.tooLarge);
  });

  test("refuses anything but a decimal string, with a message that shows the shape", () => {
    expect(usd.format).toBe("Enter an amount like 250000.00");
    for (const input of ["1e3", "1,000", "1 000", "1.", ".5", "+5", "abc", "12.3.4", "0x10", "１２", "Infinity", "NaN"]) {
      expect(refused(parseAmount(input, "USD")), input).toBe(usd.format);
    }
    expect(refused(parseAmount({}, "USD"))).toBe(usd.format);
    expect(refused(parseAmount(["1"], "USD"))).toBe(usd.format);
  });

  test("a number is refused too: the amount travels as a string", () => {
    expect(refused(parseAmount(250000, "USD"))).toBe('Send the amount as a decimal string, like "250000.00"');
    expect(refused(parseAmount(250000n, "USD"))).toBe(usd.notText);
  });

  test("an empty or missing amount asks for one", () => {
    for (const input of ["", "   ", undefined, null]) expect(refused(parseAmount(input, "USD"))).toBe("Enter an amount");
  });

  test("zero and negatives: the amount must be greater than zero", () => {
    for (const input of ["0", "0.00", "0.0", "000", "-5", "-0.01", "-0"]) {
      expect(refused(parseAmount(input, "USD")), input).toBe("The amount must be greater than zero");
    }
  });

  test("too many decimals names the currency's limit", () => {
    expect(refused(parseAmount("1.234", "USD"))).toBe("Use at most 2 decimal places");
    expect(refused(parseAmount("1.5", "JPY"))).toBe("Enter a whole amount, like 250000");
    expect(refused(parseAmount("1.2345", "BHD"))).toBe("Use at most 3 decimal places");
    expect(amountMessages("JPY").format).toBe("Enter an amount like 250000");
    expect(amountMessages("BHD").format).toBe("Enter an amount like 250000.000");
  });
});

describe("parseSignedAmount", () => {
  test("allows zero and a leading minus", () => {
    expect(parseSignedAmount("0", "USD")).toEqual({ ok: true, minor: 0n });
    expect(parseSignedAmount("-0.00", "USD")).toEqual({ ok: true, minor: 0n });
    expect(parseSignedAmount("-5", "USD")).toEqual({ ok: true, minor: -500n });
    expect(parseSignedAmount("-0.05", "USD")).toEqual({ ok: true, minor: -5n });
    expect(parseSignedAmount("12.34", "USD")).toEqual({ ok: true, minor: 1234n });
  });

  test("keeps the other rules", () => {
    for (const input of ["--5", "-", "+5", "- 5", "5-", "-1e3"]) expect(refused(parseSignedAmount(input, "USD")), input).toBe(usd.format);
    expect(refused(parseSignedAmount("-1.234", "USD"))).toBe(usd.decimals);
    expect(refused(parseSignedAmount(`-${"1".repeat(19)}`, "USD"))).toBe(usd.tooLarge);
    expect(refused(parseSignedAmount("", "USD"))).toBe(usd.required);
  });

  test("reads back every decimal string it writes", () => {
    // Every amount of up to 18 integer digits, in currencies of 0, 2 and 3 minor digits.
    const cases = fc.constantFrom("USD", "JPY", "BHD").chain((currency) => {
      const limit = 10n ** BigInt(MAX_INTEGER_DIGITS + minorDigits(currency)) - 1n;
      return fc.tuple(fc.constant(currency), fc.bigInt({ min: -limit, max: limit }));
    });
    fc.assert(
      fc.property(cases, ([currency, minor]) => {
        expect(parseSignedAmount(toDecimalString(minor, currency), currency)).toEqual({ ok: true, minor });
      }),
    );
  });
});

describe("zod schemas", () => {
  test("amountSchema yields bigint minor units and parseAmount's messages", () => {
    const schema = z.object({ amount: amountSchema("USD") });
    expect(schema.parse({ amount: "250000.00" })).toEqual({ amount: 25_000_000n });
    const failure = schema.safeParse({ amount: "1,000" });
    expect(failure.success).toBe(false);
    expect(failure.error?.issues).toEqual([expect.objectContaining({ path: ["amount"], message: usd.format })]);
    expect(schema.safeParse({}).error?.issues[0]?.message).toBe(usd.required);
    expect(schema.safeParse({ amount: "0" }).error?.issues[0]?.message).toBe(usd.positive);
  });

  test("signedAmountSchema allows zero and negatives", () => {
    const schema = signedAmountSchema("JPY");
    expect(schema.parse("-1500")).toBe(-1500n);
    expect(schema.parse("0")).toBe(0n);
    expect(schema.safeParse("1.5").error?.issues[0]?.message).toBe("Enter a whole amount, like 250000");
  });

  test("a malformed currency fails when the schema is made", () => {
    expect(() => amountSchema("dollars")).toThrow(RangeError);
  });
});

describe("toDecimalString", () => {
  test("writes exactly the currency's minor digits", () => {
    expect(toDecimalString(25_000_000n, "USD")).toBe("250000.00");
    expect(toDecimalString(-5n, "USD")).toBe("-0.05");
    expect(toDecimalString(0n, "USD")).toBe("0.00");
    expect(toDecimalString(7n, "USD")).toBe("0.07");
    expect(toDecimalString(-123_456n, "USD")).toBe("-1234.56");
    expect(toDecimalString(1234n, "JPY")).toBe("1234");
    expect(toDecimalString(-1234n, "JPY")).toBe("-1234");
    expect(toDecimalString(5n, "BHD")).toBe("0.005");
    expect(toDecimalString(10n ** 20n - 1n, "USD")).toBe("999999999999999999.99");
  });
});

describe("formatMoney", () => {
  const plain = (text: string) => text.replace(/\s/g, " ");

  test("formats in the fund's currency with Intl", () => {
    expect(formatMoney(123_456n, "USD")).toBe("$1,234.56");
    expect(formatMoney(100n, "EUR")).toBe("€1.00");
    expect(plain(formatMoney(123_450n, "CHF"))).toBe("CHF 1,234.50");
    expect(formatMoney(1_234_567n, "JPY")).toBe("¥1,234,567");
    expect(formatMoney(0n, "USD")).toBe("$0.00");
  });

  test("negative amounts: a minus sign, or parentheses in statements", () => {
    expect(formatMoney(-123_456n, "USD")).toBe("-$1,234.56");
    expect(formatMoney(-123_456n, "USD", { parentheses: true })).toBe("($1,234.56)");
    expect(formatMoney(-5n, "USD", { parentheses: true })).toBe("($0.05)");
    expect(formatMoney(123_456n, "USD", { parentheses: true })).toBe("$1,234.56");
    expect(formatMoney(0n, "USD", { parentheses: true })).toBe("$0.00");
  });

  test("is exact beyond a float's 15 digits", () => {
    expect(formatMoney(1_234_567_890_123_456_789n, "USD")).toBe("$12,345,678,901,234,567.89");
    expect(formatMoney(9_007_199_254_740_993n, "USD")).toBe("$90,071,992,547,409.93");
  });
});

describe("sumByCurrency", () => {
  test("never adds two currencies", () => {
    const totals = sumByCurrency([
      { currency: "USD", minor: 100n },
      { currency: "EUR", minor: 5n },
      { currency: "USD", minor: -30n },
      { currency: "JPY", minor: 1000n },
    ]);
    expect([...totals]).toEqual([
      ["USD", 70n],
      ["EUR", 5n],
      ["JPY", 1000n],
    ]);
    expect(sumByCurrency([]).size).toBe(0);
  });
});
