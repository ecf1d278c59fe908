import { eq, gt, max } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { getDb } from "../../app/modules/db/connection.server";
import { auditEvents, pitchEvents, pitchSubmissions } from "../../db/schema";
import { waitingCounts } from "~/modules/admin/overview.server";
import { dueAtFor, endOfFirmDay, firmDay } from "~/modules/pitch-clock/clock.server";
import { flushMailer } from "~/modules/mail/mail.server";
import { pitchCsvHeaders } from "~/content/pitch-inbox";
import { csvRecord } from "~/modules/export/csv";
import { pitchCsvCells } from "~/modules/pitch-inbox/export.server";
import {
  addPitchNote,
  clockText,
  exportPitches,
  listPitchAdmins,
  listPitches,
  pitchClockCounts,
  pitchTimeline,
  sendPitchReply,
  updatePitch,
} from "~/modules/pitch-inbox/inbox.server";
import { PitchFilters } from "~/modules/pitch-inbox/schema";
import type { LpUser } from "~/modules/lp-users/lp-users.server";
import { action as pitchPageAction, loader as pitchPageLoader } from "~/routes/admin/pitch";
import { loader as pitchListLoader } from "~/routes/admin/pitches";
import { loader as exportLoader } from "~/routes/admin/pitches-export";
import { loader as listApi } from "~/routes/api/pitches/index";
import { action as patchApi } from "~/routes/api/pitches/pitch";
import { action as repliesApi } from "~/routes/api/pitches/replies";
import { expectData, expectRedirect } from "../helpers/http";
import { TEST_FIRM_INBOX } from "../helpers/test-env";
import { apiRequest, callRouteWith, clearAccountTables, insertAdmin, insertUser, mailsTo, ORIGIN, sessionCookieFor } from "../helpers/users";

const DAY = 24 * 60 * 60 * 1000;

let admin: LpUser;
let other: LpUser;
let adminCookie: string;
let investorCookie: string;
let auditFrom = 0;

beforeEach(async () => {
  clearAccountTables();
  const db = getDb();
  db.delete(pitchEvents).run();
  db.delete(pitchSubmissions).run();
  // The trail refuses deletes: remember where this test's rows start.
  auditFrom = db.select({ n: max(auditEvents.id) }).from(auditEvents).get()?.n ?? 0;
  vi.spyOn(console, "log").mockImplementation(() => {});
  admin = await insertAdmin({ name: "Ada Admin", email: "ada-admin@lumenridge.example" });
  other = await insertAdmin({ name: "Ben Admin", email: "ben-admin@lumenridge.example" });
  adminCookie = await sessionCookieFor(admin);
  investorCookie = await sessionCookieFor(await insertUser({ status: "approved" }));
});
afterEach(async () => {
  await flushMailer();
  vi.restoreAllMocks();
});

let seq = 0;
/** A pitch submitted `daysAgo` days ago (its due time from the clock), with overrides. */
function insertPitch(overrides: Partial<typeof pitchSubmissions.$inferInsert> & { daysAgo?: number } = {}) {
  const { daysAgo = 0, ...fields } = overrides;
  seq++;
  const createdAt = new Date(Date.now() - daysAgo * DAY - seq);
  return getDb()
    .insert(pitchSubmissions)
    .values({
      name: `Founder ${seq}`,
      email: `founder-${seq}@startup.example`,
      company: `Company ${seq}`,
      stage: "Seed",
      message: "We build things.",
      createdAt,
      dueAt: dueAtFor(createdAt),
      ...fields,
    })
    .returning()
    .get();
}

const filters = (input: Record<string, string> = {}) => PitchFilters.parse(input);
const ids = (page: { pitches: { id: string }[] }) => page.pitches.map((p) => p.id);
const auditNames = () =>
  getDb()
    .select()
    .from(auditEvents)
    .where(gt(auditEvents.id, auditFrom))
    .all()
    .map((row) => row.event)
    .filter((event) => event.startsWith("pitch."));

