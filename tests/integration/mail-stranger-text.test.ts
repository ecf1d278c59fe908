import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { accountMails, securityMails } from "~/content/mail";
import { documentMails } from "~/content/document-mail";
import { fillPitchTemplate, PITCH_TEMPLATE_KEYS } from "~/content/pitch-inbox";
import { pitchSummaryMail } from "~/content/pitch-summary";
import { revokeFundAccess } from "~/modules/fund-access/fund-access.server";
import { resetRateLimitsForTests } from "~/modules/http/rate-limit.server";
import { flushMailer } from "~/modules/mail/mail.server";
import { registerInvestor, requestPasswordReset, setUserStatus, findUserByEmail } from "~/modules/lp-users/lp-users.server";
import { RegisterInput } from "~/modules/lp-users/schema";
import { submitPitch } from "~/modules/pitches/pitches.server";
import { PitchInput } from "~/modules/pitches/schema";
import { allOutbox, clearTables } from "../helpers/db";
import { validPitch } from "../helpers/fixtures";
import { accessRequestByEmail, clearFundAccess, registerFund } from "../helpers/funds";
import { TEST_FIRM_INBOX } from "../helpers/test-env";
import { clearAccountTables, insertAdmin, mailsTo } from "../helpers/users";

/**
 * Finding L2 of issue 21: text a stranger typed (a name, a company, a pitch's
 * message) must not turn a mail the firm sends to an address nobody proved into
 * a signed phishing mail. Names and companies arrive on one line with nothing
 * link-like in them; a pitch's message and deck link are not echoed to the
 * founder's address. Mails to the firm's own inbox and admins keep the text.
 */

const PHISHING_NAME = "Support Team\nYour account is locked: https://evil.example/x";
const HOSTILE = [
  PHISHING_NAME,
  "Ada\r\nClick www.evil.example now",
  "Mallory evil.example/login",
  "Eve <mailto:eve@evil.example>",
  "Bob\u2028Visit evil\uFF0Eexample/reset", // a line separator and a full-width dot
  "Trent ev\u200Bil.example/x", // a zero-width space inside the host
  "Oscar\tHXXP://EVIL.EXAMPLE/X?y=1",
  "Peggy 203.0.113.9/login",
];

/** The links and link-like host names a text holds. */
function linkLike(text: string): string[] {
  const pattern = /(?:[a-z][a-z0-9+.-]*:\/\/\S+|www\.\S+|\b[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.\p{L}{2,}\S*|\b\d{1,3}(?:\.\d{1,3}){3}\S*)/giu;
  return text.match(pattern) ?? [];
}

/** The firm's own: its site (APP_URL in tests) and its address. */
const isFirms = (link: string) => link.startsWith("http://localhost:3000/") || /^(hello@)?lumenridge\.example[.,)]?$/.test(link);

function expectNoStrangerLinks(text: string) {
  expect(text).not.toMatch(/evil/i);
  expect(text).not.toContain("203.0.113.9");
  expect(linkLike(text).filter((link) => !isFirms(link))).toEqual([]);
}

beforeEach(() => {
  clearTables();
  clearAccountTables();
  clearFundAccess();
  resetRateLimitsForTests();
  vi.spyOn(console, "log").mockImplementation(() => {});
});
afterEach(async () => {
  await flushMailer();
  resetRateLimitsForTests();
  vi.restoreAllMocks();
});

