import { and, eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "../../app/modules/db/connection.server";
import { auditEvents, newsletterSubscribers } from "../../db/schema";
import { newsletterConsent } from "~/content/newsletter";
import { hashToken } from "~/modules/auth/tokens.server";
import { advanceClockForTests, resetClockForTests } from "~/modules/config/clock.server";
import { AppError } from "~/modules/http/app-error";
import {
  confirmSubscription,
  consentPageOf,
  isConfirmTokenValid,
  isNewsletterUnsubscribeTokenValid,
  newsletterUnsubscribeToken,
  newsletterUnsubscribeUrl,
  purgeUnconfirmedSubscribers,
  subscribeToNewsletter,
  unsubscribeFromNewsletter,
} from "~/modules/newsletter/newsletter.server";
import { NewsletterInput } from "~/modules/newsletter/schema";
import { allSubscribers, clearTables } from "../helpers/db";
import { mailsTo } from "../helpers/users";

const DAY = 24 * 60 * 60 * 1000;
const subscribe = (email: string, page = "/newsletter") => subscribeToNewsletter(NewsletterInput.parse({ email }), page);
const rowOf = (email: string) => getDb().select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, email)).get()!;
const confirmMails = (email: string) => mailsTo(email).filter((m) => m.subject.startsWith("Confirm your"));
/** The token of the newest confirmation link mailed to an address, as the recipient reads it. */
function latestToken(email: string): string {
  const mails = confirmMails(email);
  const match = mails.at(-1)?.text.match(/\/newsletter\/confirm\?token=([A-Za-z0-9_-]+)/);
  if (!match) throw new Error(`no confirmation link to ${email}`);
  return match[1]!;
}
const auditCount = (event: string, email: string) =>
  getDb().select().from(auditEvents).where(and(eq(auditEvents.event, event), eq(auditEvents.targetLabel, email))).all().length;

function conflictOf(fn: () => unknown): AppError | undefined {
  try {
    fn();
  } catch (error) {
    return error as AppError;
  }
  return undefined;
}

function confirmed(email: string): string {
  subscribe(email);
  expect(confirmSubscription(latestToken(email), "203.0.113.7")).toBe(true);
  return rowOf(email).id;
}

beforeEach(() => clearTables());
afterEach(() => resetClockForTests());

describe("subscribing", () => {
  it("stores a new address as pending with only the hash of a 7-day link, and mails the link", () => {
    const before = Date.now();
    const answer = subscribe("  Grace.Hopper@Navy.EXAMPLE ", "/team");
    expect(answer).toEqual({ email: "grace.hopper@navy.example", status: "pending" });
    const row = rowOf("grace.hopper@navy.example");
    expect(row.status).toBe("pending");
    expect(row.consentPage).toBe("/team");
    expect(row.confirmedAt).toBeNull();
    const token = latestToken("grace.hopper@navy.example");
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(row.confirmTokenHash).toBe(hashToken(token));
    expect(JSON.stringify(row)).not.toContain(token);
    expect(row.confirmExpiresAt!.getTime() - row.confirmSentAt!.getTime()).toBe(7 * DAY);
    expect(row.confirmSentAt!.getTime()).toBeGreaterThanOrEqual(before - 1000);
  });

  it("a confirmed address is SPEC's duplicate (409), written in any case", () => {
    confirmed("grace@navy.example");
    for (const again of ["grace@navy.example", "GRACE@NAVY.EXAMPLE", "  Grace@Navy.example\t"]) {
      const error = conflictOf(() => subscribe(again));
      expect(error).toBeInstanceOf(AppError);
      expect(error!.status).toBe(409);
      expect(error!.message).toContain("Email already subscribed");
    }
    expect(allSubscribers()).toHaveLength(1);
  });

  it("answers a new, a pending and an unsubscribed address identically, each with a fresh link", () => {
    const fresh = subscribe("new@lumenridge.example");
    subscribe("pending@lumenridge.example");
    const pending = subscribe("pending@lumenridge.example");
    const gone = confirmed("gone@lumenridge.example");
    expect(unsubscribeFromNewsletter(newsletterUnsubscribeToken(gone))).toBe(true);
    const unsubscribed = subscribe("gone@lumenridge.example");
    const shape = (a: { email: string; status: string }) => ({ ...a, email: "x" });
    expect(shape(pending)).toEqual(shape(fresh));
    expect(shape(unsubscribed)).toEqual(shape(fresh));
    expect(Object.keys(fresh).sort()).toEqual(["email", "status"]);
    expect(confirmMails("pending@lumenridge.example")).toHaveLength(2);
    expect(confirmMails("gone@lumenridge.example")).toHaveLength(2);
  });

  it("a fresh link replaces the old one", () => {
    subscribe("twice@lumenridge.example");
    const first = latestToken("twice@lumenridge.example");
    subscribe("twice@lumenridge.example");
    const second = latestToken("twice@lumenridge.example");
    expect(second).not.toBe(first);
    expect(isConfirmTokenValid(first)).toBe(false);
    expect(confirmSubscription(first, "203.0.113.7")).toBe(false);
    expect(isConfirmTokenValid(second)).toBe(true);
  });

  it("sends at most 3 confirmation mails per address in a rolling day; past that the same answer and no mail", () => {
    const answers = [1, 2, 3, 4, 5].map(() => subscribe("flood@lumenridge.example"));
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect(confirmMails("flood@lumenridge.example")).toHaveLength(3);
    // The third link is still the one that works.
    const third = latestToken("flood@lumenridge.example");
    expect(isConfirmTokenValid(third)).toBe(true);
    // Another address is not held back.
    subscribe("other@lumenridge.example");
    expect(confirmMails("other@lumenridge.example")).toHaveLength(1);
    // A day later the address may get a link again.
    advanceClockForTests(DAY + 60_000);
    subscribe("flood@lumenridge.example");
    expect(confirmMails("flood@lumenridge.example")).toHaveLength(4);
  });

  it("keeps the sign-up page only as a local path", () => {
    expect(consentPageOf("/team?x=1#newsletter-footer")).toBe("/team");
    expect(consentPageOf("https://evil.example/")).toBe("/newsletter");
    expect(consentPageOf("//evil.example/x")).toBe("/newsletter");
    expect(consentPageOf("/\\evil.example")).toBe("/newsletter");
    expect(consentPageOf(null)).toBe("/newsletter");
    expect(consentPageOf(`/${"a".repeat(500)}`)).toHaveLength(200);
  });
});