describe("listPitches", () => {
  it("lists newest first with the total, 25 a page", () => {
    const made = Array.from({ length: 27 }, (_, i) => insertPitch({ daysAgo: 27 - i }));
    const first = listPitches(filters());
    expect(first.total).toBe(27);
    expect(first.pageSize).toBe(25);
    expect(ids(first)).toEqual(made.slice(2).reverse().map((p) => p.id));
    const second = listPitches(filters({ page: "2" }));
    expect(ids(second)).toEqual([made[1]!.id, made[0]!.id]);
  });

  it("filters by status, stage, owner (or nobody), overdue and a search", () => {
    const reviewed = insertPitch({ status: "in_review", stage: "Series A", ownerId: admin.id, daysAgo: 1 });
    const old = insertPitch({ daysAgo: 30, company: "Quantum Lattice AG" });
    const answered = insertPitch({ daysAgo: 31, answeredAt: new Date(), email: "grace@hopper.example" });
    const fresh = insertPitch();
    expect(ids(listPitches(filters({ status: "in_review" })))).toEqual([reviewed.id]);
    expect(ids(listPitches(filters({ stage: "Series A" })))).toEqual([reviewed.id]);
    expect(ids(listPitches(filters({ owner: admin.id })))).toEqual([reviewed.id]);
    expect(ids(listPitches(filters({ owner: "none" })))).toEqual([fresh.id, old.id, answered.id]);
    // Overdue: unanswered and past due; the answered pitch, older still, is not.
    expect(ids(listPitches(filters({ overdue: "1" })))).toEqual([old.id]);
    expect(ids(listPitches(filters({ overdue: "true", status: "new" })))).toEqual([old.id]);
    expect(ids(listPitches(filters({ q: "lattice" })))).toEqual([old.id]);
    expect(ids(listPitches(filters({ q: "GRACE@HOPPER" })))).toEqual([answered.id]);
    expect(ids(listPitches(filters({ q: reviewed.name })))).toEqual([reviewed.id]);
    // LIKE's wildcards match themselves.
    expect(listPitches(filters({ q: "%" })).total).toBe(0);
  });

  it("refuses an owner that is not an admin, and bad parameters", async () => {
    const investor = await insertUser({ status: "approved" });
    expect(() => listPitches(filters({ owner: investor.id }))).toThrow(expect.objectContaining({ status: 400 }));
    for (const bad of [{ status: "open" }, { stage: "Series Z" }, { overdue: "yes" }, { page: "0" }, { page: "two" }, { q: "x".repeat(101) }]) {
      expect(PitchFilters.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });

  it("reads the first page and the overdue filter through their indexes", () => {
    const db = getDb().$client;
    const plan = (sql: string) => (db.prepare(`explain query plan ${sql}`).all() as { detail: string }[]).map((r) => r.detail).join(" | ");
    const now = Date.now();
    expect(plan("select id from pitch_submissions order by created_at desc, rowid desc limit 25")).toContain("pitch_submissions_created_at_idx");
    expect(
      plan(`select id from pitch_submissions where answered_at is null and due_at <= ${now} order by due_at desc, created_at desc, rowid desc limit 25`),
    ).toContain("pitch_submissions_open_due_idx");
    expect(plan(`select count(*) from pitch_submissions where answered_at is null and due_at <= ${now}`)).toContain("pitch_submissions_open_due_idx");
  });
});

describe("the clock's counts and texts", () => {
  it("counts pitches due within a business day or overdue, and the overdue ones", () => {
    insertPitch({ daysAgo: 30 });
    insertPitch({ daysAgo: 30, answeredAt: new Date() });
    insertPitch();
    const at = new Date();
    // Due at the end of today (the firm's day).
    const soon = insertPitch({ dueAt: endOfFirmDay(firmDay(at)) });
    expect(pitchClockCounts(undefined, at)).toEqual({ dueSoon: 2, overdue: 1 });
    expect(waitingCounts(undefined, at).pitchesDueSoon).toBe(2);
    expect(clockText(soon, at)).toBe("due today");
  });

  it("reads 'due in n business days', 'overdue by n business days' and 'answered on …'", () => {
    // Wednesday 25 November 2026, noon in Zurich.
    const at = new Date("2026-11-25T11:00:00Z");
    const submitted = dueAtFor(at);
    expect(clockText({ dueAt: submitted, answeredAt: null }, at)).toBe("due in 5 business days");
    expect(clockText({ dueAt: dueAtFor(new Date("2026-11-18T11:00:00Z")), answeredAt: null }, at)).toBe("due today");
    expect(clockText({ dueAt: dueAtFor(new Date("2026-11-17T11:00:00Z")), answeredAt: null }, at)).toBe("overdue by 1 business day");
    expect(clockText({ dueAt: submitted, answeredAt: new Date("2026-11-25T11:00:00Z") }, at)).toBe("answered on Nov 25, 2026");
  });
});

describe("status, owner and notes", () => {
  it("records each change in the timeline and the audit trail; any status move is allowed", () => {
    const pitch = insertPitch();
    updatePitch(admin, pitch.id, { status: "invested" });
    const back = updatePitch(admin, pitch.id, { status: "new", ownerId: other.id });
    expect(back).toMatchObject({ status: "new", ownerId: other.id });
    updatePitch(other, pitch.id, { ownerId: null });
    // Setting what is set records nothing.
    updatePitch(other, pitch.id, { status: "new" });
    addPitchNote(admin, pitch.id, "Strong team, early market.");
    const events = pitchTimeline(pitch.id).map((e) => [e.kind, e.actorEmail, e.fromValue, e.toValue, e.body]);
    expect(events).toEqual([
      ["status", admin.email, "new", "invested", null],
      ["status", admin.email, "invested", "new", null],
      ["owner", admin.email, null, other.id, null],
      ["owner", other.email, other.id, null, null],
      ["note", admin.email, null, null, "Strong team, early market."],
    ]);
    expect(auditNames()).toEqual(["pitch.status_changed", "pitch.status_changed", "pitch.owner_changed", "pitch.owner_changed", "pitch.note_added"]);
  });

  it("refuses an owner who is not an admin, nothing to change and an unknown pitch", async () => {
    const pitch = insertPitch();
    const investor = await insertUser({ status: "approved" });
    expect(() => updatePitch(admin, pitch.id, { ownerId: investor.id })).toThrow(
      expect.objectContaining({ status: 400, options: { fields: { ownerId: [expect.any(String)] } } }),
    );
    expect(() => updatePitch(admin, pitch.id, {})).toThrow(expect.objectContaining({ status: 400 }));
    expect(() => updatePitch(admin, "no-such-pitch", { status: "passed" })).toThrow(expect.objectContaining({ status: 404 }));
    expect(pitchTimeline(pitch.id)).toEqual([]);
  });

  it("lists every admin as a possible owner", () => {
    expect(listPitchAdmins().map((a) => a.name)).toEqual(["Ada Admin", "Ben Admin"]);
  });
});

describe("sendPitchReply", () => {
  it("queues the mail with Reply-To the firm's inbox, keeps it in the timeline and stops the clock once", () => {
    const pitch = insertPitch({ daysAgo: 30 });
    const { event, pitch: answered } = sendPitchReply(admin, pitch.id, { subject: "Your pitch", body: "Dear founder,\nthank you." });
    expect(answered.answeredAt).toBeInstanceOf(Date);
    const [mail] = mailsTo(pitch.email);
    expect(mail).toMatchObject({ subject: "Your pitch", text: "Dear founder,\nthank you." });
    expect(JSON.parse(mail!.headers ?? "{}")).toEqual({ "Reply-To": TEST_FIRM_INBOX });
    expect(pitchTimeline(pitch.id)).toEqual([expect.objectContaining({ id: event.id, kind: "reply", subject: "Your pitch", actorEmail: admin.email })]);
    const again = sendPitchReply(other, pitch.id, { subject: "More", body: "One more thing." });
    expect(again.pitch.answeredAt?.getTime()).toBe(answered.answeredAt?.getTime());
    expect(mailsTo(pitch.email)).toHaveLength(2);
    expect(listPitches(filters({ overdue: "1" })).total).toBe(0);
    expect(auditNames()).toEqual(["pitch.replied", "pitch.replied"]);
  });
});

describe("the CSV export", () => {
  it("is formula-safe, follows the filters and is recorded", () => {
    insertPitch({ company: "=HYPERLINK(\"http://evil\")", ownerId: admin.id });
    insertPitch({ status: "passed" });
    const rows = [...exportPitches(admin, filters({ status: "new" }))].flat();
    expect(rows).toHaveLength(1);
    const record = csvRecord(pitchCsvCells(listPitchAdmins(), new Date())(rows[0]!));
    expect(record).toContain(`,"'=HYPERLINK(""http://evil"")",`);
    expect(record).toContain("Ada Admin");
    expect(csvRecord(pitchCsvHeaders)).toContain("Submitted (UTC),Company,Founder");
    expect(auditNames()).toEqual(["pitch.exported"]);
  });

  it("answers the download to admins only", async () => {
    insertPitch();
    const get = (cookie?: string, query = "") => callRouteWith(exportLoader, apiRequest("GET", `/admin/pitches.csv${query}`, { cookie }));
    expect((await get()).status).toBe(401);
    expect((await get(investorCookie)).status).toBe(403);
    expect((await get(adminCookie, "?status=nope")).status).toBe(400);
    const response = await get(adminCookie);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect((await response.text()).split("\r\n").filter(Boolean)).toHaveLength(2);
  });
});

describe("JSON endpoints", () => {
  /** `cookie: null` sends no cookie; by default the admin's. */
  const list = (query = "", cookie: string | null = adminCookie) =>
    callRouteWith(listApi, apiRequest("GET", `/api/pitches${query}`, { cookie: cookie ?? undefined }));
  const patch = (id: string, json: unknown, cookie: string | undefined = adminCookie) =>
    callRouteWith(patchApi, apiRequest("PATCH", `/api/pitches/${id}`, { cookie, json }), { params: { id } });
  const reply = (id: string, json: unknown, cookie: string | undefined = adminCookie) =>
    callRouteWith(repliesApi, apiRequest("POST", `/api/pitches/${id}/replies`, { cookie, json }), { params: { id } });

  it("GET /api/pitches answers rows, page, pageSize and total; 401, 403 and 400 otherwise", async () => {
    const pitch = insertPitch({ daysAgo: 30 });
    expect((await list("", null)).status).toBe(401);
    expect((await list("", investorCookie)).status).toBe(403);
    const response = await list("?overdue=1&status=new");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      pitches: [
        {
          id: pitch.id,
          name: pitch.name,
          email: pitch.email,
          company: pitch.company,
          stage: "Seed",
          status: "new",
          ownerId: null,
          createdAt: pitch.createdAt.toISOString(),
          dueAt: pitch.dueAt.toISOString(),
          answeredAt: null,
        },
      ],
      page: 1,
      pageSize: 25,
      total: 1,
    });
    const bad = await list("?status=open&page=x");
    expect(bad.status).toBe(400);
    expect((await bad.json()) as { fields: Record<string, string[]> }).toMatchObject({ fields: { status: [expect.any(String)], page: [expect.any(String)] } });
    expect((await list("?owner=someone-else")).status).toBe(400);
  });

  it("PATCH /api/pitches/:id changes status and owner; 400 for a bad owner or empty body; 404 for an unknown id", async () => {
    const pitch = insertPitch();
    const changed = await patch(pitch.id, { status: "partner_call", ownerId: other.id });
    expect(changed.status).toBe(200);
    expect(await changed.json()).toMatchObject({ id: pitch.id, status: "partner_call", ownerId: other.id });
    expect(await (await patch(pitch.id, { ownerId: null })).json()).toMatchObject({ ownerId: null });
    const notAdmin = await patch(pitch.id, { ownerId: "not-an-admin" });
    expect(notAdmin.status).toBe(400);
    expect(await notAdmin.json()).toMatchObject({ fields: { ownerId: [expect.any(String)] } });
    expect((await patch(pitch.id, {})).status).toBe(400);
    expect((await patch(pitch.id, { status: "won" })).status).toBe(400);
    expect((await patch("no-such-pitch", { status: "passed" })).status).toBe(404);
    expect((await patch(pitch.id, { status: "passed" }, investorCookie)).status).toBe(403);
  });

  it("POST /api/pitches/:id/replies answers 201 with the reply; 400 for bad fields; 404 for an unknown id", async () => {
    const pitch = insertPitch();
    const created = await reply(pitch.id, { subject: "Thanks", body: "Dear founder" });
    expect(created.status).toBe(201);
    const body = (await created.json()) as Record<string, unknown>;
    expect(body).toEqual({ id: expect.any(Number), pitchId: pitch.id, subject: "Thanks", body: "Dear founder", sentAt: expect.any(String) });
    expect(getDb().select().from(pitchSubmissions).where(eq(pitchSubmissions.id, pitch.id)).get()?.answeredAt?.toISOString()).toBe(body.sentAt);
    const bad = await reply(pitch.id, { subject: "Two\nlines", body: "" });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ fields: { subject: [expect.any(String)], body: [expect.any(String)] } });
    expect((await reply(pitch.id, { subject: "x".repeat(201), body: "ok" })).status).toBe(400);
    expect((await reply(pitch.id, { subject: "ok", body: "x".repeat(10_001) })).status).toBe(400);
    expect((await reply("no-such-pitch", { subject: "ok", body: "ok" })).status).toBe(404);
    expect(mailsTo(pitch.email)).toHaveLength(1);
  });
});

