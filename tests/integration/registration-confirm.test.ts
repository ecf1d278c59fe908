import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { sql } from "drizzle-orm";
import { getDb } from "../../app/modules/db/connection.server";
import { waitingCounts } from "~/modules/admin/overview.server";
import { readBatch } from "~/modules/bulk-upload/batch.server";
import { advanceClockForTests, resetClockForTests } from "~/modules/config/clock.server";
import { recipientChoices } from "~/modules/documents/recipients.server";
import { countList, readAllRows } from "~/modules/email-lists/email-lists.server";
import { resetRateLimitsForTests } from "~/modules/http/rate-limit.server";
import { listInvestorsPage } from "~/modules/lp-users/admin-search.server";
import { findUserByEmail, listUsersByStatusPage } from "~/modules/lp-users/lp-users.server";
import { flushMailer, setMailTransportForTests } from "~/modules/mail/mail.server";
import { action as bulkAction } from "~/routes/admin/documents-bulk";
import { action as loginAction } from "~/routes/api/auth/login";
import { action as registerAction } from "~/routes/api/auth/register";
import { action as statusAction } from "~/routes/api/auth/user-status";
import { loader as usersByStatusLoader } from "~/routes/api/auth/users-by-status";
import { action as adminLoginAction } from "~/routes/admin/login";
import { action as investorLoginAction } from "~/routes/lp/login";
import { action as confirmAction, loader as confirmLoader } from "~/routes/lp/register-confirm";
import { action as registerFormAction } from "~/routes/lp/register";
import { createAdminAccount } from "~/modules/lp-users/admin-create.server";
import { purgeUnconfirmedRegistrations } from "~/modules/lp-users/registration.server";
import { readFlash } from "~/modules/toast/flash.server";
import { bytesOf } from "../helpers/documents";
import { expectData, expectRedirect, requestWithCookie } from "../helpers/http";
import { fakeTransport } from "../helpers/mail";
import { MIME, samplePdf } from "../helpers/sample-files";
import {
  ORIGIN,
  allUsers,
  apiRequest,
  callRouteWith,
  clearAccountTables,
  insertAdmin,
  insertUser,
  mailsTo,
  sessionCookieFor,
} from "../helpers/users";

/**
 * Security finding M3 of issue 21: a registration proves its address before
 * anyone acts on it. Registering mails a link to the address; until the link
 * is confirmed (with the registration's password) no admin sees, counts,
 * finds or can approve the request, and no admin is mailed. Also L3: the
 * "already registered" mail and the admins' "new request" mail are capped
 * per recipient.
 */

const PASSWORD = "a-long-enough-pw";
const REGISTERED_MESSAGE =
  "Almost done: we've sent you an e-mail with a link to confirm your address. Your request goes to the admins once you confirm it.";
const PENDING = "Your access request is still waiting for approval. We will e-mail you as soon as an administrator approves it.";
const CONFIRM_SUBJECT = "Confirm your e-mail address for the Lumen Ridge Ventures investor portal";
const CONFIRM_LINK = /http:\/\/localhost:3000\/lp\/register\/confirm\?token=([A-Za-z0-9_-]{43})/;
const DONE_TEXT = "Your request has been sent to the admins for approval. You'll be notified once approved.";

const register = (body: Record<string, string>, clientAddress?: string) =>
  callRouteWith(registerAction, apiRequest("POST", "/api/auth/register", { json: body }), clientAddress ? { clientAddress } : {});

const login = (email: string, password: string) => callRouteWith(loginAction, apiRequest("POST", "/api/auth/login", { json: { email, password } }));

const confirmRoute = () => ({ action: confirmAction, loader: confirmLoader });

/**
 * The mails as their recipients read them: the ones delivered (through a fake
 * transport: the mailer erases a sent mail's link from the outbox), then the
 * ones still waiting in the outbox.
 */
