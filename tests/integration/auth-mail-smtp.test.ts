import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { getDb } from "../../app/modules/db/connection.server";
import { resetRateLimitsForTests } from "~/modules/http/rate-limit.server";
import { backoffMs, deliverDueMail, flushMailer, setMailTransportForTests } from "~/modules/mail/mail.server";
import { requestPasswordReset, resetPassword, type LpUser } from "~/modules/lp-users/lp-users.server";
import { confirmRegistration } from "~/modules/lp-users/registration.server";
import { action as registerAction } from "~/routes/api/auth/register";
import { action as statusAction } from "~/routes/api/auth/user-status";
import { allOutbox } from "../helpers/db";
import { startSmtpServer, type SmtpTestServer } from "../helpers/smtp";
import {
  apiRequest,
  callRouteWith,
  clearAccountTables,
  insertAdmin,
  insertUser,
  mailsTo,
  sessionCookieFor,
  userById,
} from "../helpers/users";

const FROM = "Lumen Ridge Ventures <no-reply@lumenridge.example>";

let smtp: SmtpTestServer;
let admin: LpUser;
let adminCookie: string;

beforeAll(async () => {
  smtp = await startSmtpServer();
  clearAccountTables();
  admin = await insertAdmin({ email: "admin@lumenridge.example", name: "Ada Admin" });
  adminCookie = await sessionCookieFor(admin);
});
afterAll(async () => {
  await flushMailer();
  setMailTransportForTests(null);
  await smtp.stop();
});
beforeEach(async () => {
  await smtp.start();
  smtp.clear();
  setMailTransportForTests(smtp.transport());
  resetRateLimitsForTests();
});
afterEach(async () => {
  await flushMailer();
  resetRateLimitsForTests();
  vi.restoreAllMocks();
});

/** Let the background run finish, then deliver anything still due, as the mail worker would. */
async function deliver(now?: Date) {
  await flushMailer();
  return deliverDueMail(getDb(), now);
}

const register = (json: Record<string, string>) =>
  callRouteWith(registerAction, apiRequest("POST", "/api/auth/register", { json }));

const setStatus = (user: LpUser, status: string) =>
  callRouteWith(statusAction, apiRequest("PATCH", `/api/auth/users/${user.id}/status`, { cookie: adminCookie, json: { status } }), {
    params: { id: user.id },
  });