describe("the pages", () => {
  const form = (id: string, fields: Record<string, string>) =>
    new Request(`${ORIGIN}/admin/pitches/${id}`, { method: "POST", headers: { Cookie: adminCookie }, body: new URLSearchParams(fields) });

  it("the list shows the clock and answers bad filters with 400", async () => {
    insertPitch({ daysAgo: 30, company: "Late Co", ownerId: other.id });
    const get = (query: string) => callRouteWith(pitchListLoader as never, apiRequest("GET", `/admin/pitches${query}`, { cookie: adminCookie }));
    const loaded = (await get("?overdue=1")) as unknown as { rows: { company: string; owner: string; clock: string }[]; total: number };
    expect(loaded.total).toBe(1);
    expect(loaded.rows[0]).toMatchObject({ company: "Late Co", owner: "Ben Admin", clock: expect.stringMatching(/^overdue by \d+ business days?$/) });
    const refused = expectData<{ errors: Record<string, string[]> }>(await get("?stage=Series+Z"));
    expect(refused.status).toBe(400);
    expect(refused.data.errors.stage).toHaveLength(1);
  });

  it("a plain form post changes the status and goes back with 303; a refused reply renders its messages", async () => {
    const pitch = insertPitch();
    const answer = await callRouteWith(pitchPageAction as never, form(pitch.id, { intent: "status", status: "in_review" }), { params: { id: pitch.id } });
    const done = expectRedirect(answer);
    expect(done.status).toBe(303);
    expect(done.location).toBe(`/admin/pitches/${pitch.id}`);
    const refused = expectData<{ status: string; fields: Record<string, string[]>; values: Record<string, string> }>(
      await callRouteWith(pitchPageAction as never, form(pitch.id, { intent: "reply", subject: "", body: "Typed text" }), { params: { id: pitch.id } }),
    );
    expect(refused.status).toBe(400);
    expect(refused.data.fields.subject).toHaveLength(1);
    expect(refused.data.values.body).toBe("Typed text");
    const enhanced = expectData<{ status: string }>(
      await callRouteWith(pitchPageAction as never, form(pitch.id, { intent: "note", note: "Looks promising", _enhanced: "1" }), { params: { id: pitch.id } }),
    );
    expect(enhanced.data.status).toBe("success");
    expect(pitchTimeline(pitch.id).map((e) => e.kind)).toEqual(["status", "note"]);
  });

  it("the pitch page fills the reply from a template", async () => {
    const pitch = insertPitch({ name: "Grace Hopper", company: "Compilers Inc" });
    const result = (await callRouteWith(
      pitchPageLoader as never,
      apiRequest("GET", `/admin/pitches/${pitch.id}?template=partner-call`, { cookie: adminCookie }),
      { params: { id: pitch.id } },
    )) as unknown as { prefill: { subject: string; body: string } };
    expect(result.prefill.subject).toBe("Compilers Inc: a call with Lumen Ridge Ventures");
    expect(result.prefill.body).toContain("Dear Grace Hopper,");
  });
});