describe("confirming", () => {
  it("records the consent (time, IP, page, text and version), spends the token and writes an audit row", () => {
    subscribe("ada@lumenridge.example", "/portfolio");
    const token = latestToken("ada@lumenridge.example");
    expect(isConfirmTokenValid(token)).toBe(true);
    // Checking the link (the page's GET) changes nothing.
    expect(rowOf("ada@lumenridge.example").status).toBe("pending");
    expect(confirmSubscription(token, "203.0.113.9")).toBe(true);
    const row = rowOf("ada@lumenridge.example");
    expect(row).toMatchObject({
      status: "confirmed",
      consentIp: "203.0.113.9",
      consentPage: "/portfolio",
      consentText: newsletterConsent.text,
      consentVersion: newsletterConsent.version,
      confirmTokenHash: null,
      confirmExpiresAt: null,
    });
    expect(row.confirmedAt).toBeInstanceOf(Date);
    expect(auditCount("newsletter.confirmed", "ada@lumenridge.example")).toBe(1);
  });

  it("a replay of a used link is refused and changes nothing", () => {
    subscribe("replay@lumenridge.example");
    const token = latestToken("replay@lumenridge.example");
    expect(confirmSubscription(token, "203.0.113.9")).toBe(true);
    const after = rowOf("replay@lumenridge.example");
    expect(isConfirmTokenValid(token)).toBe(false);
    expect(confirmSubscription(token, "198.51.100.1")).toBe(false);
    expect(rowOf("replay@lumenridge.example")).toEqual(after);
    expect(auditCount("newsletter.confirmed", "replay@lumenridge.example")).toBe(1);
  });

  it("an expired link (over 7 days) is refused and the address stays pending", () => {
    subscribe("late@lumenridge.example");
    const token = latestToken("late@lumenridge.example");
    advanceClockForTests(7 * DAY + 1000);
    expect(isConfirmTokenValid(token)).toBe(false);
    expect(confirmSubscription(token, "203.0.113.9")).toBe(false);
    expect(rowOf("late@lumenridge.example").status).toBe("pending");
  });

  it("tampered and made-up tokens are refused", () => {
    subscribe("tamper@lumenridge.example");
    const token = latestToken("tamper@lumenridge.example");
    const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === "A" ? "B" : "A") + s.slice(i + 1);
    for (const bad of [flip(token, 0), flip(token, 42), token.slice(0, -1), `${token}A`, hashToken(token), "", null, 42, token.toUpperCase()]) {
      expect(isConfirmTokenValid(bad)).toBe(false);
      expect(confirmSubscription(bad, "203.0.113.9")).toBe(false);
    }
    expect(rowOf("tamper@lumenridge.example").status).toBe("pending");
  });
});

