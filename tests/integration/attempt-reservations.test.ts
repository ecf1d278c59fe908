import { randomUUID } from "node:crypto";
import fs from "node:fs";
import bcrypt from "bcrypt";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { rateLimitMessages } from "~/content/validation";
import { changePassword } from "~/modules/auth/account.server";
import { now } from "~/modules/config/clock.server";
import { isAppError } from "~/modules/http/app-error";
import { RATE_LIMITS, resetRateLimitsForTests } from "~/modules/http/rate-limit.server";
import { setLogSinkForTests } from "~/modules/logging/log.server";
import { flushMailer } from "~/modules/mail/mail.server";
import { issueFormStamp } from "~/modules/pitches/form-stamp.server";
import type { PitchOutcome } from "~/modules/pitches/submit-outcome.server";
import { incomingDir, storageRoot } from "~/modules/storage/storage.server";
import { totpCode } from "~/modules/two-factor/totp.server";
import { beginEnrolment, confirmEnrolment, verifySecondFactor } from "~/modules/two-factor/two-factor.server";
import { action as loginAction } from "~/routes/api/auth/login";
import { action as apiPitchAction } from "~/routes/api/pitch";
import { action as processAction } from "~/routes/site/process";
import { allPitches, clearTables } from "../helpers/db";
import { filesUnder, rawMultipartRequest, type RawPart } from "../helpers/documents";
import { validPitch } from "../helpers/fixtures";
import { callRoute, expectData } from "../helpers/http";
import { samplePdf } from "../helpers/sample-files";
import { FIXTURE_PASSWORD, apiRequest, callRouteWith, insertUser, uniqueEmail } from "../helpers/users";

/**
 * DESIGN.md §4: an attempt reserves its place before the expensive work
 * (bcrypt, a file write), so parallel requests cannot pass together; the
 * per-address limits group IPv6 by /64 (an IPv4-mapped address is IPv4).
 * Each burst is sent at once; a 401 is an attempt that reached the check
 * (bcrypt, the code), a 429 one refused before it.
 */

const LONG = 180_000;
let compares: ReturnType<typeof vi.spyOn>;

beforeEach(() => {
  clearTables();
  resetRateLimitsForTests();
  setLogSinkForTests(() => {});
  compares = vi.spyOn(bcrypt, "compare");
});
afterEach(async () => {
  await flushMailer();
  setLogSinkForTests(null);
  resetRateLimitsForTests();
  vi.restoreAllMocks();
});

const signIn = (email: string, password: string, clientAddress: string) =>
  callRouteWith(loginAction, apiRequest("POST", "/api/auth/login", { json: { email, password } }), { clientAddress });

function tally(statuses: number[]) {
  const out: Record<number, number> = {};
  for (const status of statuses) out[status] = (out[status] ?? 0) + 1;
  return out;
}

