import { Secret, TOTP } from "otpauth";
import { describe, expect, it } from "vitest";
import {
  TOTP_DIGITS,
  TOTP_PERIOD_SECONDS,
  TOTP_WINDOW,
  cleanTotpCode,
  matchTotp,
  newTotpSecret,
  qrSvg,
  totpCode,
  totpUri,
} from "~/modules/two-factor/totp.server";

/**
 * TOTP (app/modules/two-factor/totp.server.ts): RFC 6238 with SHA-1, 6 digits,
 * 30-second steps, ±1 step of drift, and a step accepted only once.
 */

const PERIOD_MS = TOTP_PERIOD_SECONDS * 1000;
/** RFC 6238 Appendix B seed for SHA-1: ASCII "12345678901234567890". */
const RFC_SECRET = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";
/** A fixed instant in the middle of a step (not on a boundary). */
const AT = 1_700_000_000_000 + 12_345;
const stepOf = (ms: number) => Math.floor(ms / PERIOD_MS);

/** A code different from `code` (same shape). */
const otherCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, "0");

describe("parameters", () => {
  it("are SHA-1, 6 digits, 30 seconds, ±1 step", () => {
    expect(TOTP_DIGITS).toBe(6);
    expect(TOTP_PERIOD_SECONDS).toBe(30);
    expect(TOTP_WINDOW).toBe(1);
  });
});

describe("newTotpSecret", () => {
  it("is 160 random bits in base32, different every time", () => {
    const a = newTotpSecret();
    const b = newTotpSecret();
    expect(a).toMatch(/^[A-Z2-7]{32}$/);
    expect(Secret.fromBase32(a).bytes).toHaveLength(20);
    expect(a).not.toBe(b);
  });
});

describe("totpCode: RFC 6238 Appendix B (SHA-1), last 6 digits", () => {
  it("uses the RFC seed", () => {
    expect(Buffer.from(Secret.fromBase32(RFC_SECRET).bytes).toString("latin1")).toBe("12345678901234567890");
  });

  it.each([
    [59, "287082"],
    [1111111109, "081804"],
    [1111111111, "050471"],
    [1234567890, "005924"],
    [2000000000, "279037"],
    [20000000000, "353130"],
  ])("T=%i → %s", (seconds, expected) => {
    expect(totpCode(RFC_SECRET, seconds * 1000)).toBe(expected);
  });

  it("agrees with otpauth set up with the same parameters", () => {
    const secret = newTotpSecret();
    const reference = new TOTP({ secret: Secret.fromBase32(secret), algorithm: "SHA1", digits: 6, period: 30 });
    expect(totpCode(secret, AT)).toBe(reference.generate({ timestamp: AT }));
  });

  it("is the same within a step and changes with the step", () => {
    const start = stepOf(AT) * PERIOD_MS;
    const code = totpCode(RFC_SECRET, start);
    expect(totpCode(RFC_SECRET, start + PERIOD_MS - 1)).toBe(code);
    expect(totpCode(RFC_SECRET, start + PERIOD_MS)).not.toBe(code);
  });
});

