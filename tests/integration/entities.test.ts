import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { commitmentsInForce } from "~/modules/commitments/commitments.server";
import { getDb } from "~/modules/db/connection.server";
import { fundBySlug } from "~/modules/funds/funds.server";
import type { LpUser } from "~/modules/lp-users/lp-users.server";
import { action as entitiesPageAction } from "~/routes/admin/entities";
import { action as entityPageAction } from "~/routes/admin/entity";
import { action as commitmentApi, loader as commitmentRead } from "~/routes/api/commitment";
import { action as commitmentsApi } from "~/routes/api/commitments";
import { action as entitiesPost, loader as entitiesGet } from "~/routes/api/entities";
import { action as memberDelete } from "~/routes/api/entity-member";
import { action as membersPost } from "~/routes/api/entity-members";
import { auditEvents } from "../../db/schema";
import { expectData, expectRedirect, formRequest } from "../helpers/http";
import { apiRequest, callRouteWith, insertAdmin, insertUser, sessionCookieFor } from "../helpers/users";

/**
 * Investing entities and commitments (issue 24 §2–3): the JSON endpoints and
 * the admin pages' forms, against a real SQLite file. An investor reads only
 * the entities they are a member of, and never another member's e-mail.
 */

let admin: LpUser;
let owner: LpUser;
let viewer: LpUser;
let outsider: LpUser;
let pending: LpUser;
const cookies = { admin: "", owner: "", viewer: "", outsider: "" };

beforeAll(async () => {
  admin = await insertAdmin();
  owner = await insertUser({ status: "approved", name: "Olivia Owner" });
  viewer = await insertUser({ status: "approved", name: "Victor Viewer" });
  outsider = await insertUser({ status: "approved", name: "Otto Outsider" });
  pending = await insertUser({ status: "pending" });
  cookies.admin = await sessionCookieFor(admin);
  cookies.owner = await sessionCookieFor(owner);
  cookies.viewer = await sessionCookieFor(viewer);
  cookies.outsider = await sessionCookieFor(outsider);
});

async function json(response: Response) {
  return (await response.json()) as Record<string, unknown> & { fields?: Record<string, string[]> };
}

const post = (path: string, body: unknown, cookie = cookies.admin) => apiRequest("POST", path, { cookie, json: body });

async function createEntity(body: unknown, cookie = cookies.admin) {
  return callRouteWith(entitiesPost as never, post("/api/entities", body, cookie));
}

async function newEntity(name: string, members: { userId: string; role: "owner" | "viewer" }[]) {
  const response = await createEntity({ name, kind: "trust", members });
  expect(response.status, JSON.stringify(await response.clone().json())).toBe(201);
  return (await response.json()) as { id: string; name: string; members: { userId: string; role: string; email: string }[] };
}

function auditRows(event: string, targetId: string) {
  return getDb()
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.event, event), eq(auditEvents.targetId, targetId)))
    .all();
}