let delivered = fakeTransport();
function mailTexts(email: string): string[] {
  const sent = delivered.sent.filter((m) => String(m.to).includes(email)).map((m) => String(m.text));
  const waiting = mailsTo(email)
    .filter((m) => m.status === "pending")
    .map((m) => m.text);
  return [...sent, ...waiting];
}

/** The token of the newest confirmation link mailed to the address (fails when there is none). */
function latestConfirmToken(email: string): string {
  const token = readableConfirmToken(email);
  expect(token, `a confirmation link mailed to ${email}`).toBeDefined();
  return token!;
}

/** The newest confirmation link mailed to the address, or undefined. */
function readableConfirmToken(email: string): string | undefined {
  return mailTexts(email)
    .map((text) => CONFIRM_LINK.exec(text)?.[1])
    .filter((t): t is string => !!t)
    .at(-1);
}

/** The page's POST (the button, with the password), as a browser without JavaScript sends it. */
async function postConfirm(token: string, password: string, clientAddress?: string) {
  const { action } = confirmRoute();
  const request = new Request(`${ORIGIN}/lp/register/confirm?token=${encodeURIComponent(token)}`, {
    method: "POST",
    body: new URLSearchParams({ password }),
  });
  return callRouteWith(action as never, request, clientAddress ? { clientAddress } : {});
}

async function getConfirmPage(token: string) {
  const { loader } = confirmRoute();
  return callRouteWith(loader as never, new Request(`${ORIGIN}/lp/register/confirm?token=${encodeURIComponent(token)}`));
}

/** Status of a page answer: a Response's, or a data() answer's init (200 when plain data). */
function statusOf(answer: unknown): number {
  if (answer instanceof Response) return answer.status;
  const init = (answer as { init?: { status?: number } | null } | null)?.init;
  return init?.status ?? 200;
}

const pendingEmails = async (cookie: string) => {
  const response = await callRouteWith(usersByStatusLoader, apiRequest("GET", "/api/auth/pending-users", { cookie }));
  expect(response.status).toBe(200);
  return ((await response.json()) as { email: string }[]).map((u) => u.email);
};

beforeEach(() => {
  clearAccountTables();
  resetRateLimitsForTests();
  vi.spyOn(console, "log").mockImplementation(() => {});
  delivered = fakeTransport();
  setMailTransportForTests(delivered.transport);
});
afterEach(async () => {
  await flushMailer();
  setMailTransportForTests(null);
  resetClockForTests();
  resetRateLimitsForTests();
  vi.restoreAllMocks();
});