describe("account e-mails over a real SMTP server", () => {
  it("a registration mails its address the link; confirmed with it, the request reaches the admin, naming the requester", async () => {
    const response = await register({ email: "nikola@tesla.example", password: "alternating", name: "Nikola Tesla", company: "Tesla Electric" });
    expect(response.status).toBe(201);
    await deliver();

    // First only the address itself hears of it: the link that proves it.
    expect(smtp.received.map((m) => m.envelopeTo)).toEqual([["nikola@tesla.example"]]);
    const link = smtp.received[0]?.text.match(/http:\/\/localhost:3000\/lp\/register\/confirm\?token=([A-Za-z0-9_-]{43})/);
    expect(link, smtp.received[0]?.text).not.toBeNull();
    const outcome = await confirmRegistration(link![1], { password: "alternating" });
    expect(outcome.ok).toBe(true);
    smtp.clear();
    await deliver();

    expect(smtp.received).toHaveLength(1);
    const [mail] = smtp.received;
    expect(mail?.envelopeTo).toEqual(["admin@lumenridge.example"]);
    expect(mail?.to).toBe("admin@lumenridge.example");
    expect(mail?.from).toBe(FROM);
    expect(mail?.subject).toBe("New investor access request: Nikola Tesla");
    expect(mail?.text).toContain("Name: Nikola Tesla");
    expect(mail?.text).toContain("E-mail: nikola@tesla.example");
    expect(mail?.text).toContain("Company: Tesla Electric");
    expect(mail?.text).toContain("http://localhost:3000/admin/dashboard");
    expect(mail?.text).not.toContain("alternating");
  });

  it("an approval reaches the investor with the sign-in link APP_URL/lp/login", async () => {
    const investor = await insertUser({ email: "emmy@noether.example", name: "Emmy Noether" });
    expect((await setStatus(investor, "approved")).status).toBe(200);
    await deliver();

    expect(smtp.received).toHaveLength(1);
    const [mail] = smtp.received;
    expect(mail?.envelopeTo).toEqual(["emmy@noether.example"]);
    expect(mail?.subject).toBe("Your Lumen Ridge Ventures investor portal access is approved");
    expect(mail?.text).toContain("Dear Emmy Noether,");
    expect(mail?.text).toContain("Sign in here: http://localhost:3000/lp/login");
  });

  it("registering an e-mail that already has an account reaches its owner, not the admins", async () => {
    await insertUser({ email: "lise@meitner.example", name: "Lise Meitner", status: "approved" });
    const response = await register({ email: "lise@meitner.example", password: "someone-else", name: "Impostor" });
    expect(response.status).toBe(201);
    await deliver();

    expect(smtp.received.map((m) => m.envelopeTo)).toEqual([["lise@meitner.example"]]);
    const [mail] = smtp.received;
    expect(mail?.subject).toBe("Your Lumen Ridge Ventures investor portal account");
    expect(mail?.text).toContain("Hello Lise Meitner,");
    expect(mail?.text).toContain("already has an account");
    expect(mail?.text).toContain("http://localhost:3000/lp/login");
    expect(mail?.text).toContain("http://localhost:3000/lp/forgot-password");
    expect(mail?.text).not.toContain("Impostor");
  });

  it("a reset e-mail reaches the user, and the link in it sets a new password", async () => {
    const user = await insertUser({ email: "chien-shiung@wu.example", name: "Chien-Shiung Wu", status: "approved" });
    requestPasswordReset({ email: "chien-shiung@wu.example" });
    await deliver();

    expect(smtp.received).toHaveLength(1);
    const [mail] = smtp.received;
    expect(mail?.envelopeTo).toEqual(["chien-shiung@wu.example"]);
    expect(mail?.subject).toBe("Reset your Lumen Ridge Ventures password");
    const token = mail?.text.match(/http:\/\/localhost:3000\/lp\/reset-password\?token=([A-Za-z0-9_-]{43})(\s|$)/)?.[1];
    expect(token).toBeDefined();

    const before = userById(user.id).passwordHash;
    await resetPassword({ token: token ?? "", password: "parity violated" });
    expect(userById(user.id).passwordHash).not.toBe(before);
  });

  it("an unknown e-mail asking for a reset produces no mail at all", async () => {
    requestPasswordReset({ email: "ghost@nowhere.example" });
    expect(await deliver()).toBe(0);
    expect(smtp.received).toHaveLength(0);
  });

  it("with the SMTP server down, approval still succeeds; the e-mail is delivered once after it comes back", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const investor = await insertUser({ email: "katherine@johnson.example", name: "Katherine Johnson" });
    await smtp.stop();

    const response = await setStatus(investor, "approved");
    expect(response.status).toBe(200);
    expect(userById(investor.id).status).toBe("approved");
    await flushMailer();

    const [queued] = mailsTo("katherine@johnson.example");
    expect(queued).toMatchObject({ status: "pending", attempts: 1 });
    expect(queued?.lastError).toMatch(/ECONNREFUSED/);
    expect(smtp.received).toHaveLength(0);

    await smtp.start();
    const later = new Date(Date.now() + backoffMs(1) + 1000);
    expect(await deliverDueMail(getDb(), later)).toBe(1);
    expect(smtp.received.map((m) => m.envelopeTo)).toEqual([["katherine@johnson.example"]]);
    expect(smtp.received[0]?.text).toContain("http://localhost:3000/lp/login");
    expect(mailsTo("katherine@johnson.example")[0]).toMatchObject({ status: "sent", attempts: 2, lastError: null });

    // Delivered once: later runs send nothing more.
    expect(await deliverDueMail(getDb(), new Date(later.getTime() + 24 * 60 * 60 * 1000))).toBe(0);
    expect(smtp.received).toHaveLength(1);
    expect(allOutbox().filter((m) => m.status === "pending")).toHaveLength(0);
  });
});
