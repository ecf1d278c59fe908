import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { createCommitment } from "~/modules/commitments/commitments.server";
import { getDb } from "~/modules/db/connection.server";
import { createEntity } from "~/modules/entities/entities.server";
import { draftCall, draftDistribution, publishEntry, readCall, readEntry, recordPayment, redraftEntry } from "~/modules/ledger/ledger.server";
import type { LpUser } from "~/modules/lp-users/lp-users.server";
import { action as changeAction, loader as changeLoader } from "~/routes/admin/ledger-change";
import { action as entryAction, loader as entryLoader } from "~/routes/admin/ledger-entry";
import { action as newAction, loader as newLoader } from "~/routes/admin/ledger-new";
import { auditEvents, emailOutbox } from "../../db/schema";
import { expectData, expectRedirect, formRequest } from "../helpers/http";
import { callRouteWith, insertAdmin, insertUser, sessionCookieFor } from "../helpers/users";

/**
 * The admin's ledger pages (issue 24 §4–5, §9) and changing a draft
 * (redraftEntry), against a real SQLite file: the new-entry form adds and
 * removes lines without JavaScript (the form answered again, as typed), its
 * refusals land under the line they belong to, "Preview the allocation"
 * drafts and opens the entry's page; that page publishes, deletes a draft and
 * records payments, each with its message at the field.
 */

let admin: LpUser;
let owner: LpUser;
let cookie = "";
const ids = { alder: "", birch: "" };

beforeAll(async () => {
  admin = await insertAdmin();
  owner = await insertUser({ status: "approved", name: "Olga Owner" });
  cookie = await sessionCookieFor(admin);
  ids.alder = createEntity(admin, { name: "Alder Holdings AG", kind: "company", members: [{ userId: owner.id, role: "owner" }] }).id;
  ids.birch = createEntity(admin, { name: "Birch Family Trust", kind: "trust", members: [{ userId: owner.id, role: "owner" }] }).id;
  // 1 : 3 in Fund II from 2024; Fund I has no commitment at all.
  createCommitment(admin, { entityId: ids.alder, fund: "fund-ii", amount: "1000000.00", acceptedOn: "2024-01-15" });
  createCommitment(admin, { entityId: ids.birch, fund: "fund-ii", amount: "3000000.00", acceptedOn: "2024-01-15" });
});

type FormAnswer = {
  status: "success" | "error";
  intent?: string;
  nonce: string;
  focus?: number;
  fields?: Record<string, string[]>;
  form: { noticeDate: string; dueDate: string; paymentDate: string; correctionOf: string; lines: { type: string; amount: string; description: string; recallable: boolean }[] };
};
type EntryAnswer = { status: "success" | "error"; intent?: string; formKey?: string; fields?: Record<string, string[]>; values?: Record<string, string>; toast: { title: string; description?: string } | null };

function adminForm(path: string, fields: Record<string, string>) {
  const request = formRequest(path, fields);
  request.headers.set("Cookie", cookie);
  return request;
}

const newCallPath = "/admin/funds/fund-ii/calls/new";
const postNew = (fields: Record<string, string>, path = newCallPath, slug = "fund-ii") => callRouteWith(newAction as never, adminForm(path, fields), { params: { slug } });
const postEntry = (id: string, fields: Record<string, string>) => callRouteWith(entryAction as never, adminForm(`/admin/ledger/${id}`, fields), { params: { id } });
const readLoader = async <T,>(fn: unknown, path: string, params: Record<string, string>) => (await callRouteWith(fn as never, new Request(`http://localhost:3000${path}`, { headers: { Cookie: cookie } }), { params })) as unknown as T;

/** The fields of a call form with these lines (`[type, amount, description?]`). */
function callFields(lines: [string, string, string?][], extra: Record<string, string> = {}) {
  const fields: Record<string, string> = { noticeDate: "2024-03-01", dueDate: "2024-03-29", ...extra };
  lines.forEach(([type, amount, description], i) => {
    fields[`lines.${i}.type`] = type;
    fields[`lines.${i}.amount`] = amount;
    fields[`lines.${i}.description`] = description ?? "";
  });
  return fields;
}