describe("registering an address that has no account", () => {
  it("answers 201 with the new text, mails the address a confirmation link, and makes no account and no admin mail", async () => {
    const admin = await insertAdmin({ email: "admin@lumenridge.example" });
    const response = await register({ email: "Grace@Navy.Example", password: PASSWORD, name: "Grace Hopper", company: "Navy" });

    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ message: REGISTERED_MESSAGE });
    expect(findUserByEmail("grace@navy.example")).toBeUndefined();
    expect(allUsers().map((u) => u.email)).toEqual([admin.email]);
    expect(mailsTo(admin.email)).toHaveLength(0);
    const [mail, ...more] = mailsTo("grace@navy.example");
    expect(more).toHaveLength(0);
    expect(mail?.subject).toBe(CONFIRM_SUBJECT);
    expect(mail?.text).toMatch(CONFIRM_LINK);
    // The outbox keeps the link sealed: the row's own text holds only the placeholder.
    expect(getDb().all<{ text: string }>(sql`select text from email_outbox where "to" = 'grace@navy.example'`)[0]?.text).toContain("{{link}}");
  });

  it("is invisible to admins until confirmed: lists, counts, search, e-mail lists, the API, the picker, bulk matching, approve by id", async () => {
    const admin = await insertAdmin({ email: "admin@lumenridge.example" });
    const cookie = await sessionCookieFor(admin);
    await register({ email: "hidden@example.test", password: PASSWORD, name: "Hidden Person", company: "Hidden Co" });

    expect(await pendingEmails(cookie)).not.toContain("hidden@example.test");
    expect(listUsersByStatusPage("pending", { offset: 0, limit: 50 }).total).toBe(0);
    expect(listInvestorsPage("pending", { offset: 0, limit: 50, query: "hidden" }).total).toBe(0);
    expect(waitingCounts().pendingInvestors).toBe(0);
    expect(countList("lp-users")).toBe(0);
    expect(readAllRows("lp-users", { column: "date", direction: "desc" }).map((r) => r.email)).not.toContain("hidden@example.test");
    expect(recipientChoices("hidden", []).choices).toHaveLength(0);

    // A bulk upload file named with the address matches nobody.
    const form = new FormData();
    form.append("title", "Statement");
    form.append("category", "reports");
    form.append("files", new File([bytesOf(samplePdf("x"))], "statement_hidden@example.test.pdf", { type: MIME.pdf }));
    const staged = expectRedirect(
      await callRouteWith(bulkAction as never, new Request(`${ORIGIN}/admin/documents/bulk`, { method: "POST", headers: { Cookie: cookie }, body: form })),
    );
    const batchId = /\/admin\/documents\/bulk\/([0-9a-f]{32})$/.exec(staged.location)?.[1];
    expect(batchId, staged.location).toBeDefined();
    const batch = await readBatch(batchId!);
    expect(batch.entries.map((e) => e.investor)).toEqual([null]);

    // Approving the registration by any id it has is the unknown id's 404.
    const ids = getDb()
      .all<{ id: string }>(sql`select id from registration_requests`)
      .map((r) => r.id);
    expect(ids).toHaveLength(1);
    const approve = await callRouteWith(
      statusAction,
      apiRequest("PATCH", `/api/auth/users/${ids[0]}/status`, { cookie, json: { status: "approved" } }),
      { params: { id: ids[0]! } },
    );
    expect(approve.status).toBe(404);
    expect(findUserByEmail("hidden@example.test")).toBeUndefined();
  });

  it("signing in with its password answers like a pending account plus confirmationRequired; a wrong password is the usual 401", async () => {
    await register({ email: "waiting@example.test", password: PASSWORD, name: "Waiting" });

    const right = await login("waiting@example.test", PASSWORD);
    expect(right.status).toBe(403);
    expect(await right.json()).toEqual({ error: PENDING, confirmationRequired: true });
    expect(right.headers.get("Set-Cookie")).toBeNull();

    const wrong = await login("waiting@example.test", "not-the-password");
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({ error: "Invalid email or password" });
  });
});

describe("the confirmation link", () => {
  it("GET shows the button and changes nothing; the POST with the password makes the pending account, mails the admins, and is spent", async () => {
    const admin = await insertAdmin({ email: "admin@lumenridge.example" });
    const cookie = await sessionCookieFor(admin);
    await register({ email: "marie@radium.example", password: PASSWORD, name: "Marie Curie", company: "Radium Institute" });
    const token = latestConfirmToken("marie@radium.example");

    expect(statusOf(await getConfirmPage(token))).toBe(200);
    expect(findUserByEmail("marie@radium.example")).toBeUndefined();

    const confirmed = await postConfirm(token, PASSWORD);
    expect(confirmed).toBeInstanceOf(Response);
    expect((confirmed as Response).status).toBe(303);
    expect((confirmed as Response).headers.get("Location")).toBe("/lp/register/confirm?confirmed=1");

    const user = findUserByEmail("marie@radium.example");
    expect(user).toMatchObject({ status: "pending", isAdmin: false, name: "Marie Curie", company: "Radium Institute" });
    expect(user?.confirmedAt).toBeInstanceOf(Date);
    expect(await pendingEmails(cookie)).toContain("marie@radium.example");
    const notice = mailsTo(admin.email);
    expect(notice.map((m) => m.subject)).toEqual(["New investor access request: Marie Curie"]);
    expect(getDb().all(sql`select id from registration_requests`)).toHaveLength(0);

    // Spent: the page and the POST now answer the bad link's 400, and nothing more happens.
    expect(statusOf(await getConfirmPage(token))).toBe(400);
    expect(statusOf(await postConfirm(token, PASSWORD))).toBe(400);
    expect(mailsTo(admin.email)).toHaveLength(1);
  });
});

