import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { resetRateLimitsForTests } from "~/modules/http/rate-limit.server";
import { flushMailer } from "~/modules/mail/mail.server";
import { findUserByEmail } from "~/modules/lp-users/lp-users.server";
import { confirmRegistration, registerInvestor } from "~/modules/lp-users/registration.server";
import { hashPassword, verifyPassword } from "~/modules/lp-users/password.server";
import { RegisterInput } from "~/modules/lp-users/schema";
import { action, loader } from "~/routes/api/auth/register";
import { allOutbox } from "../helpers/db";
import { atProductionPasswordCost, TEST_FIRM_INBOX } from "../helpers/test-env";
import {
  FIXTURE_PASSWORD,
  allUsers,
  callRouteWith,
  clearAccountTables,
  insertAdmin,
  insertUser,
  mailsTo,
  registerAndConfirm,
  registrationLinkToken,
} from "../helpers/users";

/** The answer says a link was mailed: the request reaches the admins once the address is confirmed (decision 028). */
const REGISTERED = {
  message:
    "Almost done: we've sent you an e-mail with a link to confirm your address. Your request goes to the admins once you confirm it.",
};

/** Confirm the newest link mailed to the address with the registration's password. */
async function confirm(email: string, password: string) {
  const outcome = await confirmRegistration(registrationLinkToken(email), { password });
  expect(outcome.ok, `confirming ${email}`).toBe(true);
}

const post = (body: unknown, clientAddress?: string) =>
  callRouteWith(
    action,
    new Request("http://localhost:3000/api/auth/register", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: typeof body === "string" ? body : JSON.stringify(body),
    }),
    clientAddress ? { clientAddress } : {},
  );

const BCRYPT_12 = /^\$2[ab]\$12\$[./A-Za-z0-9]{53}$/;

beforeEach(() => {
  clearAccountTables();
  resetRateLimitsForTests();
  vi.spyOn(console, "log").mockImplementation(() => {}); // mails are logged (no SMTP in these tests)
});
afterEach(async () => {
  await flushMailer();
  resetRateLimitsForTests();
  vi.restoreAllMocks();
});