describe("the Fund II link mail (to the address typed in the form)", () => {
  it("a name like 'Support Team\\nYour account is locked: https://evil.example/x' lands on the greeting line, without the link", async () => {
    const benign = await registerFund({ name: "Grace Hopper", email: "grace@hopper.example", fundId: "fund-ii", accreditedConfirmation: true });
    expect(benign.status).toBe(201);
    const response = await registerFund({
      name: PHISHING_NAME,
      email: "victim@example.test",
      fundId: "fund-ii",
      company: "evil.example/login",
      accreditedConfirmation: true,
    });
    expect(response.status).toBe(201);
    const [mail] = mailsTo("victim@example.test");
    const [reference] = mailsTo("grace@hopper.example");
    expect(mail).toBeDefined();
    // The firm's own link is there, and it is the only link.
    expect(mail!.text).toMatch(/http:\/\/localhost:3000\/fund-ii\/documents\?token=[A-Za-z0-9_-]{43}/);
    expectNoStrangerLinks(mail!.text);
    // No injected line: the same lines as a mail to an ordinary name, and the greeting is one line.
    const lines = mail!.text.split("\n");
    expect(lines).toHaveLength(reference!.text.split("\n").length);
    expect(lines.filter((line) => line.startsWith("Your account"))).toEqual([]);
    expect(lines[0]).toMatch(/^Dear Support Team Your account is locked:?,$/);
    // The stored request keeps what was typed (admins see it as it is).
    expect(accessRequestByEmail("victim@example.test", "fund-ii")?.name).toBe(PHISHING_NAME);
  });

  it.each(HOSTILE)("the name %j reaches the mail without anything link-like", async (name) => {
    const email = `target-${Math.random().toString(36).slice(2)}@example.test`;
    expect((await registerFund({ name, email, fundId: "fund-ii", company: name, accreditedConfirmation: true })).status).toBe(201);
    const [mail] = mailsTo(email);
    expectNoStrangerLinks(mail!.text);
    expect(mail!.text.split("\n")[0]).toMatch(/^(Dear [^\n]{1,80}|Hello),$/);
  });

  it("the 'withdrawn' mail to a revoked address names the holder on one line, without links", async () => {
    expect((await registerFund({ name: PHISHING_NAME, email: "victim@example.test", fundId: "fund-ii", accreditedConfirmation: true })).status).toBe(201);
    const admin = await insertAdmin({ email: "admin@lumenridge.example" });
    revokeFundAccess(admin, accessRequestByEmail("victim@example.test", "fund-ii")!.id);
    expect((await registerFund({ name: "Someone", email: "victim@example.test", fundId: "fund-ii", accreditedConfirmation: true })).status).toBe(201);
    const mails = mailsTo("victim@example.test");
    expect(mails).toHaveLength(2);
    expect(mails[1]!.text).toContain("has been withdrawn");
    expectNoStrangerLinks(mails[1]!.text);
  });
});

describe("the pitch acknowledgement (to the founder's typed address)", () => {
  const hostilePitch = () =>
    PitchInput.parse(
      validPitch({
        name: PHISHING_NAME,
        email: "victim@example.test",
        company: "Acme\nVerify your account at www.evil.example",
        deckUrl: "https://evil.example/deck.pdf",
        message: "Dear customer,\nyour mailbox is full. Log in at https://evil.example/m or evil.example/mail to keep it.",
      }),
    );

  it("says the pitch was received and when to expect an answer; no name, company, message or deck link carries a line or a link", () => {
    submitPitch(PitchInput.parse(validPitch({ email: "ada@analytical.example" })));
    submitPitch(hostilePitch());
    const [reference] = mailsTo("ada@analytical.example");
    const [ack] = mailsTo("victim@example.test");
    expect(ack!.subject).toBe("We received your pitch - Lumen Ridge Ventures");
    expectNoStrangerLinks(ack!.text);
    expect(ack!.text).not.toContain("mailbox");
    expect(ack!.text).not.toContain("deck.pdf");
    expect(ack!.text).toContain("5 business days");
    expect(ack!.text).toContain("Acme Verify your account at");
    expect(ack!.text.split("\n")).toHaveLength(reference!.text.split("\n").length);
  });

  it("the firm's inbox still gets the whole pitch, but a name or company cannot add a line of its own", () => {
    submitPitch(hostilePitch());
    const [toFirm] = mailsTo(TEST_FIRM_INBOX);
    expect(toFirm!.text).toContain("https://evil.example/deck.pdf");
    expect(toFirm!.text).toContain("your mailbox is full. Log in at https://evil.example/m");
    const lines = toFirm!.text.split("\n");
    expect(lines.find((l) => l.startsWith("Founder: "))).toBe("Founder: Support Team Your account is locked: https://evil.example/x <victim@example.test>");
    expect(lines.find((l) => l.startsWith("Company: "))).toBe("Company: Acme Verify your account at www.evil.example");
    expect(lines.filter((l) => l.startsWith("Your account") || l.startsWith("Verify"))).toEqual([]);
  });

  it("the daily summary to the firm's inbox keeps the company and founder as typed, each on its entry's line", () => {
    const pitch = {
      company: "Acme\nVerify your account at www.evil.example",
      founder: PHISHING_NAME,
      email: "victim@example.test",
      owner: null,
      dueDay: "Nov 30, 2026",
      url: "http://localhost:3000/admin/pitches/1",
    };
    const { text } = pitchSummaryMail({ pitches: [pitch], total: 1 }, { pitches: [], total: 0 }, "http://localhost:3000");
    const lines = text.split("\n");
    expect(lines).toContain(
      "- Acme Verify your account at www.evil.example, from Support Team Your account is locked: https://evil.example/x <victim@example.test>",
    );
    expect(lines.filter((l) => l.startsWith("Your account") || l.startsWith("Verify"))).toEqual([]);
  });

  it("a reply template filled from the pitch has the founder and company on one line, without links", () => {
    for (const key of PITCH_TEMPLATE_KEYS) {
      const filled = fillPitchTemplate(key, { name: PHISHING_NAME, company: "Acme www.evil.example" });
      expectNoStrangerLinks(filled.subject);
      expectNoStrangerLinks(filled.body);
      expect(filled.body.split("\n")[0]).toBe("Dear Support Team Your account is locked:,");
    }
  });
});