describe("L3: mail caps", () => {
  it("mails the owner of an existing account at most 3 'already registered' mails a day, with the same answer every time", async () => {
    await insertUser({ email: "taken@example.test", status: "approved" });
    const answers: string[] = [];
    for (let i = 0; i < 5; i++) {
      const response = await register({ email: "taken@example.test", password: `attempt-${i}-password`, name: "Someone" }, `198.51.100.${i + 1}`);
      answers.push(`${response.status} ${await response.text()}`);
    }
    expect(new Set(answers).size).toBe(1);
    expect(mailsTo("taken@example.test")).toHaveLength(3);
  });
});

describe("L3: the admins' 'new request' mail", () => {
  it(
    "goes to each admin at most 10 times an hour; the 11th request is still listed for review",
    async () => {
      const admin = await insertAdmin({ email: "admin@lumenridge.example" });
      const cookie = await sessionCookieFor(admin);
      for (let i = 1; i <= 11; i++) {
        const email = `request-${i}@example.test`;
        expect((await register({ email, password: PASSWORD, name: `Requester ${i}` }, `198.51.100.${i}`)).status).toBe(201);
        // Whatever it takes for a request to reach the admins: the mailed link, when there is one.
        const token = readableConfirmToken(email);
        if (token) expect(statusOf(await postConfirm(token, PASSWORD, `198.51.100.${i}`))).toBe(303);
      }
      expect(mailsTo(admin.email).filter((m) => m.subject.startsWith("New investor access request: "))).toHaveLength(10);
      expect(await pendingEmails(cookie)).toContain("request-11@example.test");
    },
    60_000,
  );
});