describe("unsubscribing", () => {
  it("the signed link unsubscribes (audit row); a replay answers true and changes nothing", () => {
    const id = confirmed("leave@lumenridge.example");
    const token = newsletterUnsubscribeToken(id);
    expect(newsletterUnsubscribeUrl(id)).toMatch(new RegExp(`/unsubscribe/newsletter\\?token=${token}$`));
    expect(isNewsletterUnsubscribeTokenValid(token)).toBe(true);
    expect(unsubscribeFromNewsletter(token)).toBe(true);
    const row = rowOf("leave@lumenridge.example");
    expect(row.status).toBe("unsubscribed");
    expect(row.unsubscribedAt).toBeInstanceOf(Date);
    expect(unsubscribeFromNewsletter(token)).toBe(true);
    expect(rowOf("leave@lumenridge.example")).toEqual(row);
    expect(auditCount("newsletter.unsubscribed", "leave@lumenridge.example")).toBe(1);
  });

  it("refuses tokens it did not sign, or signed for another purpose", async () => {
    const id = confirmed("keep@lumenridge.example");
    const token = newsletterUnsubscribeToken(id);
    const { unsubscribeToken: documentToken } = await import("~/modules/document-mail/token.server");
    const [encoded, signature] = token.split(".") as [string, string];
    const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === "A" ? "B" : "A") + s.slice(i + 1);
    for (const bad of [documentToken(id), `${encoded}.${flip(signature, 5)}`, `${flip(encoded, 0)}.${signature}`, `${token}=`, token.toUpperCase(), "", null]) {
      expect(isNewsletterUnsubscribeTokenValid(bad)).toBe(false);
      expect(unsubscribeFromNewsletter(bad)).toBe(false);
    }
    expect(rowOf("keep@lumenridge.example").status).toBe("confirmed");
  });

  it("an unsubscribed address stays unsubscribed until a new link is confirmed", () => {
    const id = confirmed("back@lumenridge.example");
    unsubscribeFromNewsletter(newsletterUnsubscribeToken(id));
    expect(subscribe("back@lumenridge.example")).toEqual({ email: "back@lumenridge.example", status: "pending" });
    expect(rowOf("back@lumenridge.example").status).toBe("unsubscribed");
    // The old unsubscribe link changes nothing now, and the new confirmation link still works.
    expect(unsubscribeFromNewsletter(newsletterUnsubscribeToken(id))).toBe(true);
    const token = latestToken("back@lumenridge.example");
    expect(confirmSubscription(token, "203.0.113.9")).toBe(true);
    const row = rowOf("back@lumenridge.example");
    expect(row.status).toBe("confirmed");
    expect(row.unsubscribedAt).toBeNull();
    // The same link works again for the same subscriber.
    expect(unsubscribeFromNewsletter(newsletterUnsubscribeToken(id))).toBe(true);
    expect(rowOf("back@lumenridge.example").status).toBe("unsubscribed");
  });

  it("a link for a subscriber that is gone is refused", () => {
    const id = confirmed("deleted@lumenridge.example");
    getDb().delete(newsletterSubscribers).run();
    expect(unsubscribeFromNewsletter(newsletterUnsubscribeToken(id))).toBe(false);
  });
});

describe("purging unconfirmed addresses", () => {
  it("deletes pending rows whose last link went out over 30 days ago, never confirmed or unsubscribed ones", () => {
    const db = getDb();
    const old = new Date(Date.now() - 31 * DAY);
    const recent = new Date(Date.now() - 29 * DAY);
    subscribe("stale@lumenridge.example");
    subscribe("recent@lumenridge.example");
    const keptConfirmed = confirmed("confirmed@lumenridge.example");
    const keptGone = confirmed("gone@lumenridge.example");
    unsubscribeFromNewsletter(newsletterUnsubscribeToken(keptGone));
    db.update(newsletterSubscribers).set({ confirmSentAt: old, createdAt: old }).where(eq(newsletterSubscribers.email, "stale@lumenridge.example")).run();
    db.update(newsletterSubscribers).set({ confirmSentAt: recent, createdAt: old }).where(eq(newsletterSubscribers.email, "recent@lumenridge.example")).run();
    db.update(newsletterSubscribers).set({ confirmSentAt: old, createdAt: old }).where(eq(newsletterSubscribers.id, keptConfirmed)).run();
    db.update(newsletterSubscribers).set({ confirmSentAt: old, createdAt: old }).where(eq(newsletterSubscribers.id, keptGone)).run();
    // A pending row from before double opt-in has no link on record: its age counts.
    db.insert(newsletterSubscribers).values({ email: "nolink@lumenridge.example", status: "pending", createdAt: old }).run();

    expect(purgeUnconfirmedSubscribers()).toBe(2);
    expect(allSubscribers().map((r) => r.email).sort()).toEqual([
      "confirmed@lumenridge.example",
      "gone@lumenridge.example",
      "recent@lumenridge.example",
    ]);
    expect(purgeUnconfirmedSubscribers()).toBe(0);
  });
});