describe("account mails (the address of a registration nobody proved)", () => {
  it("'already registered', the reset link and the approval name the account holder on one line, without links", async () => {
    const admin = await insertAdmin({ email: "admin@lumenridge.example" });
    const input = RegisterInput.parse({ email: "victim@example.test", password: "a long enough password", name: PHISHING_NAME, company: "evil.example" });
    await registerInvestor(input);
    await registerInvestor(input);
    requestPasswordReset({ email: "victim@example.test" });
    setUserStatus(admin, findUserByEmail("victim@example.test")!.id, "approved");
    const mails = mailsTo("victim@example.test");
    expect(mails.map((m) => m.subject)).toEqual([
      "Your Lumen Ridge Ventures investor portal account",
      "Reset your Lumen Ridge Ventures password",
      "Your Lumen Ridge Ventures investor portal access is approved",
    ]);
    for (const mail of mails) {
      expectNoStrangerLinks(mail.text);
      expect(mail.text.split("\n").filter((l) => l.startsWith("Your account is locked"))).toEqual([]);
    }
  });

  it("the admins' new-request mail keeps the name as typed, but on its own line, and no header line comes from it", async () => {
    await insertAdmin({ email: "admin@lumenridge.example" });
    await registerInvestor(RegisterInput.parse({ email: "victim@example.test", password: "a long enough password", name: PHISHING_NAME }));
    const [mail] = allOutbox().filter((m) => m.to === "admin@lumenridge.example");
    expect(mail!.subject).toBe("New investor access request: Support Team Your account is locked: https://evil.example/x");
    expect(mail!.text.split("\n")).toContain("Name: Support Team Your account is locked: https://evil.example/x");
    expect(mail!.text.split("\n").filter((l) => l.startsWith("Your account"))).toEqual([]);
  });

  it("security notices and document mails greet the account holder on one line, without links", () => {
    const user = { name: PHISHING_NAME };
    const doc = { title: "Q1 letter", category: "Reports", date: "Mar 5, 2026" };
    const texts = [
      securityMails.passwordChanged(user, "http://localhost:3000").text,
      securityMails.twoFactorEnabled(user, "http://localhost:3000").text,
      securityMails.recoveryCodeUsed(user, 3, "http://localhost:3000").text,
      accountMails.approved(user, "http://localhost:3000").text,
      documentMails.newDocument(user, doc, "http://localhost:3000").text,
      documentMails.digest(user, [doc], "http://localhost:3000").text,
      documentMails.reminder(user, doc, "http://localhost:3000").text,
    ];
    for (const text of texts) {
      expectNoStrangerLinks(text);
      expect(text.split("\n")[0]).toMatch(/^(Dear|Hello) Support Team Your account is locked:,$/);
    }
  });
});