describe("registerInvestor", () => {
  it("keeps a bcrypt cost-12 hash, never the password; confirmed, the request is a pending, non-admin account", () =>
    atProductionPasswordCost(async () => {
      await registerInvestor(
        RegisterInput.parse({ email: "Grace@Navy.Example", password: "hopper-1906", name: "Grace Hopper", company: " Navy " }),
      );
      expect(allUsers()).toHaveLength(0);
      await confirm("grace@navy.example", "hopper-1906");
      const users = allUsers();
      expect(users).toHaveLength(1);
      const [user] = users;
      expect(user).toMatchObject({
        email: "grace@navy.example",
        name: "Grace Hopper",
        company: "Navy",
        status: "pending",
        isAdmin: false,
      });
      expect(user?.passwordHash).toMatch(BCRYPT_12);
      expect(user?.passwordHash).not.toContain("hopper-1906");
      expect(await verifyPassword("hopper-1906", user?.passwordHash ?? "")).toBe(true);
    }));

  it("mails the firm inbox, naming the requester, once the address is confirmed, when there is no admin yet", async () => {
    await registerInvestor(RegisterInput.parse({ email: "ada@analytical.example", password: "engine-1843", name: "Ada Lovelace" }));
    expect(mailsTo(TEST_FIRM_INBOX)).toHaveLength(0);
    await confirm("ada@analytical.example", "engine-1843");
    const mails = allOutbox().filter((m) => m.to !== "ada@analytical.example");
    expect(mails.map((m) => m.to)).toEqual([TEST_FIRM_INBOX]);
    const [mail] = mails;
    expect(mail?.subject).toBe("New investor access request: Ada Lovelace");
    expect(mail?.text).toContain("Name: Ada Lovelace");
    expect(mail?.text).toContain("E-mail: ada@analytical.example");
    expect(mail?.text).toContain("Company: (not given)");
    expect(mail?.text).toContain("http://localhost:3000/admin/dashboard");
  });

  it("mails every approved admin (and not the firm inbox or other investors) when there are admins", async () => {
    const first = await insertAdmin({ email: "first-admin@lumenridge.example" });
    const second = await insertAdmin({ email: "second-admin@lumenridge.example" });
    await insertUser({ email: "approved-lp@example.test", status: "approved" });

    await registerAndConfirm({ email: "marie@radium.example", password: "polonium-1898", name: "Marie Curie", company: "Radium Institute" });

    const notices = allOutbox().filter((m) => m.to !== "marie@radium.example");
    expect(notices.map((m) => m.to).sort()).toEqual([first.email, second.email].sort());
    for (const mail of notices) {
      expect(mail.subject).toContain("Marie Curie");
      expect(mail.text).toContain("marie@radium.example");
      expect(mail.text).toContain("Company: Radium Institute");
    }
  });

  it("leaves an existing account untouched and mails its owner instead of the admins", async () => {
    await insertAdmin({ email: "the-admin@lumenridge.example" });
    const existing = await insertUser({ email: "taken@example.test", name: "Original Owner", company: "Orig", status: "approved" });

    await registerInvestor(
      RegisterInput.parse({ email: " TAKEN@example.test", password: "attacker-pass", name: "Someone Else", company: "Evil" }),
    );

    expect(allUsers()).toHaveLength(2);
    expect(findUserByEmail("taken@example.test")).toEqual(existing);
    expect(mailsTo("the-admin@lumenridge.example")).toHaveLength(0);
    const owner = mailsTo("taken@example.test");
    expect(owner).toHaveLength(1);
    expect(owner[0]?.subject).toBe("Your Lumen Ridge Ventures investor portal account");
    expect(owner[0]?.text).toContain("Hello Original Owner,");
    expect(owner[0]?.text).toContain("http://localhost:3000/lp/login");
    expect(owner[0]?.text).toContain("http://localhost:3000/lp/forgot-password");
    expect(owner[0]?.text).not.toContain("attacker-pass");
  });

  it(
    "takes as long for an existing e-mail as for a new one (no timing enumeration)",
    () =>
      atProductionPasswordCost(async () => {
        await insertUser({ email: "timed@example.test" });
        // Warm up whatever the app caches, then time a bcrypt cost-12 hash as the yardstick.
        await registerInvestor(RegisterInput.parse({ email: "timed@example.test", password: "whatever-1", name: "X" }));
        let started = performance.now();
        await hashPassword("yardstick-password");
        const oneHash = performance.now() - started;

        started = performance.now();
        await registerInvestor(RegisterInput.parse({ email: "timed@example.test", password: "whatever-2", name: "X" }));
        const existingTook = performance.now() - started;

        // A new e-mail costs one bcrypt hash; an existing one must cost about the same.
        expect(existingTook).toBeGreaterThan(oneHash * 0.5);
      }),
    30_000,
  );
});

