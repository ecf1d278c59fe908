import { and, eq } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "../../app/modules/db/connection.server";
import { auditEvents, lpUsers } from "../../db/schema";
import { listInvestorsPage } from "~/modules/lp-users/admin-search.server";
import type { LpUser } from "~/modules/lp-users/lp-users.server";
import { readFlash } from "~/modules/toast/flash.server";
import { action as investorsAction, loader as investorsLoader } from "~/routes/admin/investors";
import { action as referenceCodeApi } from "~/routes/api/auth/user-reference-code";
import { expectData, expectRedirect, formRequest, requestWithCookie } from "../helpers/http";
import { apiRequest, callRouteWith, clearAccountTables, insertAdmin, insertUser, sessionCookieFor, userById } from "../helpers/users";

/**
 * Per-investor reference codes (issue 15 §1): set, changed and removed from the
 * investors page (with and without JavaScript) and the JSON route, unique
 * whatever the case, audited, and found by the investors search.
 */

type Outcome = { status: "success" | "error"; toast: { title: string; description?: string } | null; fields?: Record<string, string[]> };

const INVALID = "Use 2 to 20 letters and digits, with single hyphens between them (e.g. LRV-0042)";

let admin: LpUser;
let adminCookie: string;

beforeAll(async () => {
  clearAccountTables();
  admin = await insertAdmin({ email: "admin@lumenridge.example", name: "Ada Admin" });
  adminCookie = await sessionCookieFor(admin);
});

beforeEach(() => {
  getDb().update(lpUsers).set({ referenceCode: null }).run();
});

function withCookie(request: Request, cookie = adminCookie): Request {
  request.headers.set("Cookie", cookie);
  return request;
}

/** POST /admin/investors intent=set-reference-code; `enhanced` as the fetcher sends it. */
function postCode(userId: string, referenceCode: string, { enhanced = false } = {}) {
  const fields: Record<string, string> = { intent: "set-reference-code", userId, referenceCode };
  if (enhanced) fields._enhanced = "1";
  return callRouteWith(investorsAction as never, withCookie(formRequest("/admin/investors", fields)));
}

async function enhanced(userId: string, referenceCode: string) {
  return expectData<Outcome>(await postCode(userId, referenceCode, { enhanced: true }));
}

function codeAudits(userId: string) {
  return getDb()
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.event, "user.reference_code_set"), eq(auditEvents.targetId, userId)))
    .all();
}