describe("the confirmation page", () => {
  it("GET shows the address with a password field; an unknown, tampered or missing token is one 400 page", async () => {
    await register({ email: "page@example.test", password: PASSWORD, name: "Page" });
    const token = latestConfirmToken("page@example.test");
    const page = await getConfirmPage(token);
    expect(page).toEqual({ state: "ask", token, email: "page@example.test" });

    for (const bad of ["A".repeat(43), `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`, "short", ""]) {
      expect(statusOf(await getConfirmPage(bad)), bad).toBe(400);
      expect(statusOf(await postConfirm(bad, PASSWORD)), bad).toBe(400);
    }
    const { loader } = confirmRoute();
    expect(statusOf(await callRouteWith(loader as never, new Request(`${ORIGIN}/lp/register/confirm`)))).toBe(400);
    // The thank-you after the POST (no token): SPEC's text is the page's.
    expect(await callRouteWith(loader as never, new Request(`${ORIGIN}/lp/register/confirm?confirmed=1`))).toEqual({ state: "done" });
    expect(findUserByEmail("page@example.test")).toBeUndefined();
  });

  it("a wrong or missing password asks again (400) and keeps the link; the right one then confirms", async () => {
    await register({ email: "typo@example.test", password: PASSWORD, name: "Typo" });
    const token = latestConfirmToken("typo@example.test");

    const wrong = expectData<{ state: string; passwordError?: string }>(await postConfirm(token, "not-the-password"));
    expect(wrong.status).toBe(400);
    expect(wrong.data).toMatchObject({
      state: "ask",
      passwordError: "This is not the password of this request. Enter the one you chose when you last requested access, or request access again.",
    });
    const missing = expectData<{ state: string; passwordError?: string }>(await postConfirm(token, ""));
    expect(missing.status).toBe(400);
    expect(missing.data).toMatchObject({ state: "ask", passwordError: "Password is required" });
    expect(findUserByEmail("typo@example.test")).toBeUndefined();

    expect(statusOf(await postConfirm(token, PASSWORD))).toBe(303);
    expect(findUserByEmail("typo@example.test")?.status).toBe("pending");
  });

  it("expires after 7 days", async () => {
    await register({ email: "late@example.test", password: PASSWORD, name: "Late" });
    const token = latestConfirmToken("late@example.test");
    advanceClockForTests(7 * 24 * 60 * 60 * 1000 + 1000);
    expect(statusOf(await getConfirmPage(token))).toBe(400);
    expect(statusOf(await postConfirm(token, PASSWORD))).toBe(400);
    expect(findUserByEmail("late@example.test")).toBeUndefined();
  });

  it("is dropped when the address got an account meanwhile (admin:create): the link is no longer valid", async () => {
    await register({ email: "raced@example.test", password: PASSWORD, name: "Raced" });
    const token = latestConfirmToken("raced@example.test");
    await insertUser({ email: "raced@example.test", name: "Made Meanwhile", status: "approved" });

    expect(statusOf(await postConfirm(token, PASSWORD))).toBe(400);
    expect(findUserByEmail("raced@example.test")?.name).toBe("Made Meanwhile");
    expect(getDb().all(sql`select id from registration_requests`)).toHaveLength(0);
  });

  it("admin:create drops a registration of its address and makes the account confirmed", async () => {
    await register({ email: "boss@lumenridge.example", password: PASSWORD, name: "Not The Boss" });
    await createAdminAccount({ email: "boss@lumenridge.example", name: "The Boss", password: "the-real-passphrase" });
    expect(getDb().all(sql`select id from registration_requests`)).toHaveLength(0);
    expect(findUserByEmail("boss@lumenridge.example")).toMatchObject({ isAdmin: true, name: "The Boss", confirmedAt: expect.any(Date) });
  });

  it("writes auth.register (pending review) with the account, and the link request before it names no account", async () => {
    await register({ email: "audited@example.test", password: PASSWORD, name: "Audited" });
    await postConfirm(latestConfirmToken("audited@example.test"), PASSWORD);
    const user = findUserByEmail("audited@example.test")!;
    const rows = getDb().all<{ event: string; target_id: string | null; target_label: string; details: string }>(
      sql`select event, target_id, target_label, details from audit_events where target_label = 'audited@example.test' order by id`,
    );
    expect(rows.map((r) => [r.event, r.target_id, JSON.parse(r.details).outcome])).toEqual([
      ["auth.registration_link_requested", null, "link sent"],
      ["auth.register", user.id, "pending review"],
    ]);
  });
});