function auditCount(event: string, targetId: string) {
  return getDb()
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.event, event), eq(auditEvents.targetId, targetId)))
    .all().length;
}

describe("redraftEntry", () => {
  it("replaces a draft's dates and lines, splits them again, and writes its audit row", () => {
    const draft = draftCall(admin, { fund: "fund-ii", noticeDate: "2024-03-01", dueDate: "2024-03-29", lines: [{ type: "investment", amount: "400.00" }] });
    const changed = redraftEntry(admin, draft.id, {
      kind: "call",
      input: {
        fund: "fund-ii",
        noticeDate: "2024-04-02",
        dueDate: "2024-04-05",
        lines: [
          { type: "management_fee", amount: "100.01", description: "Q2 fee" },
          { type: "investment", amount: "8000.00" },
        ],
      },
    });
    expect(changed).toMatchObject({ id: draft.id, status: "draft", noticeDate: "2024-04-02", dueDate: "2024-04-05", total: "8100.01", warnings: ["short_notice"] });
    expect(changed.lines).toEqual([
      { type: "management_fee", amount: "100.01", description: "Q2 fee" },
      { type: "investment", amount: "8000.00" },
    ]);
    // A quarter and three quarters of each line, to the cent (the odd cent to the larger commitment).
    expect(changed.allocations.map((a) => [a.entityName, a.lines.map((l) => l.amount)])).toEqual([
      ["Alder Holdings AG", ["25.00", "2000.00"]],
      ["Birch Family Trust", ["75.01", "6000.00"]],
    ]);
    expect(auditCount("capital_call.redrafted", draft.id)).toBe(1);
  });

  it("refuses a published entry (409), another fund, bad lines or a date with no commitments in force (400), and leaves the draft as it was", () => {
    const draft = draftDistribution(admin, { fund: "fund-ii", paymentDate: "2024-06-28", lines: [{ type: "income", amount: "40.00" }] });
    const attempt = (input: Partial<Parameters<typeof draftDistribution>[1]>) => {
      try {
        redraftEntry(admin, draft.id, { kind: "distribution", input: { fund: "fund-ii", paymentDate: "2024-06-28", lines: [{ type: "income", amount: "80.00" }], ...input } });
      } catch (error) {
        const e = error as { status: number; options: { fields?: Record<string, string[]> } };
        return [e.status, Object.keys(e.options.fields ?? {})];
      }
      return [200, []];
    };
    expect(attempt({ fund: "fund-i" })).toEqual([400, ["fund"]]);
    expect(attempt({ lines: [{ type: "income", amount: "8,00" }] })).toEqual([400, ["lines.0.amount"]]);
    expect(attempt({ lines: [{ type: "income", amount: "8.00", recallable: true }] })).toEqual([400, ["lines.0.recallable"]]);
    expect(attempt({ paymentDate: "2023-12-29" })).toEqual([400, ["fund"]]);
    // As a call, it is an unknown id.
    expect(() => redraftEntry(admin, draft.id, { kind: "call", input: { fund: "fund-ii", noticeDate: "2024-03-01", dueDate: "2024-03-29", lines: [{ type: "investment", amount: "1.00" }] } })).toThrow(
      expect.objectContaining({ status: 404 }),
    );
    expect(readEntry(draft.id)).toMatchObject({ paymentDate: "2024-06-28", total: "40.00" });
    expect(auditCount("distribution.redrafted", draft.id)).toBe(0);
    publishEntry(admin, draft.id, "distribution");
    expect(attempt({})).toEqual([409, []]);
    expect(readEntry(draft.id)).toMatchObject({ status: "published", total: "40.00" });
  });
});

