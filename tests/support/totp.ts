import { createHash } from "node:crypto";
import { Secret, TOTP } from "otpauth";

/**
 * Two-factor codes for the test suites (Vitest, Playwright, hardening, bench),
 * as an authenticator app makes them (RFC 6238: SHA-1, 6 digits, 30 s).
 *
 * Every test admin is enrolled (admin:create with ADMIN_TOTP_SECRET) with a secret
 * derived from its e-mail, so any process can compute its codes. The server
 * accepts each step once per account: `nextTotpCode` hands out each step at
 * most once in this process, using the next step (±1 drift is allowed) and
 * waiting only when both are spent.
 */

const PERIOD_MS = 30_000;

/** The test secret of an account (base32, 160 bits), derived from its e-mail. */
export function testTotpSecret(email: string): string {
  const bytes = createHash("sha1").update(`lumen-ridge-test-totp:${email.trim().toLowerCase()}`).digest();
  return new Secret({ buffer: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) }).base32;
}

/** The code of `secret` at time `atMs`. */
export function totpAt(secret: string, atMs: number): string {
  return new TOTP({ secret: Secret.fromBase32(secret), algorithm: "SHA1", digits: 6, period: PERIOD_MS / 1000 }).generate({ timestamp: atMs });
}

const spent = new Map<string, number>();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A code for `email` of a step not yet handed out in this process: the current
 * step, else the next one, else (both spent) it waits for the next step.
 * `skipStep` marks a step as spent elsewhere (a parallel process used it).
 */
export async function nextTotpCode(email: string, secret = testTotpSecret(email)): Promise<{ code: string; step: number }> {
  const key = email.trim().toLowerCase();
  for (;;) {
    const current = Math.floor(Date.now() / PERIOD_MS);
    const step = Math.max(current, (spent.get(key) ?? -Infinity) + 1);
    if (step <= current + 1) {
      spent.set(key, step);
      return { code: totpAt(secret, step * PERIOD_MS), step };
    }
    await sleep((step - 1) * PERIOD_MS - Date.now() + 50);
  }
}

/** Mark `step` (and those before it) as used for `email`, e.g. after the server refused it as a replay. */
export function skipStep(email: string, step: number): void {
  const key = email.trim().toLowerCase();
  spent.set(key, Math.max(spent.get(key) ?? -Infinity, step));
}