describe("registering an unconfirmed address again", () => {
  it("replaces the password, name, company and link: the old link is dead, the old password signs nothing in", async () => {
    await register({ email: "twice@example.test", password: "first-password", name: "First Try", company: "First Co" });
    const first = latestConfirmToken("twice@example.test");
    await register({ email: "twice@example.test", password: "second-password", name: "Second Try", company: "Second Co" }, "198.51.100.9");
    const second = latestConfirmToken("twice@example.test");
    expect(second).not.toBe(first);

    expect(statusOf(await postConfirm(first, "first-password"))).toBe(400);
    expect((await login("twice@example.test", "first-password")).status).toBe(401);
    expect(statusOf(await postConfirm(second, "first-password"))).toBe(400);
    expect(statusOf(await postConfirm(second, "second-password"))).toBe(303);
    expect(findUserByEmail("twice@example.test")).toMatchObject({ name: "Second Try", company: "Second Co", status: "pending" });
  });

  it("mails at most 3 links a day; past that the newest details win and the newest mailed link stays the one that works", async () => {
    const answers: string[] = [];
    const linkAfter: (string | undefined)[] = [];
    for (let i = 1; i <= 5; i++) {
      const response = await register({ email: "often@example.test", password: `password-${i}-x`, name: `Try ${i}` }, `198.51.100.${i}`);
      linkAfter.push(readableConfirmToken("often@example.test"));
      answers.push(`${response.status} ${await response.text()}`);
    }
    expect(new Set(answers).size).toBe(1);
    const mails = mailsTo("often@example.test");
    expect(mails).toHaveLength(3);
    // The 4th and 5th registrations mailed nothing: the newest link is still the 3rd's.
    expect(linkAfter[3]).toBe(linkAfter[2]);
    expect(linkAfter[4]).toBe(linkAfter[2]);
    const newest = linkAfter[2]!;
    // The 3rd registration's link, the 5th registration's password and name.
    expect(statusOf(await postConfirm(newest, "password-3-x"))).toBe(400);
    expect(statusOf(await postConfirm(newest, "password-5-x"))).toBe(303);
    expect(findUserByEmail("often@example.test")?.name).toBe("Try 5");

    // A day later the cap has room again.
    advanceClockForTests(24 * 60 * 60 * 1000 + 1000);
    await register({ email: "often-2@example.test", password: PASSWORD, name: "Again" });
    expect(mailsTo("often-2@example.test")).toHaveLength(1);
  });
});

describe("signing in before the confirmation", () => {
  it("/lp/login: the pending answer plus the confirm hint; a wrong password gets nothing more than invalid credentials", async () => {
    await register({ email: "form-signin@example.test", password: PASSWORD, name: "Form" });
    const post = (password: string, enhanced = true) =>
      callRouteWith(
        investorLoginAction as never,
        new Request(`${ORIGIN}/lp/login`, {
          method: "POST",
          body: new URLSearchParams({ email: "form-signin@example.test", password, ...(enhanced ? { _enhanced: "1" } : {}) }),
        }),
      );
    const right = expectData<{ confirmationRequired?: boolean; toast: { description: string } }>(await post(PASSWORD));
    expect(right.status).toBe(403);
    expect(right.data.toast.description).toBe(PENDING);
    expect(right.data.confirmationRequired).toBe(true);

    const wrong = expectData<{ confirmationRequired?: boolean; toast: { description: string } }>(await post("wrong-password"));
    expect(wrong.status).toBe(401);
    expect(wrong.data.toast.description).toBe("Invalid email or password");
    expect(wrong.data.confirmationRequired).toBeUndefined();

    // Without JavaScript: back to the sign-in page, the offer to send the link again carried in the flash.
    const plain = expectRedirect(await post(PASSWORD, false));
    expect(plain).toMatchObject({ status: 303, location: "/lp/login" });
    const { flash } = await readFlash(requestWithCookie("/lp/login", plain.cookie ?? ""));
    expect(flash.toast?.description).toBe(PENDING);
    expect(flash.form).toMatchObject({ formId: "investor-login", status: "error", values: { email: "form-signin@example.test" }, flags: ["confirmationRequired"] });
    const plainWrong = expectRedirect(await post("wrong-password", false));
    const wrongFlash = (await readFlash(requestWithCookie("/lp/login", plainWrong.cookie ?? ""))).flash;
    expect(wrongFlash.form?.flags).toBeUndefined();
    expect(wrongFlash.form?.message).toBe("Invalid email or password");
  });

  it("/admin/login: the right password answers as for any non-admin (admin access required), nothing about the confirmation", async () => {
    await register({ email: "admin-signin@example.test", password: PASSWORD, name: "Admin Try" });
    const answer = expectData<{ confirmationRequired?: boolean; result: { error: Record<string, string[]> } }>(
      await callRouteWith(
        adminLoginAction as never,
        new Request(`${ORIGIN}/admin/login`, { method: "POST", body: new URLSearchParams({ email: "admin-signin@example.test", password: PASSWORD, _enhanced: "1" }) }),
      ),
    );
    expect(answer.status).toBe(403);
    expect(answer.data.result.error[""]).toEqual(["Admin access required. This login is for administrators only."]);
    expect(answer.data.confirmationRequired).toBeUndefined();
  });

  it("'Send the link again' mails a fresh link (the old one dies), capped, with the same answer whether or not anything went out", async () => {
    await register({ email: "resend@example.test", password: PASSWORD, name: "Resend" });
    const first = latestConfirmToken("resend@example.test");
    let second: string | undefined;
    const resend = async (email: string) => {
      const redirect = expectRedirect(
        await callRouteWith(
          confirmAction as never,
          new Request(`${ORIGIN}/lp/register/confirm`, { method: "POST", body: new URLSearchParams({ intent: "resend", email }) }),
        ),
      );
      second ??= readableConfirmToken("resend@example.test");
      const { flash } = await readFlash(requestWithCookie(redirect.location, redirect.cookie ?? ""));
      return `${redirect.status} ${redirect.location} ${JSON.stringify({ ...flash.toast, id: undefined })}`;
    };
    const answers = [await resend("resend@example.test")];
    expect(second).toBeDefined();
    expect(second).not.toBe(first);
    answers.push(await resend("resend@example.test"), await resend("resend@example.test"), await resend("nobody@example.test"));
    await insertUser({ email: "has-account@example.test", status: "approved" });
    answers.push(await resend("has-account@example.test"));

    expect(new Set(answers).size).toBe(1);
    expect(answers[0]).toContain("303 /lp/login");
    expect(answers[0]).toContain("If a request for this address is waiting for its confirmation, we've sent it a new link.");
    expect(mailsTo("resend@example.test")).toHaveLength(3);
    expect(mailsTo("nobody@example.test")).toHaveLength(0);
    expect(mailsTo("has-account@example.test")).toHaveLength(0);
    expect(statusOf(await postConfirm(first, PASSWORD))).toBe(400);
    // The third link (the second resend) is the newest: the second is dead too.
    expect(statusOf(await postConfirm(second!, PASSWORD))).toBe(400);
  });
});