describe("the new entry's form (no JavaScript needed)", () => {
  it("opens with today's dates and one line; an unknown fund is the not-found page", async () => {
    const page = await readLoader<{ kind: string; hasCommitments: boolean; initial: FormAnswer["form"]; fund: { currency: string } }>(newLoader, newCallPath, { slug: "fund-ii" });
    expect(page).toMatchObject({ kind: "call", hasCommitments: true, fund: { currency: "USD" } });
    expect(page.initial.lines).toEqual([{ type: "investment", amount: "", description: "", recallable: false }]);
    expect(page.initial.dueDate > page.initial.noticeDate).toBe(true);
    const distribution = await readLoader<{ kind: string; hasCommitments: boolean }>(newLoader, "/admin/funds/fund-i/distributions/new", { slug: "fund-i" });
    expect(distribution).toMatchObject({ kind: "distribution", hasCommitments: false });
    await expect(readLoader(newLoader, "/admin/funds/fund-x/calls/new", { slug: "fund-x" })).rejects.toMatchObject({ init: { status: 404 } });
  });

  it("adds a line keeping everything typed, and stops at 20", async () => {
    const added = expectData<FormAnswer>(await postNew({ ...callFields([["management_fee", "12.50", "Q1 fee"]]), intent: "add-line" }));
    expect(added.status).toBe(200);
    expect(added.data.form).toMatchObject({ noticeDate: "2024-03-01", dueDate: "2024-03-29" });
    expect(added.data.form.lines).toEqual([
      { type: "management_fee", amount: "12.50", description: "Q1 fee", recallable: false },
      { type: "investment", amount: "", description: "", recallable: false },
    ]);
    expect(added.data.focus).toBe(1);
    const twenty = Array.from({ length: 20 }, (): [string, string] => ["investment", "1.00"]);
    const full = expectData<FormAnswer>(await postNew({ ...callFields(twenty), intent: "add-line" }));
    expect(full.status).toBe(400);
    expect(full.data.fields).toEqual({ lines: ["At most 20 lines"] });
    expect(full.data.form.lines).toHaveLength(20);
  });

  it("removes the line whose Remove was pressed, the others kept in order", async () => {
    const removed = expectData<FormAnswer>(
      await postNew({
        ...callFields([
          ["investment", "1.00", "first"],
          ["fund_expenses", "2.00", "second"],
          ["other", "3.00", "third"],
        ]),
        intent: "remove-line-1",
      }),
    );
    expect(removed.data.form.lines.map((l) => l.description)).toEqual(["first", "third"]);
    expect(removed.data.focus).toBe(1);
    // The last line stays (a form has at least one).
    const last = expectData<FormAnswer>(await postNew({ ...callFields([["investment", "1.00"]]), intent: "remove-line-0" }));
    expect(last.data.form.lines).toHaveLength(1);
  });

  it("shows each refusal under its own line (blank lines left out), with what was typed", async () => {
    const refused = expectData<FormAnswer>(
      await postNew({
        ...callFields([
          ["investment", "1000.00"],
          ["investment", ""],
          ["management_fee", "12,50"],
        ]),
        intent: "preview",
      }),
    );
    expect(refused.status).toBe(400);
    expect(refused.data.fields).toEqual({ "lines.2.amount": ["Enter an amount like 250000.00"] });
    expect(refused.data.form.lines.map((l) => l.amount)).toEqual(["1000.00", "", "12,50"]);

    const dates = expectData<FormAnswer>(await postNew({ ...callFields([["investment", "1.00"]], { dueDate: "2024-02-01" }), intent: "preview" }));
    expect(dates.data.fields).toEqual({ dueDate: ["The due date must be on or after the notice date"] });
    const noDate = expectData<FormAnswer>(await postNew({ ...callFields([["investment", "1.00"]], { noticeDate: "" }), intent: "preview" }));
    expect(Object.keys(noDate.data.fields ?? {})).toEqual(["noticeDate"]);
  });

  it("refuses a call for a fund with no commitments in force, in words", async () => {
    const refused = expectData<FormAnswer>(await postNew({ ...callFields([["investment", "10.00"]]), intent: "preview" }, "/admin/funds/fund-i/calls/new", "fund-i"));
    expect(refused.status).toBe(400);
    expect(refused.data.fields).toEqual({ fund: ["This fund has no commitments in force on that date"] });
  });

  it("drafts a distribution with a recallable return of capital and goes to its page", async () => {
    const done = expectRedirect(
      await postNew(
        {
          paymentDate: "2024-09-30",
          "lines.0.type": "return_of_capital",
          "lines.0.amount": "400.00",
          "lines.0.recallable": "on",
          "lines.1.type": "income",
          "lines.1.amount": "100.00",
          intent: "preview",
        },
        "/admin/funds/fund-ii/distributions/new",
      ),
    );
    expect(done.status).toBe(303);
    const id = done.location.replace("/admin/ledger/", "");
    expect(readEntry(id)).toMatchObject({
      kind: "distribution",
      status: "draft",
      total: "500.00",
      lines: [
        { type: "return_of_capital", amount: "400.00", recallable: true },
        { type: "income", amount: "100.00", recallable: false },
      ],
    });
    // Recallable is for a return of capital only: the message is under that line's box.
    const refused = expectData<FormAnswer>(
      await postNew({ paymentDate: "2024-09-30", "lines.0.type": "income", "lines.0.amount": "1.00", "lines.0.recallable": "on", intent: "preview" }, "/admin/funds/fund-ii/distributions/new"),
    );
    expect(refused.data.fields).toEqual({ "lines.0.recallable": ["Only a return of capital can be recallable"] });
  });
});

