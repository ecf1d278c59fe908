import { Secret, TOTP } from "otpauth";
import QRCode from "qrcode";
import { twoFactorCopy } from "~/content/two-factor";

/**
 * RFC 6238 through `otpauth`: SHA-1, 6 digits, 30-second steps, a code of the
 * step before or after accepted (clock drift). A code is accepted only for a
 * step later than the last accepted one, so a code never works twice.
 */

export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** Steps before and after the current one that are accepted. */
export const TOTP_WINDOW = 1;

function totp(secret: string, label = ""): TOTP {
  return new TOTP({
    issuer: twoFactorCopy.issuer,
    label,
    secret: Secret.fromBase32(secret),
    algorithm: "SHA1",
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
  });
}

/** A new random secret (160 bits, as RFC 4226 recommends), in base32. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The otpauth:// URI an authenticator app reads from the QR code. */
export function totpUri(secret: string, accountEmail: string): string {
  return totp(secret, accountEmail).toString();
}

/** The QR code of `uri` as an SVG document (rendered on the server, no script). */
export function qrSvg(uri: string): Promise<string> {
  return QRCode.toString(uri, { type: "svg", errorCorrectionLevel: "M", margin: 1 });
}

/** The code for the step that holds `at` (tests, the hardening run, provisioning checks). */
export function totpCode(secret: string, at: number): string {
  return totp(secret).generate({ timestamp: at });
}

/** Digits only ('123 456' and '123-456' are '123456'); null when it is not a 6-digit code. */
export function cleanTotpCode(input: string): string | null {
  const digits = input.replace(/[\s-]/g, "");
  return /^\d{6}$/.test(digits) ? digits : null;
}

/**
 * The step `code` belongs to, within ±1 step of `at`, when it is later than
 * `lastStep` (the step of the last accepted code); otherwise null.
 */
export function matchTotp(secret: string, code: string, at: number, lastStep: number | null): number | null {
  const token = cleanTotpCode(code);
  if (!token) return null;
  const generator = totp(secret);
  const delta = generator.validate({ token, timestamp: at, window: TOTP_WINDOW });
  if (delta === null) return null;
  const step = generator.counter({ timestamp: at }) + delta;
  return lastStep !== null && step <= lastStep ? null : step;
}