describe("POST /api/entities", () => {
  it("creates an entity with its members (201) and records who did it", async () => {
    const entity = await newEntity("Meyer Family Trust", [
      { userId: owner.id, role: "owner" },
      { userId: viewer.id, role: "viewer" },
    ]);
    expect(entity).toEqual({
      id: expect.any(String),
      name: "Meyer Family Trust",
      kind: "trust",
      createdAt: expect.any(String),
      members: [
        { userId: owner.id, name: owner.name, email: owner.email, role: "owner" },
        { userId: viewer.id, name: viewer.name, email: viewer.email, role: "viewer" },
      ],
    });
    const [row] = auditRows("entity.created", entity.id);
    expect(row).toMatchObject({ actorId: admin.id, targetLabel: "Meyer Family Trust" });
  });

  it("refuses bodies it cannot use with a message per field (400), and investors (403)", async () => {
    const refused = async (body: unknown) => {
      const response = await createEntity(body);
      expect(response.status).toBe(400);
      return (await json(response)).fields ?? {};
    };
    expect(Object.keys(await refused({ name: " ", kind: "trust", members: [{ userId: owner.id, role: "owner" }] }))).toEqual(["name"]);
    // A name goes into pages and mail subjects: no line breaks, control characters or direction overrides.
    for (const name of ["Two\r\nLines", "Nul\u0000Byte", "Over\u202eride", "Line\u2028Separator"]) {
      expect(await refused({ name, kind: "trust", members: [{ userId: owner.id, role: "owner" }] })).toEqual({ name: [expect.stringMatching(/control characters/)] });
    }
    expect(Object.keys(await refused({ name: "X", kind: "partnership", members: [{ userId: owner.id, role: "owner" }] }))).toEqual(["kind"]);
    expect((await refused({ name: "X", kind: "trust", members: [{ userId: viewer.id, role: "viewer" }] })).members).toEqual(["An entity needs at least one owner"]);
    expect(await refused({ name: "X", kind: "trust", members: [{ userId: pending.id, role: "owner" }] })).toEqual({ "members.0.userId": ["Not an approved investor account"] });
    expect(await refused({ name: "X", kind: "trust", members: [{ userId: admin.id, role: "owner" }] })).toEqual({ "members.0.userId": ["Not an approved investor account"] });
    expect(
      await refused({
        name: "X",
        kind: "trust",
        members: [
          { userId: owner.id, role: "owner" },
          { userId: owner.id, role: "viewer" },
        ],
      }),
    ).toEqual({ "members.1.userId": ["This investor is listed twice"] });
    const byInvestor = await createEntity({ name: "Mine", kind: "individual", members: [{ userId: owner.id, role: "owner" }] }, cookies.owner);
    expect(byInvestor.status).toBe(403);
  });
});

describe("GET /api/entities", () => {
  it("an admin lists every entity; a member only theirs, with the others by name and role and no e-mail; anyone else none", async () => {
    const shared = await newEntity("Atlas Holdings AG", [
      { userId: owner.id, role: "owner" },
      { userId: viewer.id, role: "viewer" },
    ]);
    await newEntity("Someone Else's Trust", [{ userId: outsider.id, role: "owner" }]);
    const list = async (cookie: string) => (await callRouteWith(entitiesGet as never, apiRequest("GET", "/api/entities", { cookie }))).json() as Promise<Record<string, unknown>[]>;

    const all = await list(cookies.admin);
    expect(all.map((e) => e.name)).toEqual(expect.arrayContaining(["Atlas Holdings AG", "Someone Else's Trust"]));

    const seenByViewer = await list(cookies.viewer);
    expect(seenByViewer.map((e) => e.name)).not.toContain("Someone Else's Trust");
    const atlas = seenByViewer.find((e) => e.id === shared.id);
    expect(atlas).toEqual({
      id: shared.id,
      name: "Atlas Holdings AG",
      kind: "trust",
      role: "viewer",
      members: [
        { name: owner.name, role: "owner", you: false },
        { name: viewer.name, role: "viewer", you: true },
      ],
    });
    expect(JSON.stringify(seenByViewer)).not.toContain(owner.email);

    const anonymous = await callRouteWith(entitiesGet as never, apiRequest("GET", "/api/entities"));
    expect(anonymous.status).toBe(401);
  });
});

describe("members", () => {
  it("an admin adds and removes members; the last owner stays; each change is audited", async () => {
    const entity = await newEntity("Keller Pension Fund", [{ userId: owner.id, role: "owner" }]);
    const add = (userId: string, role: string, id = entity.id) =>
      callRouteWith(membersPost as never, post(`/api/entities/${id}/members`, { userId, role }), { params: { id } });
    const remove = (userId: string, id = entity.id) =>
      callRouteWith(memberDelete as never, apiRequest("DELETE", `/api/entities/${id}/members/${userId}`, { cookie: cookies.admin }), { params: { id, userId } });

    const added = await add(viewer.id, "viewer");
    expect(added.status).toBe(201);
    expect(((await added.json()) as { members: { userId: string }[] }).members.map((m) => m.userId)).toEqual([owner.id, viewer.id]);
    expect((await add(viewer.id, "owner")).status).toBe(409);
    expect(await json(await add(pending.id, "viewer"))).toMatchObject({ fields: { userId: ["Not an approved investor account"] } });
    expect((await add(outsider.id, "boss")).status).toBe(400);
    expect((await add(outsider.id, "viewer", "no-such-entity")).status).toBe(404);

    expect((await remove(owner.id)).status).toBe(409);
    expect((await remove(outsider.id)).status).toBe(404);
    const removed = await remove(viewer.id);
    expect(removed.status).toBe(200);
    expect(auditRows("entity.member_added", entity.id)).toHaveLength(1);
    expect(auditRows("entity.member_removed", entity.id)).toHaveLength(1);

    // The removed viewer no longer lists it.
    const list = (await (await callRouteWith(entitiesGet as never, apiRequest("GET", "/api/entities", { cookie: cookies.viewer }))).json()) as { id: string }[];
    expect(list.map((e) => e.id)).not.toContain(entity.id);
  });
});

