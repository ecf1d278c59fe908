import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../app/modules/db/connection.server";
import { auditEvents } from "../../db/schema";
import { listActivity } from "~/modules/audit/activity.server";
import { pruneAuditTrail } from "~/modules/audit/audit.server";
import { ActivityFilters } from "~/modules/audit/schema";
import type { LpUser } from "~/modules/lp-users/lp-users.server";
import { setUserStatus } from "~/modules/lp-users/lp-users.server";
import { loader as activityLoader } from "~/routes/admin/activity";
import { loader as exportLoader } from "~/routes/admin/activity-export";
import { expectData, expectRedirect } from "../helpers/http";
import { apiRequest, callRouteWith, clearAccountTables, insertAdmin, insertUser, sessionCookieFor } from "../helpers/users";

/**
 * The audit trail as the admins read it: the activity page's filters and
 * keyset pages, the CSV export, the append-only table and its retention.
 */

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 9, 15, 12, 0, 0); // Oct 15, 2026 12:00 UTC

type Row = typeof auditEvents.$inferInsert;

function insertRow(at: number, row: Partial<Row> = {}): number {
  return getDb()
    .insert(auditEvents)
    .values({ at: new Date(at), event: "auth.sign_in", details: "{}", ...row })
    .returning({ id: auditEvents.id })
    .get().id;
}

let admin: LpUser;
let adminCookie: string;
let investor: LpUser;

beforeAll(async () => {
  clearAccountTables();
  admin = await insertAdmin({ email: "audit-admin@lumenridge.example" });
  adminCookie = await sessionCookieFor(admin);
  investor = await insertUser({ email: "audit-lp@fund.example", status: "approved" });
});

const filters = (input: Record<string, string>) => ActivityFilters.parse(input);

describe("listActivity", () => {
  it("pages newest first by time, then by id within a millisecond, and comes back the same way", () => {
    const actor = "pager@audit.example";
    const ids = [0, 1, 2, 3, 4].map((i) => insertRow(T0 + i * 1000, { actorEmail: actor }));
    // Two rows in the same millisecond: the later-written one is newer.
    ids.push(insertRow(T0 + 5000, { actorEmail: actor }), insertRow(T0 + 5000, { actorEmail: actor }));
    const newestFirst = [...ids].reverse();
    const f = filters({ actor });

    const first = listActivity(f, {}, 3);
    expect(first.rows.map((r) => r.id)).toEqual(newestFirst.slice(0, 3));
    expect(first.newer).toBeNull();
    const second = listActivity(f, { before: first.older }, 3);
    expect(second.rows.map((r) => r.id)).toEqual(newestFirst.slice(3, 6));
    const third = listActivity(f, { before: second.older }, 3);
    expect(third.rows.map((r) => r.id)).toEqual(newestFirst.slice(6));
    expect(third.older).toBeNull();

    // Back: newer than the third page's first row is the second page; newer than that, the first.
    const back = listActivity(f, { after: third.newer }, 3);
    expect(back.rows.map((r) => r.id)).toEqual(newestFirst.slice(3, 6));
    expect(listActivity(f, { after: back.newer }, 3).rows.map((r) => r.id)).toEqual(newestFirst.slice(0, 3));
  });

  it("filters by event, actor, visitor, target (id or label, any case) and a range of UTC days", () => {
    const base = T0 + 30 * DAY; // Nov 14, 2026
    const a = insertRow(base, { event: "user.status_changed", actorEmail: "f-admin@audit.example", targetType: "user", targetId: "u-1", targetLabel: "Eva@Fund.example" });
    const b = insertRow(base + DAY, { event: "auth.sign_in_failed", targetType: "user", targetLabel: "eva@fund.example" });
    const c = insertRow(base + 2 * DAY, { event: "user.status_changed", actorEmail: "f-admin@audit.example", targetId: "u-2", targetLabel: "other@fund.example" });
    const ids = (input: Record<string, string>) =>
      listActivity(filters({ from: "2026-11-14", to: "2026-11-16", ...input }), {}, 50).rows.map((r) => r.id);

    expect(ids({})).toEqual([c, b, a]);
    expect(ids({ event: "user.status_changed" })).toEqual([c, a]);
    expect(ids({ actor: "F-Admin@Audit.example" })).toEqual([c, a]);
    expect(ids({ actor: "visitor" })).toEqual([b]);
    expect(ids({ target: "EVA@fund.example" })).toEqual([b, a]);
    expect(ids({ target: "u-2" })).toEqual([c]);
    // Both ends are whole UTC days.
    expect(ids({ from: "2026-11-15", to: "2026-11-15" })).toEqual([b]);
    expect(ids({ from: "2026-11-16", to: "" })).toContain(c);
    expect(ids({ from: "2026-11-16", to: "" })).not.toContain(b);
  });
});

describe("the table", () => {
  it("refuses updates, and deletes of rows younger than 30 days", () => {
    const id = insertRow(Date.now() - DAY);
    expect(() => getDb().update(auditEvents).set({ event: "auth.sign_out" }).where(eq(auditEvents.id, id)).run()).toThrow(/append-only/);
    expect(() => getDb().delete(auditEvents).where(eq(auditEvents.id, id)).run()).toThrow(/younger than 30 days/);
    expect(getDb().select().from(auditEvents).where(eq(auditEvents.id, id)).get()?.event).toBe("auth.sign_in");
  });

  it("retention deletes the rows older than AUDIT_RETENTION_DAYS and keeps the rest", () => {
    const old = insertRow(Date.now() - 731 * DAY, { actorEmail: "retention@audit.example" });
    const kept = insertRow(Date.now() - 729 * DAY, { actorEmail: "retention@audit.example" });
    expect(pruneAuditTrail(getDb(), 730)).toBeGreaterThanOrEqual(1);
    const left = listActivity(filters({ actor: "retention@audit.example" })).rows.map((r) => r.id);
    expect(left).toEqual([kept]);
    expect(left).not.toContain(old);
  });
});

