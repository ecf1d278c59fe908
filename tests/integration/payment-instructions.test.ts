import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { advanceClockForTests, now, resetClockForTests } from "~/modules/config/clock.server";
import { getDb } from "~/modules/db/connection.server";
import { fundBySlug } from "~/modules/funds/funds.server";
import { isValidIban, isValidRouting, readPaymentInstructions } from "~/modules/funds/payment-instructions.server";
import type { LpUser } from "~/modules/lp-users/lp-users.server";
import { totpCode } from "~/modules/two-factor/totp.server";
import { action as pageAction, loader as pageLoader } from "~/routes/admin/fund-payment-instructions";
import { action as commitmentsApi } from "~/routes/api/commitments";
import { action as entitiesApi } from "~/routes/api/entities";
import { action as draftApi } from "~/routes/api/ledger-entries";
import { action as publishApi } from "~/routes/api/ledger-publish";
import { loader as noticeLoader } from "~/routes/lp/notice";
import { auditEvents, emailOutbox } from "../../db/schema";
import { testTotpSecret } from "../support/totp";
import { expectData, expectRedirect, formRequest } from "../helpers/http";
import { apiRequest, callRouteWith, insertAdmin, insertUser, mailsTo, ORIGIN, sessionCookieFor } from "../helpers/users";

/**
 * A fund's payment instructions (issue 24 §6) on
 * /admin/funds/{slug}/payment-instructions, against a real SQLite file: a
 * change needs a fresh two-factor code in the same form (missing, wrong,
 * replayed or a recovery code: refused at the code field), is audited with
 * the account number masked, and is mailed to every admin without the
 * details; an investor's call notice shows them, its mail never does.
 */

const STEP = 30_000;
const PAGE = "/admin/funds/fund-ii/payment-instructions";
const DETAILS = {
  beneficiary: "Deeptech Fund II LP",
  bankName: "UBS Switzerland AG",
  bankAddress: "Bahnhofstrasse 45, 8001 Zurich",
  account: "CH93 0076 2011 6238 5295 7",
  swift: "ubswchzh80a",
  routing: "",
  reference: "Deeptech Fund II capital call",
};
const IBAN = "CH9300762011623852957";

let admin: LpUser;
let colleague: LpUser;
let owner: LpUser;
const cookies = { admin: "", owner: "" };

beforeAll(async () => {
  admin = await insertAdmin({ name: "Ada Admin" });
  colleague = await insertAdmin({ name: "Carl Colleague" });
  owner = await insertUser({ status: "approved", name: "Olivia Owner" });
  cookies.admin = await sessionCookieFor(admin);
  cookies.owner = await sessionCookieFor(owner);
});
afterAll(() => resetClockForTests());

/** The admin's code for the current step, after moving the clock to a step no code was used in. */
function freshCode(): string {
  advanceClockForTests(STEP);
  return totpCode(testTotpSecret(admin.email), now().getTime());
}

type Answer = { status: string; toast: { title: string; description?: string } | null; fields?: Record<string, string[]>; values?: Record<string, string> };

async function submit(fields: Record<string, string>, { enhanced = true } = {}) {
  const request = formRequest(PAGE, { intent: "payment-instructions", ...fields, ...(enhanced ? { _enhanced: "1" } : {}) });
  request.headers.set("Cookie", cookies.admin);
  return callRouteWith(pageAction as never, request, { params: { slug: "fund-ii" } });
}

const stored = () => readPaymentInstructions(fundBySlug("fund-ii").paymentInstructions);
const changeEvents = () => getDb().select().from(auditEvents).where(eq(auditEvents.event, "fund.payment_instructions_changed")).all();
const changeMails = () => getDb().select().from(emailOutbox).where(eq(emailOutbox.subject, "Payment instructions changed: Deeptech Fund II")).all();