describe("POST /api/auth/register", () => {
  it("answers 201 { message }; once the mailed link is confirmed the account is pending", async () => {
    const response = await post({ email: "lp@fund.example", password: "long-enough", name: "Linus Pauling", company: "Caltech" });
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual(REGISTERED);
    expect(findUserByEmail("lp@fund.example")).toBeUndefined();
    await confirm("lp@fund.example", "long-enough");
    expect(findUserByEmail("lp@fund.example")).toMatchObject({ status: "pending", isAdmin: false, company: "Caltech" });
  });

  it("ignores isAdmin, status, id, passwordHash and createdAt in the body", async () => {
    const response = await post({
      email: "sneaky@example.test",
      password: "long-enough",
      name: "Sneaky",
      isAdmin: true,
      status: "approved",
      id: "11111111-1111-1111-1111-111111111111",
      passwordHash: "$2b$04$abcdefghijklmnopqrstuuG3LkDnfUxq7ZFWc6V1ZXGMuWBK2JDR6",
      createdAt: "2000-01-01T00:00:00.000Z",
    });
    expect(response.status).toBe(201);
    await confirm("sneaky@example.test", "long-enough");
    const user = findUserByEmail("sneaky@example.test");
    expect(user).toMatchObject({ status: "pending", isAdmin: false });
    expect(user?.id).not.toBe("11111111-1111-1111-1111-111111111111");
    // The hash is the server's own, of the password sent (the body's hash is of something else).
    expect(await verifyPassword("long-enough", user?.passwordHash ?? "")).toBe(true);
    expect(user?.createdAt.getFullYear()).toBeGreaterThan(2000);
  });

  it("answers an already registered e-mail with exactly the same status and body, changing nothing", async () => {
    const existing = await insertUser({ email: "known@example.test", name: "Known Person", status: "rejected" });

    const fresh = await post({ email: "unknown@example.test", password: "long-enough", name: "New Person" });
    const again = await post({ email: "Known@Example.test", password: "other-password", name: "Impostor", company: "X" });

    expect(again.status).toBe(fresh.status);
    expect(again.headers.get("Content-Type")).toBe(fresh.headers.get("Content-Type"));
    expect(await again.text()).toBe(await fresh.text());
    expect(findUserByEmail("known@example.test")).toEqual(existing);
    expect(allUsers()).toHaveLength(1);
    expect(mailsTo("known@example.test")).toHaveLength(1);
  });

  it("answers 400 with every field message", async () => {
    const response = await post({ email: "nope", password: "short", name: " " });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: "Invalid email address",
      fields: {
        email: ["Invalid email address"],
        password: ["Password must be at least 8 characters"],
        name: ["Name is required"],
      },
    });
    expect(allUsers()).toHaveLength(0);
  });

  it.each([
    ["73 bytes", "x".repeat(73)],
    ["25 emoji", "🦄".repeat(25)],
  ])("answers 400 for a password of %s, with the 72-bytes message", async (_label, password) => {
    const response = await post({ email: "long@example.test", password, name: "Long" });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: "Password must be at most 72 bytes (about 72 letters, fewer with accents or emoji)",
      fields: { password: ["Password must be at most 72 bytes (about 72 letters, fewer with accents or emoji)"] },
    });
    expect(allUsers()).toHaveLength(0);
  });

  it("answers 400 for a body that is not JSON and 415 for a form post", async () => {
    const bad = await post("{email:");
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: "Request body must be valid JSON" });

    const form = await callRouteWith(
      action,
      new Request("http://localhost:3000/api/auth/register", {
        method: "POST",
        body: new URLSearchParams({ email: "a@b.example", password: "long-enough", name: "A" }),
      }),
    );
    expect(form.status).toBe(415);
    expect(allUsers()).toHaveLength(0);
  });

  it("answers 405 to GET", async () => {
    const response = await callRouteWith(loader, new Request("http://localhost:3000/api/auth/register"));
    expect(response.status).toBe(405);
    expect(response.headers.get("Allow")).toBe("POST");
  });

  it(
    "rate-limits: the 11th registration from one address within the hour gets 429 with Retry-After",
    async () => {
      await insertUser({ email: "repeat@example.test" });
      for (let i = 1; i <= 10; i++) {
        const response = await post({ email: "repeat@example.test", password: FIXTURE_PASSWORD, name: "Repeat" });
        expect(response.status, `request ${i}`).toBe(201);
      }
      const limited = await post({ email: "fresh@example.test", password: "long-enough", name: "Fresh" });
      expect(limited.status).toBe(429);
      expect(await limited.json()).toEqual({ error: "Too many registration attempts. Please try again later." });
      const retryAfter = Number(limited.headers.get("Retry-After"));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(60 * 60);
      expect(findUserByEmail("fresh@example.test")).toBeUndefined();

      // Another address may still register.
      expect((await post({ email: "fresh@example.test", password: "long-enough", name: "Fresh" }, "198.51.100.50")).status).toBe(201);
    },
    30_000,
  );
});