describe("sign-in", () => {
  it(
    "40 wrong passwords for one account at once, from 40 addresses: the per-account number reach bcrypt, the rest get 429",
    async () => {
      const user = await insertUser({ status: "approved" });
      compares.mockClear();
      const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => signIn(user.email, `wrong-${i}`, `198.51.100.${i + 1}`)));
      const limit = RATE_LIMITS.loginAccount.points;
      expect(tally(answers.map((a) => a.status))).toEqual({ 401: limit, 429: 40 - limit });
      expect(compares).toHaveBeenCalledTimes(limit);
      for (const answer of answers.filter((a) => a.status === 429)) expect(Number(answer.headers.get("Retry-After"))).toBeGreaterThan(0);
    },
    LONG,
  );

  it(
    "40 sign-ins at once from 40 addresses of one IPv6 /64: the per-address number reach bcrypt; the next /64 is another client",
    async () => {
      compares.mockClear();
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, i) => signIn(uniqueEmail("v6"), "some-password", `2001:db8:77:1::${(i + 1).toString(16)}`)),
      );
      const limit = RATE_LIMITS.login.points;
      expect(tally(answers.map((a) => a.status))).toEqual({ 401: limit, 429: 40 - limit });
      expect(compares).toHaveBeenCalledTimes(limit);
      expect((await signIn(uniqueEmail("v6"), "some-password", "2001:db8:77:2::1")).status).toBe(401);
    },
    LONG,
  );

  it(
    "the ways of writing one address are one client: IPv4 and IPv4-mapped IPv6, IPv6 compressed and in full",
    async () => {
      const limit = RATE_LIMITS.login.points;
      for (let i = 0; i < limit; i++) {
        const from = i % 2 ? "203.0.113.9" : "::ffff:203.0.113.9";
        expect((await signIn(uniqueEmail("mapped"), "some-password", from)).status).toBe(401);
      }
      expect((await signIn(uniqueEmail("mapped"), "some-password", "203.0.113.9")).status).toBe(429);
      expect((await signIn(uniqueEmail("mapped"), "some-password", "::FFFF:203.0.113.9")).status).toBe(429);

      for (let i = 0; i < limit; i++) expect((await signIn(uniqueEmail("full"), "some-password", "2001:db8:0:1::5")).status).toBe(401);
      expect((await signIn(uniqueEmail("full"), "some-password", "2001:0DB8:0000:0001:ffff:0000:0000:0005")).status).toBe(429);
    },
    LONG,
  );

  it(
    "a right password gives back its own place only: it does not wipe the wrong guesses before it",
    async () => {
      const user = await insertUser({ status: "approved" });
      const limit = RATE_LIMITS.loginAccount.points;
      for (let i = 0; i < limit - 1; i++) expect((await signIn(user.email, `wrong-${i}`, `192.0.2.${i + 1}`)).status).toBe(401);
      expect((await signIn(user.email, FIXTURE_PASSWORD, "192.0.2.100")).status).toBe(200);
      // The tenth wrong guess still has its place; the eleventh attempt has none, right password or not.
      expect((await signIn(user.email, "wrong-last", "192.0.2.101")).status).toBe(401);
      expect((await signIn(user.email, FIXTURE_PASSWORD, "192.0.2.102")).status).toBe(429);
    },
    LONG,
  );
});

describe("the account page's password change", () => {
  it(
    "20 wrong current passwords at once: the per-account number reach bcrypt, the rest get 429",
    async () => {
      const user = await insertUser({ status: "approved" });
      compares.mockClear();
      const results = await Promise.allSettled(
        Array.from({ length: 20 }, (_, i) => changePassword(user, { currentPassword: `wrong-${i}`, password: "a brand new passphrase" }, null)),
      );
      const codes = results.map((r) => (r.status === "rejected" && isAppError(r.reason) ? r.reason.code : "other"));
      const limit = RATE_LIMITS.loginAccount.points;
      expect(tally(codes.map((c) => (c === "unauthorized" ? 401 : c === "rate_limited" ? 429 : 0)))).toEqual({ 401: limit, 429: 20 - limit });
      expect(compares).toHaveBeenCalledTimes(limit);
    },
    LONG,
  );
});

describe("two-factor codes", () => {
  it(
    "20 wrong codes at once for one account: the per-account number are checked, the rest get 429",
    async () => {
      const user = await insertUser({ status: "approved" });
      const sessionId = randomUUID();
      const { secret } = await beginEnrolment(user, sessionId);
      await confirmEnrolment(user, totpCode(secret, now().getTime()), "192.0.2.200", sessionId);
      const results = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => verifySecondFactor(user, "000000", `198.51.100.${i + 1}`)));
      const codes = results.map((r) => (r.status === "rejected" && isAppError(r.reason) ? r.reason.code : "accepted"));
      const limit = RATE_LIMITS.twoFactorAccount.points;
      expect(tally(codes.map((c) => (c === "unauthorized" ? 401 : c === "rate_limited" ? 429 : 0)))).toEqual({ 401: limit, 429: 20 - limit });
    },
    LONG,
  );
});