describe("changing a fund's payment instructions", () => {
  it("checks an IBAN's and a routing number's check digits", () => {
    expect(isValidIban(IBAN)).toBe(true);
    expect(isValidIban("CH9400762011623852957")).toBe(false);
    expect(isValidRouting("021000021")).toBe(true);
    expect(isValidRouting("021000022")).toBe(false);
  });

  it("refuses a missing, wrong or recovery code at the code field, and bad details at theirs, saving nothing", async () => {
    const missing = expectData<Answer>(await submit({ ...DETAILS }));
    expect(missing.status).toBe(400);
    expect(missing.data.fields).toEqual({ code: ["Enter the 6-digit code from your authenticator app"] });
    // What was typed comes back, never the code.
    expect(missing.data.values).toMatchObject({ beneficiary: DETAILS.beneficiary, account: DETAILS.account });
    expect(missing.data.values).not.toHaveProperty("code");

    const wrong = expectData<Answer>(await submit({ ...DETAILS, code: "000000" }));
    expect([wrong.status, wrong.data.fields]).toEqual([401, { code: ["Invalid two-factor code"] }]);
    const recovery = expectData<Answer>(await submit({ ...DETAILS, code: "abcde-fghjk" }));
    expect([recovery.status, recovery.data.fields]).toEqual([401, { code: ["Invalid two-factor code"] }]);

    // Bad details are answered before the code is checked: the code is not spent.
    const code = freshCode();
    const bad = expectData<Answer>(await submit({ ...DETAILS, account: "CH94 0076 2011 6238 5295 7", swift: "UBS", routing: "12345", beneficiary: "Line\nbreak", code }));
    expect(bad.status).toBe(400);
    expect(bad.data.fields).toEqual({
      beneficiary: ["Use one line, without control characters"],
      account: ["This IBAN is not valid: check it for a typing error"],
      swift: ["Enter a SWIFT / BIC code of 8 or 11 letters and digits"],
      routing: ["Enter a 9-digit ABA routing number, or leave it empty"],
    });
    expect(stored()).toBeNull();
    expect(changeEvents()).toEqual([]);

    const saved = expectData<Answer>(await submit({ ...DETAILS, code }));
    expect(saved.status).toBe(200);
    expect(saved.data.toast).toMatchObject({ title: "Payment instructions saved" });

    // The same code again (a replay) is refused, and the refusal is audited.
    const replay = expectData<Answer>(await submit({ ...DETAILS, bankName: "Other Bank AG", code }));
    expect([replay.status, replay.data.fields]).toEqual([401, { code: ["Invalid two-factor code"] }]);
    const failures = getDb()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.event, "auth.two_factor_failed"), eq(auditEvents.targetId, admin.id)))
      .all()
      .map((row) => (JSON.parse(row.details!) as { reason: string }).reason);
    // The wrong code, the recovery code and the replay: each audited (a replayed step reads as a wrong code).
    expect(failures).toEqual(["wrong code", "wrong code", "wrong code"]);
    expect(stored()?.bankName).toBe("UBS Switzerland AG");
  });

  it("saves them normalised, audits the change with the account masked, and mails every admin without the details", () => {
    expect(stored()).toMatchObject({
      beneficiary: "Deeptech Fund II LP",
      account: IBAN,
      swift: "UBSWCHZH80A",
      routing: null,
      changedBy: { id: admin.id, email: admin.email, name: "Ada Admin" },
    });
    const [event, ...more] = changeEvents();
    expect(more).toEqual([]);
    expect(event).toMatchObject({ actorId: admin.id, targetType: "fund", targetLabel: "Deeptech Fund II" });
    const details = JSON.parse(event!.details!) as Record<string, unknown>;
    expect(details).toMatchObject({
      fund: "fund-ii",
      changed: ["beneficiary", "bankName", "bankAddress", "account", "swift", "reference"],
      from: { account: null },
      to: { account: "…2957", swift: "UBSWCHZH80A" },
    });
    expect(event!.details).not.toContain("62385295");

    const mails = changeMails();
    expect(mails.map((mail) => mail.to).sort()).toEqual([admin.email, colleague.email].sort());
    for (const mail of mails) {
      expect(mail.text).toContain("The payment instructions (bank details) of Deeptech Fund II were changed on");
      expect(mail.text).toContain(`Changed by: Ada Admin (${admin.email})`);
      expect(mail.text).toContain("What changed: Beneficiary, Bank, Bank address, IBAN or account number, SWIFT / BIC and Payment reference");
      expect(mail.text).toContain(`${ORIGIN}${PAGE}`);
      for (const detail of ["6238", "UBSW", "Bahnhofstrasse", "Deeptech Fund II LP", "UBS Switzerland"]) expect(mail.text).not.toContain(detail);
    }
  });

  it("says 'Nothing changed' for the same details (another spacing aside) and writes nothing; without JavaScript a change is a 303 back", async () => {
    const same = expectData<Answer>(await submit({ ...DETAILS, account: IBAN.toLowerCase(), code: freshCode() }));
    expect([same.status, same.data.toast?.title]).toEqual([200, "Nothing changed"]);
    expect(changeEvents()).toHaveLength(1);
    expect(changeMails()).toHaveLength(2);

    const plain = expectRedirect(await submit({ ...DETAILS, routing: "021 000 021", code: freshCode() }, { enhanced: false }));
    expect(plain).toMatchObject({ status: 303, location: PAGE });
    expect(stored()?.routing).toBe("021000021");
    const second = JSON.parse(changeEvents()[1]!.details!) as Record<string, unknown>;
    expect(second).toMatchObject({ changed: ["routing"], from: { routing: null }, to: { routing: "021000021" } });
    expect(changeMails()).toHaveLength(4);

    const page = (await callRouteWith(pageLoader as never, new Request(ORIGIN + PAGE, { headers: { Cookie: cookies.admin } }), { params: { slug: "fund-ii" } })) as unknown as {
      lines: { key: string; value: string }[];
      lastChanged: string;
    };
    expect(page.lines.find((line) => line.key === "account")?.value).toBe("CH93 0076 2011 6238 5295 7");
    expect(page.lastChanged).toMatch(/^Last changed .* UTC by Ada Admin/);
  });
});