describe("an entry's page", () => {
  type EntryPage = {
    published: boolean;
    title: string;
    shortNotice: string | null;
    allocation: { name: string; shares: string[]; total: string }[];
    payments: { entityId: string; name: string; due: string; received: string; outstanding: string; outstandingDecimal: string; stateLabel: string }[];
    figures: { label: string; value: string }[];
  };
  const open = (id: string) => readLoader<EntryPage>(entryLoader, `/admin/ledger/${id}`, { id });

  it("previews a draft per entity and publishes it after the confirm step: numbered, mailed once", async () => {
    const made = expectRedirect(
      await postNew({
        ...callFields([
          ["investment", "80000.00", "Qubitline seed"],
          ["management_fee", "20000.00"],
        ]),
        intent: "preview",
      }),
    );
    const id = made.location.replace("/admin/ledger/", "");
    const draft = await open(id);
    expect(draft).toMatchObject({ published: false, title: "Draft capital call", shortNotice: null });
    expect(draft.allocation).toEqual([
      { entityId: ids.alder, name: "Alder Holdings AG", shares: ["$20,000.00", "$5,000.00"], total: "$25,000.00" },
      { entityId: ids.birch, name: "Birch Family Trust", shares: ["$60,000.00", "$15,000.00"], total: "$75,000.00" },
    ]);
    const published = expectData<EntryAnswer>(await postEntry(id, { intent: "publish", _enhanced: "1" }));
    expect(published.status).toBe(200);
    expect(published.data.toast?.title).toMatch(/^Call \d+ published$/);
    const reference = readEntry(id).reference!;
    const mails = () => getDb().select().from(emailOutbox).where(eq(emailOutbox.subject, `Deeptech Fund II: ${reference} for Alder Holdings AG`)).all().length;
    expect(mails()).toBe(1);
    // Without JavaScript: back to the page (303); publishing again sends nothing.
    expect(expectRedirect(await postEntry(id, { intent: "publish" })).location).toBe(`/admin/ledger/${id}`);
    expect(mails()).toBe(1);
    const page = await open(id);
    expect(page).toMatchObject({ published: true, title: reference });
    expect(page.payments.map((p) => [p.name, p.due, p.outstandingDecimal, p.stateLabel])).toEqual([
      ["Alder Holdings AG", "$25,000.00", "25000.00", "Overdue"],
      ["Birch Family Trust", "$75,000.00", "75000.00", "Overdue"],
    ]);
  });

  it("warns when the due date is less than 10 business days after the notice", async () => {
    const draft = draftCall(admin, { fund: "fund-ii", noticeDate: "2024-03-01", dueDate: "2024-03-08", lines: [{ type: "investment", amount: "4.00" }] });
    expect((await open(draft.id)).shortNotice).toMatch(/^The due date is 5 business days after the notice date\. ILPA's best practice is at least 10/);
  });

  it("deletes a draft after the confirm step and goes to the fund's page; a published entry stays (409)", async () => {
    const draft = draftCall(admin, { fund: "fund-ii", noticeDate: "2024-03-01", dueDate: "2024-03-29", lines: [{ type: "investment", amount: "4.00" }] });
    const gone = expectRedirect(await postEntry(draft.id, { intent: "delete-draft" }));
    expect(gone).toMatchObject({ status: 303, location: "/admin/funds/fund-ii" });
    await expect(open(draft.id)).rejects.toMatchObject({ init: { status: 404 } });
    expect(auditCount("capital_call.draft_deleted", draft.id)).toBe(1);

    const published = draftCall(admin, { fund: "fund-ii", noticeDate: "2024-03-01", dueDate: "2024-03-29", lines: [{ type: "investment", amount: "4.00" }] });
    publishEntry(admin, published.id, "call");
    const refused = expectData<EntryAnswer>(await postEntry(published.id, { intent: "delete-draft" }));
    expect(refused.status).toBe(409);
    expect(refused.data.fields).toEqual({ form: ["A published entry is never changed: correct it with a new entry"] });
  });

  it("records a payment from the row's form; an amount above what is due or a date before the notice is refused at its field", async () => {
    const call = draftCall(admin, { fund: "fund-ii", noticeDate: "2024-05-02", dueDate: "2024-05-31", lines: [{ type: "investment", amount: "40000.00" }] });
    const draftPayment = expectData<EntryAnswer>(await postEntry(call.id, { intent: "record-payment", entityId: ids.alder, amount: "1.00", receivedOn: "2024-05-10" }));
    expect(draftPayment.status).toBe(409);
    publishEntry(admin, call.id, "call");

    const over = expectData<EntryAnswer>(await postEntry(call.id, { intent: "record-payment", entityId: ids.alder, amount: "10000.01", receivedOn: "2024-05-10" }));
    expect(over.status).toBe(400);
    expect(over.data).toMatchObject({ formKey: ids.alder, fields: { amount: ["More than the 10000.00 still due"] }, values: { amount: "10000.01", receivedOn: "2024-05-10" } });
    const early = expectData<EntryAnswer>(await postEntry(call.id, { intent: "record-payment", entityId: ids.alder, amount: "1.00", receivedOn: "2024-05-01" }));
    expect(early.data.fields).toEqual({ receivedOn: ["A payment cannot be dated before the call's notice date"] });

    const paid = expectRedirect(await postEntry(call.id, { intent: "record-payment", entityId: ids.alder, amount: "4000.00", receivedOn: "2024-05-10" }));
    expect(paid).toMatchObject({ status: 303, location: `/admin/ledger/${call.id}` });
    const page = await open(call.id);
    expect(page.payments.find((p) => p.entityId === ids.alder)).toMatchObject({ received: "$4,000.00", outstanding: "$6,000.00", outstandingDecimal: "6000.00", stateLabel: "Overdue" });
    expect(Object.fromEntries(page.figures.map((f) => [f.label, f.value]))).toMatchObject({ "Total called": "$40,000.00", Received: "$4,000.00", Outstanding: "$36,000.00", "Paid in full": "0 of 2" });
    recordPayment(admin, call.id, { entityId: ids.alder, amount: "6000.00", receivedOn: "2024-05-20" });
    expect((await open(call.id)).payments.find((p) => p.entityId === ids.alder)).toMatchObject({ outstandingDecimal: "", stateLabel: "Paid" });
    expect(readCall(call.id).entities.find((e) => e.entityId === ids.alder)?.state).toBe("paid");
  });

  it("a correction: the new form names the published entry and drafts with correctionOf", async () => {
    const original = draftCall(admin, { fund: "fund-ii", noticeDate: "2024-07-01", dueDate: "2024-07-31", lines: [{ type: "investment", amount: "100.00" }] });
    publishEntry(admin, original.id, "call");
    const reference = readEntry(original.id).reference!;
    const page = await readLoader<{ correction: { reference: string } | null; initial: { correctionOf: string } }>(newLoader, `${newCallPath}?correctionOf=${original.id}`, { slug: "fund-ii" });
    expect(page.correction?.reference).toBe(reference);
    expect(page.initial.correctionOf).toBe(original.id);
    const done = expectRedirect(await postNew({ ...callFields([["investment", "10.00"]]), correctionOf: original.id, intent: "preview" }));
    expect(readEntry(done.location.replace("/admin/ledger/", "")).correctionOf).toBe(original.id);
  });
});

describe("a draft's change page", () => {
  it("opens filled in from the draft, saves through redraftEntry; a published entry goes back to its page", async () => {
    const draft = draftCall(admin, { fund: "fund-ii", noticeDate: "2024-08-01", dueDate: "2024-08-30", lines: [{ type: "fund_expenses", amount: "300.00", description: "Audit" }] });
    const page = await readLoader<{ initial: FormAnswer["form"] }>(changeLoader, `/admin/ledger/${draft.id}/change`, { id: draft.id });
    expect(page.initial).toMatchObject({ noticeDate: "2024-08-01", dueDate: "2024-08-30", lines: [{ type: "fund_expenses", amount: "300.00", description: "Audit", recallable: false }] });
    const post = (fields: Record<string, string>) => callRouteWith(changeAction as never, adminForm(`/admin/ledger/${draft.id}/change`, fields), { params: { id: draft.id } });
    const added = expectData<FormAnswer>(await post({ ...callFields([["fund_expenses", "300.00", "Audit"]]), intent: "add-line" }));
    expect(added.data.form.lines).toHaveLength(2);
    const saved = expectRedirect(
      await post({
        ...callFields([
          ["fund_expenses", "300.00", "Audit"],
          ["other", "100.00", ""],
        ]),
        intent: "preview",
      }),
    );
    expect(saved.location).toBe(`/admin/ledger/${draft.id}`);
    expect(readEntry(draft.id)).toMatchObject({ noticeDate: "2024-03-01", total: "400.00" });
    publishEntry(admin, draft.id, "call");
    await expect(readLoader(changeLoader, `/admin/ledger/${draft.id}/change`, { id: draft.id })).rejects.toMatchObject({ status: 303 });
    const refused = await post({ ...callFields([["other", "1.00"]]), intent: "preview" }).catch((thrown: unknown) => thrown);
    expect(expectRedirect(refused).location).toBe(`/admin/ledger/${draft.id}`);
    expect(readEntry(draft.id).total).toBe("400.00");
  });
});

describe("the entity's page", () => {
  it("lists the entity's newest shares, payments and valuations, each call linking to its admin page", async () => {
    const { loader: entityLoader } = await import("~/routes/admin/entity");
    const call = draftCall(admin, { fund: "fund-ii", noticeDate: "2024-09-02", dueDate: "2024-09-30", lines: [{ type: "management_fee", amount: "8000.00" }] });
    publishEntry(admin, call.id, "call");
    recordPayment(admin, call.id, { entityId: ids.alder, amount: "2000.00", receivedOn: "2024-09-20" });
    type EntityPage = { transactions: { date: string; kind: string; entity: string; reference: string; notice: string | null; amount: string }[] };
    const page = await readLoader<EntityPage>(entityLoader, `/admin/entities/${ids.alder}`, { id: ids.alder });
    const reference = readEntry(call.id).reference!;
    // Newest first: the payment of 20 September, then the call's share (1 : 3 of 8,000.00) of 2 September.
    expect(page.transactions.slice(0, 2)).toEqual([
      expect.objectContaining({ date: "Sep 20, 2024", kind: "Payment received", reference, notice: call.id, amount: "$2,000.00" }),
      expect.objectContaining({ date: "Sep 02, 2024", kind: "Capital call: Management fee", reference, notice: call.id, amount: "$2,000.00" }),
    ]);
    // Birch's shares are on its own page, not Alder's.
    expect(new Set(page.transactions.map((t) => t.entity))).toEqual(new Set(["Alder Holdings AG"]));
  });
});