describe("pitch decks", () => {
  const deck = (): RawPart => ({ name: "deck", filename: "deck.pdf", type: "application/pdf", bytes: samplePdf("Deck", 2_000) });
  const fields = (overrides: Record<string, string> = {}): RawPart[] =>
    Object.entries({ ...validPitch(), formStamp: issueFormStamp(new Date(Date.now() - 60_000)), website: "", _enhanced: "1", ...overrides }).map(
      ([name, value]) => ({ name, value }),
    );
  /** A deck with a field error (no name): the deck is read, the pitch rate limit is not reached. */
  const refusedPitch = () => [...fields({ name: "" }), deck()];
  const postApi = (parts: RawPart[], clientAddress: string) =>
    callRoute(apiPitchAction as never, rawMultipartRequest("/api/pitch", parts), clientAddress) as Promise<Response>;
  const postForm = async (parts: RawPart[], clientAddress: string) =>
    expectData<PitchOutcome>(await callRoute(processAction as never, rawMultipartRequest("/process", parts), clientAddress));

  beforeEach(() => {
    fs.rmSync(storageRoot(), { recursive: true, force: true });
  });

  it(
    `${RATE_LIMITS.pitchDeck?.points} decks a day per /64 (form and API together); the next one gets 429 with Retry-After, and is not written`,
    async () => {
      const perNetwork = RATE_LIMITS.pitchDeck.points;
      for (let i = 0; i < perNetwork; i++) {
        const from = `2001:db8:d:1::${(i + 1).toString(16)}`;
        const status = i % 2 ? (await postApi(refusedPitch(), from)).status : (await postForm(refusedPitch(), from)).status;
        expect(status, `deck ${i + 1}`).toBe(400);
      }
      const api = await postApi(refusedPitch(), "2001:db8:d:1::ff");
      expect(api.status).toBe(429);
      expect(await api.json()).toMatchObject({ error: rateLimitMessages.pitchDeck });
      expect(Number(api.headers.get("Retry-After"))).toBeGreaterThan(0);
      const form = await postForm([...fields(), deck()], "2001:db8:d:1::fe");
      expect(form.status).toBe(429);
      expect(form.data.retryAfterSeconds).toBeGreaterThan(0);
      expect(form.data.toast?.description).toBe(rateLimitMessages.pitchDeck);
      expect(filesUnder(incomingDir())).toEqual([]);
      expect(allPitches()).toHaveLength(0);

      // A pitch without a deck from the same network is still taken (the form always posts multipart).
      expect((await postApi(fields(), "2001:db8:d:1::fd")).status).toBe(201);
      expect((await postForm(fields(), "2001:db8:d:1::fc")).status).toBe(200);
      // Another /64 still sends decks.
      expect((await postApi([...fields(), deck()], "2001:db8:d:2::1")).status).toBe(201);
    },
    LONG,
  );

  it(
    "parallel decks from one /64: only the per-network number are read, the rest get 429",
    async () => {
      const perNetwork = RATE_LIMITS.pitchDeck.points;
      const answers = await Promise.all(Array.from({ length: perNetwork + 5 }, (_, i) => postApi(refusedPitch(), `2001:db8:e:1::${(i + 1).toString(16)}`)));
      expect(tally(answers.map((a) => a.status))).toEqual({ 400: perNetwork, 429: 5 });
    },
    LONG,
  );

  it(
    `${RATE_LIMITS.pitchDeckAll?.points} decks a day in all, whatever the addresses; then 429 for decks only`,
    async () => {
      const all = RATE_LIMITS.pitchDeckAll.points;
      const perNetwork = RATE_LIMITS.pitchDeck.points;
      for (let i = 0; i < all; i++) {
        const from = `2001:db8:f:${Math.floor(i / perNetwork) + 1}::${(i % perNetwork) + 1}`;
        expect((await postApi(refusedPitch(), from)).status, `deck ${i + 1}`).toBe(400);
      }
      const next = await postApi(refusedPitch(), "2001:db8:f:ffff::1");
      expect(next.status).toBe(429);
      expect(await next.json()).toMatchObject({ error: rateLimitMessages.pitchDeckAll });
      expect((await postApi(fields(), "2001:db8:f:ffff::2")).status).toBe(201);
    },
    LONG,
  );
});