describe("a call notice", () => {
  it("shows the payment instructions on the notice page, and its mail never carries them", async () => {
    const post = (fn: unknown, path: string, json: unknown, params: Record<string, string> = {}) =>
      callRouteWith(fn as never, apiRequest("POST", path, { cookie: cookies.admin, json }), { params });
    const entity = (await (await post(entitiesApi, "/api/entities", { name: "Atlas Holdings AG", kind: "company", members: [{ userId: owner.id, role: "owner" }] })).json()) as { id: string };
    expect((await post(commitmentsApi, "/api/commitments", { entityId: entity.id, fund: "fund-ii", amount: "1000000.00", acceptedOn: "2024-01-15" })).status).toBe(201);
    const draft = (await (await post(draftApi, "/api/capital-calls", { fund: "fund-ii", noticeDate: "2024-03-01", dueDate: "2024-03-29", lines: [{ type: "investment", amount: "250000.00" }] })).json()) as { id: string };
    expect((await post(publishApi, `/api/capital-calls/${draft.id}/publish`, undefined, { id: draft.id })).status).toBe(200);

    const [mail, ...others] = mailsTo(owner.email);
    expect(others).toEqual([]);
    expect(mail!.text).toContain(`/lp/notices/${draft.id}`);
    for (const detail of [IBAN, "CH93 0076", "6238", "UBSWCHZH80A", "021000021", "UBS Switzerland"]) expect(mail!.text).not.toContain(detail);

    const notice = (await callRouteWith(noticeLoader as never, new Request(`${ORIGIN}/lp/notices/${draft.id}`, { headers: { Cookie: cookies.owner } }), { params: { id: draft.id } })) as unknown as {
      instructions: { key: string; label: string; value: string }[];
    };
    expect(Object.fromEntries(notice.instructions.map((line) => [line.label, line.value]))).toEqual({
      Beneficiary: "Deeptech Fund II LP",
      Bank: "UBS Switzerland AG",
      "Bank address": "Bahnhofstrasse 45, 8001 Zurich",
      "IBAN or account number": "CH93 0076 2011 6238 5295 7",
      "SWIFT / BIC": "UBSWCHZH80A",
      "ABA routing number": "021000021",
      "Payment reference": "Deeptech Fund II capital call",
    });
  });
});