describe("the register form", () => {
  it("without JavaScript goes to /lp/login with 'Registration Submitted' and the new text", async () => {
    const redirect = expectRedirect(
      await callRouteWith(
        registerFormAction as never,
        new Request(`${ORIGIN}/lp/register`, {
          method: "POST",
          body: new URLSearchParams({ email: "form@example.test", password: PASSWORD, name: "Form Person" }),
        }),
      ),
    );
    expect(latestConfirmToken("form@example.test")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(redirect.location).toBe("/lp/login");
    const { flash } = await readFlash(requestWithCookie(redirect.location, redirect.cookie ?? ""));
    expect(flash.toast).toMatchObject({ title: "Registration Submitted", description: REGISTERED_MESSAGE });
    expect(findUserByEmail("form@example.test")).toBeUndefined();
  });
});

describe("purge", () => {
  it("deletes registrations 30 days after their last link, and only those", async () => {
    await register({ email: "old@example.test", password: PASSWORD, name: "Old" });
    advanceClockForTests(20 * 24 * 60 * 60 * 1000);
    await register({ email: "newer@example.test", password: PASSWORD, name: "Newer" });
    advanceClockForTests(10 * 24 * 60 * 60 * 1000 + 1000);

    expect(purgeUnconfirmedRegistrations()).toBe(1);
    expect(getDb().all<{ email: string }>(sql`select email from registration_requests`).map((r) => r.email)).toEqual(["newer@example.test"]);
    expect(purgeUnconfirmedRegistrations()).toBe(0);
  });
});

it("the confirmation text is SPEC's registration text", () => {
  expect(DONE_TEXT).toBe("Your request has been sent to the admins for approval. You'll be notified once approved.");
});