describe("the investors page form (intent=set-reference-code)", () => {
  it("with JavaScript: stores the code trimmed and in capitals, toasts, and audits the change", async () => {
    const jane = await insertUser({ name: "Jane Doe", status: "approved" });
    const { data, status } = await enhanced(jane.id, "  lrv-0042 ");
    expect(status).toBe(200);
    expect(data).toMatchObject({ status: "success", toast: { title: "Reference code saved", description: "Jane Doe's reference code is now LRV-0042." } });
    expect(userById(jane.id).referenceCode).toBe("LRV-0042");
    const audits = codeAudits(jane.id);
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ actorId: admin.id, targetType: "user", targetLabel: jane.email });
    expect(JSON.parse(audits[0]!.details)).toMatchObject({ from: null, to: "LRV-0042", userId: jane.id });
  });

  it("without JavaScript: 303 back to the page with the toast as a flash", async () => {
    const jane = await insertUser({ status: "pending" });
    const redirect = expectRedirect(await postCode(jane.id, "LRV-7"));
    expect(redirect.status).toBe(303);
    expect(redirect.location).toBe(`/admin/investors#reference-code-${jane.id}`);
    const { flash } = await readFlash(requestWithCookie("/admin/investors", redirect.cookie ?? ""));
    expect(flash.toast).toMatchObject({ title: "Reference code saved" });
    expect(flash.form).toMatchObject({ formId: `reference-code-${jane.id}`, status: "success" });
    expect(userById(jane.id).referenceCode).toBe("LRV-7");
  });

  it("without JavaScript comes back to the same search and page of the lists, at the investor's form", async () => {
    const jane = await insertUser({ status: "approved" });
    const post = (query: string) =>
      callRouteWith(investorsAction as never, withCookie(formRequest("/admin/investors", { intent: "set-reference-code", userId: jane.id, referenceCode: "LRV-8", query })));
    expect(expectRedirect(await post("?q=jane&status=approved&page=2")).location).toBe(`/admin/investors?q=jane&status=approved&page=2#reference-code-${jane.id}`);
    // Anything but a query string is dropped.
    for (const query of ["//evil.example", "https://evil.example/", "?a=1#x", "?a b"]) {
      expect(expectRedirect(await post(query)).location).toBe(`/admin/investors#reference-code-${jane.id}`);
    }
  });

  it("a code another investor holds, in any case, is the field's message naming them; nothing changes", async () => {
    const holder = await insertUser({ status: "approved" });
    const other = await insertUser({ status: "approved" });
    await enhanced(holder.id, "LRV-0042");
    await enhanced(other.id, "LRV-0001");

    const { data, status } = await enhanced(other.id, "lrv-0042");
    expect(status).toBe(409);
    const message = `LRV-0042 is already used by ${holder.email}`;
    expect(data).toMatchObject({ status: "error", toast: { title: "Reference code not saved", description: message }, fields: { referenceCode: [message] } });
    expect(userById(other.id).referenceCode).toBe("LRV-0001");
    expect(codeAudits(other.id)).toHaveLength(1);

    // Without JavaScript the investor's own form shows it again, with what was typed.
    const redirect = expectRedirect(await postCode(other.id, "lrv-0042"));
    expect(redirect.status).toBe(303);
    const { flash } = await readFlash(requestWithCookie("/admin/investors", redirect.cookie ?? ""));
    expect(flash.form).toMatchObject({
      formId: `reference-code-${other.id}`,
      status: "error",
      fieldErrors: { referenceCode: [message] },
      values: { referenceCode: "LRV-0042" },
    });
  });

  it.each(["A", "LRV--1", "-LRV", "LRV-", "LRV 42", "LRV_42", "ÉVA-1", "X".repeat(21)])("refuses %j with the format message", async (typed) => {
    const jane = await insertUser({ status: "approved" });
    const { data, status } = await enhanced(jane.id, typed);
    expect(status).toBe(400);
    expect(data.fields).toEqual({ referenceCode: [INVALID] });
    expect(userById(jane.id).referenceCode).toBeNull();
    expect(codeAudits(jane.id)).toHaveLength(0);
  });

  it("an empty field removes the code (audited); saving the same code again changes nothing", async () => {
    const jane = await insertUser({ name: "Jane Doe", status: "approved" });
    await enhanced(jane.id, "LRV-0042");
    await enhanced(jane.id, "lrv-0042");
    expect(codeAudits(jane.id)).toHaveLength(1);
    const { data } = await enhanced(jane.id, "   ");
    expect(data).toMatchObject({ status: "success", toast: { title: "Reference code removed" } });
    expect(userById(jane.id).referenceCode).toBeNull();
    const audits = codeAudits(jane.id);
    expect(audits).toHaveLength(2);
    expect(audits.map((row) => JSON.parse(row.details) as { to: string | null }).map((d) => d.to)).toEqual(["LRV-0042", null]);
    // A removed code is free for another investor.
    const other = await insertUser({ status: "approved" });
    expect((await enhanced(other.id, "LRV-0042")).status).toBe(200);
  });

  it("an admin account or an unknown id is refused", async () => {
    const otherAdmin = await insertAdmin();
    expect((await enhanced(otherAdmin.id, "LRV-1")).status).toBe(403);
    expect(userById(otherAdmin.id).referenceCode).toBeNull();
    expect((await enhanced("no-such-user", "LRV-1")).status).toBe(404);
  });

  it("the page lists each investor's code, and the search finds an investor by it", async () => {
    const jane = await insertUser({ name: "Jane Coded", status: "approved" });
    await insertUser({ name: "John Uncoded", status: "approved" });
    await enhanced(jane.id, "LRV-0042");
    const page = { offset: 0, limit: 50 };
    expect(listInvestorsPage("approved", { ...page, query: "lrv-0042" }).users.map((u) => u.id)).toEqual([jane.id]);
    expect(listInvestorsPage("approved", { ...page, query: "LRV-00" }).total).toBe(1);
    // Removing the code takes it out of the search too.
    await enhanced(jane.id, "");
    expect(listInvestorsPage("approved", { ...page, query: "lrv-0042" }).total).toBe(0);

    await enhanced(jane.id, "LRV-0042");
    const loaded = (await investorsLoader({
      request: requestWithCookie("/admin/investors?q=lrv-0042", adminCookie),
      params: {},
      context: {},
    } as never)) as { table: { rows: { id: string; referenceCode: string | null }[] } };
    expect(loaded.table.rows).toEqual([expect.objectContaining({ id: jane.id, referenceCode: "LRV-0042" })]);
  });

  it("offers the intent only to admins", async () => {
    const jane = await insertUser({ status: "approved" });
    const investorCookie = await sessionCookieFor(jane);
    const response = await callRouteWith(
      investorsAction as never,
      withCookie(formRequest("/admin/investors", { intent: "set-reference-code", userId: jane.id, referenceCode: "LRV-1" }), investorCookie),
    ).catch((thrown: unknown) => thrown);
    expect(response).toBeInstanceOf(Response);
    expect([302, 303]).toContain((response as Response).status);
    expect(userById(jane.id).referenceCode).toBeNull();
  });
});

describe("PUT /api/auth/users/{id}/reference-code", () => {
  /** `cookie: null` sends none; by default the admin's. */
  function put(userId: string, json: unknown, cookie: string | null = adminCookie) {
    return callRouteWith(referenceCodeApi as never, apiRequest("PUT", `/api/auth/users/${userId}/reference-code`, { cookie: cookie ?? undefined, json }), {
      params: { id: userId },
    });
  }

  it("sets and removes a code through the same rule", async () => {
    const jane = await insertUser({ status: "approved" });
    const response = await put(jane.id, { referenceCode: "lrv-9" });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ id: jane.id, referenceCode: "LRV-9" });
    expect((await put(jane.id, { referenceCode: null })).status).toBe(200);
    expect(userById(jane.id).referenceCode).toBeNull();
  });

  it("answers a taken code 409, a bad one 400, a non-admin 401/403, another method 405", async () => {
    const holder = await insertUser({ status: "approved" });
    const jane = await insertUser({ status: "approved" });
    await put(holder.id, { referenceCode: "LRV-1" });
    const taken = await put(jane.id, { referenceCode: "lrv-1" });
    expect(taken.status).toBe(409);
    expect(await taken.json()).toMatchObject({ error: `LRV-1 is already used by ${holder.email}` });
    expect((await put(jane.id, { referenceCode: "no way" })).status).toBe(400);
    expect((await put(jane.id, { referenceCode: "LRV-2" }, null)).status).toBe(401);
    expect((await put(jane.id, { referenceCode: "LRV-2" }, await sessionCookieFor(jane))).status).toBe(403);
    const patch = await callRouteWith(
      referenceCodeApi as never,
      apiRequest("PATCH", `/api/auth/users/${jane.id}/reference-code`, { cookie: adminCookie, json: { referenceCode: "LRV-2" } }),
      { params: { id: jane.id } },
    );
    expect(patch.status).toBe(405);
    expect(userById(jane.id).referenceCode).toBeNull();
  });
});