describe("commitments", () => {
  const commit = (body: unknown) => callRouteWith(commitmentsApi as never, post("/api/commitments", body));
  const raise = (id: string, body: unknown) => callRouteWith(commitmentApi as never, apiRequest("PATCH", `/api/commitments/${id}`, { cookie: cookies.admin, json: body }), { params: { id } });

  it("records one per entity and fund, amounts as decimal strings with the currency's digits; refuses what it cannot use", async () => {
    const entity = await newEntity("Brunner Ventures GmbH", [{ userId: owner.id, role: "owner" }]);
    const created = await commit({ entityId: entity.id, fund: "fund-ii", amount: "2500000", acceptedOn: "2024-03-15" });
    expect(created.status).toBe(201);
    const body = await json(created);
    expect(body).toEqual({
      id: expect.any(String),
      entityId: entity.id,
      fund: "fund-ii",
      currency: "USD",
      amount: "2500000.00",
      acceptedOn: "2024-03-15",
      history: [{ amount: "2500000.00", effectiveOn: "2024-03-15" }],
    });
    expect(auditRows("commitment.created", body.id as string)).toHaveLength(1);

    const field = async (input: Record<string, unknown>) => {
      const response = await commit({ entityId: entity.id, fund: "fund-i", amount: "1000.00", acceptedOn: "2019-06-30", ...input });
      return { status: response.status, fields: Object.keys((await json(response)).fields ?? {}) };
    };
    expect(await field({ amount: 1000 })).toEqual({ status: 400, fields: ["amount"] });
    expect(await field({ amount: "0.00" })).toEqual({ status: 400, fields: ["amount"] });
    expect(await field({ amount: "10.123" })).toEqual({ status: 400, fields: ["amount"] });
    expect(await field({ amount: "1,000" })).toEqual({ status: 400, fields: ["amount"] });
    expect(await field({ acceptedOn: "2019-02-30" })).toEqual({ status: 400, fields: ["acceptedOn"] });
    expect(await field({ fund: "fund-iii" })).toEqual({ status: 400, fields: ["fund"] });
    expect(await field({ entityId: "no-such-entity" })).toEqual({ status: 400, fields: ["entityId"] });
    expect(await field({ fund: "fund-ii" })).toEqual({ status: 409, fields: ["fund"] });
  });

  it("a raise at a subsequent close keeps the history, and the amount in force follows the dates", async () => {
    const entity = await newEntity("Rossi Foundation", [{ userId: owner.id, role: "owner" }]);
    const created = await json(await commit({ entityId: entity.id, fund: "fund-i", amount: "1000000.00", acceptedOn: "2019-06-30" }));
    const id = created.id as string;
    expect((await raise(id, { amount: "900000.00", effectiveOn: "2020-01-31" })).status).toBe(400);
    expect((await raise(id, { amount: "1500000.00", effectiveOn: "2019-01-01" })).status).toBe(400);
    expect((await raise("no-such-commitment", { amount: "1500000.00", effectiveOn: "2020-01-31" })).status).toBe(404);
    const raised = await raise(id, { amount: "1500000.00", effectiveOn: "2020-01-31" });
    expect(raised.status).toBe(200);
    expect(await json(raised)).toMatchObject({
      amount: "1500000.00",
      acceptedOn: "2019-06-30",
      history: [
        { amount: "1000000.00", effectiveOn: "2019-06-30" },
        { amount: "1500000.00", effectiveOn: "2020-01-31" },
      ],
    });
    const read = await callRouteWith(commitmentRead as never, apiRequest("GET", `/api/commitments/${id}`, { cookie: cookies.admin }), { params: { id } });
    expect(await json(read)).toMatchObject({ amount: "1500000.00" });

    const fund = fundBySlug("fund-i");
    const inForce = (date: string) => commitmentsInForce(fund.id, date).find((c) => c.entityId === entity.id)?.amountMinor;
    expect(inForce("2019-06-29")).toBeUndefined();
    expect(inForce("2019-06-30")).toBe(100_000_000n);
    expect(inForce("2020-01-30")).toBe(100_000_000n);
    expect(inForce("2020-01-31")).toBe(150_000_000n);
  });
});