describe("matchTotp", () => {
  const secret = newTotpSecret();
  const step = stepOf(AT);

  it("matches the current step's code and returns that step", () => {
    expect(matchTotp(secret, totpCode(secret, AT), AT, null)).toBe(step);
  });

  it.each([-1, 1])("accepts the code of step %i (clock drift) and returns its step", (offset) => {
    const code = totpCode(secret, AT + offset * PERIOD_MS);
    expect(matchTotp(secret, code, AT, null)).toBe(step + offset);
  });

  it.each([-2, 2])("refuses the code of step %i", (offset) => {
    const code = totpCode(secret, AT + offset * PERIOD_MS);
    // Guard against a (one in a million) collision with an accepted step.
    const accepted = [-1, 0, 1].map((o) => totpCode(secret, AT + o * PERIOD_MS));
    expect(accepted).not.toContain(code);
    expect(matchTotp(secret, code, AT, null)).toBeNull();
  });

  it("refuses a wrong code, and a code of another secret", () => {
    const code = totpCode(secret, AT);
    expect(matchTotp(secret, otherCode(code), AT, null)).toBeNull();
    const other = newTotpSecret();
    const otherCodeNow = totpCode(other, AT);
    expect([-1, 0, 1].map((o) => totpCode(secret, AT + o * PERIOD_MS))).not.toContain(otherCodeNow);
    expect(matchTotp(secret, otherCodeNow, AT, null)).toBeNull();
  });

  it("accepts the code typed with a space or hyphen", () => {
    const code = totpCode(secret, AT);
    expect(matchTotp(secret, `${code.slice(0, 3)} ${code.slice(3)}`, AT, null)).toBe(step);
    expect(matchTotp(secret, `${code.slice(0, 3)}-${code.slice(3)}`, AT, null)).toBe(step);
  });

  it("refuses input that is not a 6-digit code", () => {
    expect(matchTotp(secret, "", AT, null)).toBeNull();
    expect(matchTotp(secret, "abcdef", AT, null)).toBeNull();
    expect(matchTotp(secret, `${totpCode(secret, AT)}0`, AT, null)).toBeNull();
  });

  describe("replay", () => {
    it("refuses the same code once its step is the last accepted one", () => {
      const code = totpCode(secret, AT);
      const matched = matchTotp(secret, code, AT, null);
      expect(matched).toBe(step);
      expect(matchTotp(secret, code, AT, matched)).toBeNull();
      // Still refused a little later, while the code is inside the window.
      expect(matchTotp(secret, code, AT + PERIOD_MS, matched)).toBeNull();
    });

    it("refuses an earlier step's code after a later step was accepted", () => {
      const previous = totpCode(secret, AT - PERIOD_MS);
      expect(matchTotp(secret, previous, AT, null)).toBe(step - 1);
      expect(matchTotp(secret, previous, AT, step)).toBeNull();
    });

    it("accepts a later step's code after a step was accepted", () => {
      const matched = matchTotp(secret, totpCode(secret, AT), AT, null);
      expect(matched).toBe(step);
      const later = AT + PERIOD_MS;
      expect(matchTotp(secret, totpCode(secret, later), later, matched)).toBe(step + 1);
      // The next step's code also works right now (drift), being later than the last one.
      expect(matchTotp(secret, totpCode(secret, later), AT, matched)).toBe(step + 1);
    });
  });
});

describe("cleanTotpCode", () => {
  it.each([
    ["123456", "123456"],
    ["123 456", "123456"],
    ["123-456", "123456"],
    [" 123456 ", "123456"],
    ["000000", "000000"],
  ])("accepts %j as %j", (input, expected) => {
    expect(cleanTotpCode(input)).toBe(expected);
  });

  it.each(["", "12345", "1234567", "12a456", "abcdef", "12.456", "１２３４５６", "123456\n7"])("refuses %j", (input) => {
    expect(cleanTotpCode(input)).toBeNull();
  });
});

describe("totpUri", () => {
  it("is an otpauth://totp URI with issuer, account e-mail, SHA1, 6 digits, 30 s and the secret", () => {
    const secret = newTotpSecret();
    const email = "ada.lovelace+lp@example.test";
    const uri = new URL(totpUri(secret, email));
    expect(uri.protocol).toBe("otpauth:");
    expect(uri.host).toBe("totp");
    expect(decodeURIComponent(uri.pathname)).toBe(`/Lumen Ridge Ventures:${email}`);
    expect(uri.searchParams.get("issuer")).toBe("Lumen Ridge Ventures");
    expect(uri.searchParams.get("secret")).toBe(secret);
    expect(uri.searchParams.get("algorithm")).toBe("SHA1");
    expect(uri.searchParams.get("digits")).toBe("6");
    expect(uri.searchParams.get("period")).toBe("30");
  });
});

describe("qrSvg", () => {
  it("is an SVG document", async () => {
    const svg = await qrSvg(totpUri(newTotpSecret(), "a@example.test"));
    expect(svg.trimStart()).toMatch(/^<svg[\s>]/);
    expect(svg.trimEnd()).toMatch(/<\/svg>$/);
    expect(svg).not.toMatch(/<script/i);
    // A different URI gives a different picture.
    expect(await qrSvg(totpUri(newTotpSecret(), "a@example.test"))).not.toBe(svg);
  });
});