describe("an admin action", () => {
  it("writes its row with the admin as actor and the investor as target", async () => {
    const pending = await insertUser({ email: "approve-me@fund.example" });
    setUserStatus(admin, pending.id, "approved");
    const rows = listActivity(filters({ event: "user.status_changed", target: pending.email })).rows;
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ actorId: admin.id, actorEmail: admin.email, targetType: "user", targetId: pending.id, targetLabel: pending.email });
    expect(JSON.parse(rows[0]!.details)).toMatchObject({ from: "pending", to: "approved" });
  });
});

describe("GET /admin/activity", () => {
  const page = (query: string, cookie = adminCookie) =>
    callRouteWith(activityLoader as never, apiRequest("GET", `/admin/activity${query}`, { cookie }));

  it("shows an admin the newest rows with their labels", async () => {
    insertRow(Date.now(), { event: "document.deleted", actorEmail: admin.email, targetType: "document", targetId: "d-1", targetLabel: "Q3 Letter" });
    const answer = (await page("")) as unknown as { rows: { eventLabel: string; actor: string | null; target: { label: string } | null }[] };
    expect(answer.rows[0]).toMatchObject({ eventLabel: "Deleted a document", actor: admin.email, target: { label: "Q3 Letter" } });
  });

  it("shows an aggregated refusal row with its count; a first refusal row without one (decision 030)", async () => {
    const at = Date.now() + 60_000;
    insertRow(at, { event: "request.cross_site_refused", ip: "203.0.113.9", requestId: "first-of-the-minute", details: JSON.stringify({ method: "POST", path: "/x" }) });
    insertRow(at + 1, { event: "request.cross_site_refused", ip: "203.0.113.9", details: JSON.stringify({ count: 1234, from: "a", to: "b" }) });
    const answer = (await page("?event=request.cross_site_refused")) as unknown as { rows: { eventLabel: string; repeated: string | null; ip: string }[] };
    expect(answer.rows.slice(0, 2)).toMatchObject([
      { eventLabel: "Cross-site request refused", repeated: "1,234 more like it from this address in the same minute", ip: "203.0.113.9" },
      { eventLabel: "Cross-site request refused", repeated: null },
    ]);
  });

  it("answers 400 with a message per bad field", async () => {
    const { data, status } = expectData<{ errors: Record<string, string[]> }>(await page("?from=2026-11-20&to=2026-11-01&event=nope&before=x"));
    expect(status).toBe(400);
    expect(data.errors.to).toEqual(["The start date must be on or before the end date."]);
    expect(data.errors.event).toEqual(["Choose an event from the list."]);
    expect(data.errors.cursor?.[0]).toMatch(/not valid/);
    const bad = expectData<{ errors: Record<string, string[]> }>(await page("?from=2026-02-30"));
    expect(bad.data.errors.from).toEqual(["Enter a date as YYYY-MM-DD."]);
  });

  it("sends an investor to the admin sign-in", async () => {
    const investorCookie = await sessionCookieFor(investor);
    const thrown = await page("", investorCookie).catch((error: unknown) => error);
    expect(expectRedirect(thrown).location).toMatch(/^\/admin\/login/);
  });
});

describe("GET /admin/activity.csv", () => {
  const download = (query: string, cookie?: string) =>
    callRouteWith(exportLoader as never, apiRequest("GET", `/admin/activity.csv${query}`, { cookie }));

  it("gives an admin the filtered rows, formula-safe, and records the export", async () => {
    insertRow(T0 + 60 * DAY, { event: "document.uploaded", actorEmail: "csv@audit.example", targetType: "document", targetId: "d-9", targetLabel: '=HYPERLINK("http://evil.example")', details: '{"title":"x, y"}' });
    insertRow(T0 + 60 * DAY, { event: "auth.sign_in", actorEmail: "csv@audit.example" });
    const response = await download("?actor=csv@audit.example&event=document.uploaded", adminCookie);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toMatch(/^attachment; filename="lumen-ridge-activity-\d{4}-\d{2}-\d{2}\.csv"$/);
    const bytes = new Uint8Array(await response.arrayBuffer());
    const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
    expect(text.startsWith("\uFEFFTime (UTC),Event,Event name,Actor,Actor ID,Target type,Target ID,Target,IP address,User agent,Request ID,Details\r\n")).toBe(true);
    const records = text.slice(1).split("\r\n").filter(Boolean);
    expect(records).toHaveLength(2);
    expect(records[1]).toBe(
      `2026-12-14 12:00:00,Uploaded a document,document.uploaded,csv@audit.example,,document,d-9,"'=HYPERLINK(""http://evil.example"")",,,,"{""title"":""x, y""}"`,
    );
    const recorded = listActivity(filters({ event: "audit.exported", actor: admin.email })).rows;
    expect(recorded.length).toBeGreaterThanOrEqual(1);
    expect(JSON.parse(recorded[0]!.details)).toMatchObject({ filters: { actor: "csv@audit.example", event: "document.uploaded" } });
  });

  it("refuses an investor (403) and a visitor (401) with JSON, and bad filters with 400 and field messages", async () => {
    const investorCookie = await sessionCookieFor(investor);
    expect((await download("", investorCookie)).status).toBe(403);
    const anonymous = await download("");
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toHaveProperty("error");
    const bad = await download("?from=yesterday", adminCookie);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ fields: { from: ["Enter a date as YYYY-MM-DD."] } });
  });
});