describe("the admin pages' forms", () => {
  const adminForm = (path: string, fields: Record<string, string>) => {
    const request = formRequest(path, fields);
    request.headers.set("Cookie", cookies.admin);
    return request;
  };

  it("creates an entity with its owner named by e-mail, and goes to its page (303 without JavaScript)", async () => {
    const answer = await callRouteWith(entitiesPageAction as never, adminForm("/admin/entities", { intent: "create-entity", name: "Weber Family Office", kind: "company", ownerEmail: owner.email.toUpperCase() }));
    const done = expectRedirect(answer);
    expect(done.status).toBe(303);
    expect(done.location).toMatch(/^\/admin\/entities\/[\w-]+$/);
  });

  it("answers an unknown owner, a pending account or a bad amount with the field's message and what was typed", async () => {
    const refused = expectData<{ status: string; fields: Record<string, string[]>; values: Record<string, string> }>(
      await callRouteWith(entitiesPageAction as never, adminForm("/admin/entities", { intent: "create-entity", name: "Typed Name", kind: "trust", ownerEmail: pending.email })),
    );
    expect(refused.status).toBe(400);
    expect(refused.data.fields).toEqual({ ownerEmail: ["No approved investor has this e-mail address"] });
    expect(refused.data.values).toMatchObject({ name: "Typed Name", ownerEmail: pending.email });

    const entity = await newEntity("Form Trust", [{ userId: owner.id, role: "owner" }]);
    const page = `/admin/entities/${entity.id}`;
    const badAmount = expectData<{ fields: Record<string, string[]> }>(
      await callRouteWith(entityPageAction as never, adminForm(page, { intent: "add-commitment", fund: "fund-ii", amount: "12,50", acceptedOn: "2025-01-31", _enhanced: "1" }), { params: { id: entity.id } }),
    );
    expect(badAmount.status).toBe(400);
    expect(Object.keys(badAmount.data.fields)).toEqual(["amount"]);

    // Another entity's commitment is an unknown one on this entity's page.
    const other = await newEntity("Other Form Trust", [{ userId: owner.id, role: "owner" }]);
    const otherCommitment = (await json(
      await callRouteWith(commitmentsApi as never, post("/api/commitments", { entityId: other.id, fund: "fund-i", amount: "1000.00", acceptedOn: "2020-01-31" })),
    )) as { id: string };
    const foreign = expectData<{ status: string }>(
      await callRouteWith(
        entityPageAction as never,
        adminForm(page, { intent: "raise-commitment", commitmentId: otherCommitment.id, amount: "5000.00", effectiveOn: "2021-01-31", _enhanced: "1" }),
        { params: { id: entity.id } },
      ),
    );
    expect(foreign.status).toBe(404);
    const added = expectData<{ status: string }>(
      await callRouteWith(entityPageAction as never, adminForm(page, { intent: "add-member", email: viewer.email, role: "viewer", _enhanced: "1" }), { params: { id: entity.id } }),
    );
    expect(added.data.status).toBe("success");
    const lastOwner = expectData<{ fields: Record<string, string[]> }>(
      await callRouteWith(entityPageAction as never, adminForm(page, { intent: "remove-member", userId: owner.id, name: owner.name, _enhanced: "1" }), { params: { id: entity.id } }),
    );
    expect(lastOwner.status).toBe(409);
    expect(lastOwner.data.fields.form?.[0]).toMatch(/last owner/);
  });
});
