import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "~/modules/db/connection.server";
import { readSetting, setStatementsWatermark } from "~/modules/firm-settings/settings.server";
import { reopenQuarter } from "~/modules/statements/publish.server";
import { fundQuarters, lpStatement, lpStatements } from "~/modules/statements/reads.server";
import type { StatementDoc } from "~/modules/statements/types";
import { loader as jobApi } from "~/routes/api/statements-job";
import { loader as lpStatementsApi } from "~/routes/api/lp-statements";
import { action as publishApi } from "~/routes/api/statements-publish";
import { auditEvents, pdfJobs, statementQuarters, statements } from "../../db/schema";
import { publishingFixture, putPnl, type PublishingFixture } from "../helpers/publishing";
import { apiRequest, callRouteWith, sessionCookieFor } from "../helpers/users";
import { importValuations } from "~/modules/valuations/valuations.server";

/**
 * Publishing a fund's quarter (issue 25 §2, §6) through POST
 * /api/statements/publish and what it leaves: one statement per entity with
 * its figures frozen, the PDF job and its progress, the refusals (400, 409,
 * 422), a restatement (version 2 with its differences, "restated"; version 1
 * still readable), and an investor reading only their entities' statements.
 */

let f: PublishingFixture;
const cookies = { admin: "", olivia: "", victor: "", otto: "" };

type Json = Record<string, unknown> & { error?: string; fields?: Record<string, string[]> };
const body = async (response: Response) => (await response.json()) as Json;
const publish = (json: unknown, cookie = cookies.admin) => callRouteWith(publishApi as never, apiRequest("POST", "/api/statements/publish", { cookie, json }));
const job = (jobId: string, cookie = cookies.admin) => callRouteWith(jobApi as never, apiRequest("GET", `/api/statements/jobs/${jobId}`, { cookie }), { params: { jobId } });
const lpList = (cookie: string) => callRouteWith(lpStatementsApi as never, apiRequest("GET", "/api/lp/statements", { cookie }));

function statementsOf(quarterId: string) {
  return getDb().select().from(statements).where(eq(statements.quarterId, quarterId)).all();
}
const docOf = (row: { figures: string }) => JSON.parse(row.figures) as StatementDoc;

let v1JobId = "";
let v1QuarterId = "";

beforeAll(async () => {
  f = await publishingFixture();
  cookies.admin = await sessionCookieFor(f.admin);
  cookies.olivia = await sessionCookieFor(f.olivia);
  cookies.victor = await sessionCookieFor(f.victor);
  cookies.otto = await sessionCookieFor(f.otto);
});

describe("publishing a quarter", () => {
  it("refuses what it cannot publish: 400 for fields, 422 for a quarter not over, without P&L or not tying out; only admins", async () => {
    const unknownFund = await publish({ fund: "fund-x", quarter: "2025-Q1" });
    expect(unknownFund.status).toBe(400);
    expect((await body(unknownFund)).fields?.fund).toBeDefined();
    const badQuarter = await publish({ fund: "fund-ii", quarter: "2025-Q5" });
    expect(badQuarter.status).toBe(400);
    expect((await body(badQuarter)).fields?.quarter?.[0]).toMatch(/YYYY-Q1/);

    const notOver = await publish({ fund: "fund-ii", quarter: "2099-Q1" });
    expect(notOver.status).toBe(422);
    expect((await body(notOver)).error).toMatch(/2099-Q1 is not over yet/);

    const noPnl = await publish({ fund: "fund-ii", quarter: "2025-Q2" });
    expect(noPnl.status).toBe(422);
    expect((await body(noPnl)).error).toMatch(/has no P&L/);

    // Q2: NAVs and P&L that miss by a cent for Brunner.
    importValuations(f.admin, {
      fund: "fund-ii",
      date: "2025-06-30",
      values: [
        { entityId: f.atlas, nav: "290000.00" },
        { entityId: f.brunner, nav: "96000.01" },
      ],
    });
    putPnl(f.fund, "2025-Q2", f.atlas, {});
    putPnl(f.fund, "2025-Q2", f.brunner, {});
    const offByOne = await publish({ fund: "fund-ii", quarter: "2025-Q2" });
    expect(offByOne.status).toBe(422);
    expect((await body(offByOne)).error).toMatch(/does not tie out for 1 entity/);

    expect((await publish({ fund: "fund-ii", quarter: "2025-Q1" }, cookies.olivia)).status).toBe(403);
    expect((await publish({ fund: "fund-ii", quarter: "2025-Q1" }, "")).status).toBe(401);
    expect(getDb().select().from(statementQuarters).all()).toHaveLength(0);
  });

  it("answers 202 with the job, one statement per entity with its figures frozen, and the audit row", async () => {
    const response = await publish({ fund: "fund-ii", quarter: "2025-Q1" });
    expect(response.status).toBe(202);
    const { jobId } = await body(response);
    expect(typeof jobId).toBe("string");
    v1JobId = jobId as string;

    const version = getDb().select().from(statementQuarters).get()!;
    v1QuarterId = version.id;
    expect(version).toMatchObject({ quarter: "2025-Q1", version: 1, status: "published", publishedBy: f.admin.id, differences: null });
    const rows = statementsOf(version.id);
    expect(rows).toHaveLength(2);
    expect(rows.every((r) => r.documentId === null)).toBe(true);
    const atlas = docOf(rows.find((r) => r.entityId === f.atlas)!);
    expect(atlas).toMatchObject({ quarter: "2025-Q1", periodEnd: "2025-03-31", version: 1, restated: false, differences: [] });
    expect(atlas.columns.quarter).toMatchObject({ beginningNav: "0.00", contributions: "300000.00", managementFees: "-5000.00", endingNav: "290000.00", totalCommitment: "3000000.00", endingUnfunded: "2700000.00" });

    const progress = await job(v1JobId);
    expect(progress.status).toBe(200);
    expect(await body(progress)).toMatchObject({ done: 0, total: 2, failed: 0 });
    expect(getDb().select().from(pdfJobs).where(eq(pdfJobs.id, v1JobId)).get()).toMatchObject({ kind: "statements", refId: version.id, status: "running" });

    const audited = getDb().select().from(auditEvents).where(eq(auditEvents.event, "statements.published")).all();
    expect(audited).toHaveLength(1);
    expect(JSON.parse(audited[0]!.details)).toMatchObject({ fund: "fund-ii", quarter: "2025-Q1", version: 1, count: 2 });
  });

  it("is a 409 when the quarter is already published", async () => {
    const again = await publish({ fund: "fund-ii", quarter: "2025-Q1" });
    expect(again.status).toBe(409);
    expect((await body(again)).error).toMatch(/already published.*Restate/);
  });

  it("lists the fund's quarters for the admin's page, with the versions and the job", () => {
    const [q2, q1] = fundQuarters(f.fund);
    expect(q2).toMatchObject({ quarter: "2025-Q2", pnlRows: 2, versions: [], job: null, canPublish: true, canRestate: false });
    expect(q1).toMatchObject({ quarter: "2025-Q1", pnlRows: 2, canPublish: false, canRestate: true, job: { id: v1JobId, done: 0, total: 2, failed: 0, status: "running" } });
    expect(q1!.versions).toMatchObject([{ version: 1, status: "published", count: 2 }]);
  });

  it("answers 404 for an unknown job, 403 to an investor", async () => {
    expect((await job("no-such-job")).status).toBe(404);
    expect((await job(v1JobId, cookies.olivia)).status).toBe(403);
  });
});

describe("a restatement", () => {
  it("reopens the quarter, publishes version 2 with its differences marked restated, and keeps version 1 readable", async () => {
    reopenQuarter(f.admin, f.fund, "2025-Q1");
    expect(fundQuarters(f.fund).find((q) => q.quarter === "2025-Q1")).toMatchObject({ canPublish: true, canRestate: false });
    // The administrator's corrected P&L: the same NAV, split differently.
    putPnl(f.fund, "2025-Q1", f.atlas, { managementFeesMinor: -600_000, unrealizedGainChangeMinor: -400_000 });
    const response = await publish({ fund: "fund-ii", quarter: "2025-Q1" });
    expect(response.status).toBe(202);

    const versions = getDb().select().from(statementQuarters).all();
    expect(versions.map((v) => [v.version, v.status]).sort()).toEqual([
      [1, "superseded"],
      [2, "published"],
    ]);
    const v2 = versions.find((v) => v.version === 2)!;
    expect(JSON.parse(v2.differences!)).toEqual([{ entityId: f.atlas, rows: ["managementFees", "unrealizedGainChange"] }]);
    const atlasV2 = docOf(statementsOf(v2.id).find((r) => r.entityId === f.atlas)!);
    expect(atlasV2).toMatchObject({ version: 2, restated: true });
    expect(atlasV2.differences).toEqual([
      { row: "managementFees", previous: "-5000.00", current: "-6000.00" },
      { row: "unrealizedGainChange", previous: "-5000.00", current: "-4000.00" },
    ]);
    const brunnerV2 = docOf(statementsOf(v2.id).find((r) => r.entityId === f.brunner)!);
    expect(brunnerV2).toMatchObject({ restated: true, differences: [] });

    // Version 1 stays as it was, and points to the newer one.
    const v1Atlas = statementsOf(v1QuarterId).find((r) => r.entityId === f.atlas)!;
    const v2Atlas = statementsOf(v2.id).find((r) => r.entityId === f.atlas)!;
    const read = lpStatement(f.olivia, v1Atlas.id)!;
    expect(read.doc.columns.quarter.managementFees).toBe("-5000.00");
    expect(read.laterVersion).toEqual({ id: v2Atlas.id });
    expect(read.earlierVersions).toEqual([]);
    expect(lpStatement(f.olivia, v2Atlas.id)).toMatchObject({ laterVersion: null, earlierVersions: [{ id: v1Atlas.id, version: 1 }] });
    expect(JSON.parse(getDb().select().from(auditEvents).where(eq(auditEvents.event, "statements.reopened")).get()!.details)).toMatchObject({ quarter: "2025-Q1", version: 1 });
  });
});

describe("an investor's statements", () => {
  it("lists the latest version of their entities' statements only (GET /api/lp/statements)", async () => {
    const olivia = await lpList(cookies.olivia);
    expect(olivia.status).toBe(200);
    const list = (await olivia.json()) as Json[];
    expect(list).toEqual([{ id: expect.any(String), entityId: f.atlas, fund: "fund-ii", quarter: "2025-Q1", version: 2, documentId: null }]);
    const victor = (await (await lpList(cookies.victor)).json()) as Json[];
    expect(victor.map((s) => s.entityId)).toEqual([f.atlas]);
    const otto = (await (await lpList(cookies.otto)).json()) as Json[];
    expect(otto.map((s) => [s.entityId, s.version])).toEqual([[f.brunner, 2]]);
    expect((await lpList("")).status).toBe(401);
  });

  it("reads another entity's statement like an unknown id", () => {
    const brunnerStatement = lpStatements(f.otto)[0]!;
    expect(lpStatement(f.otto, brunnerStatement.id)?.doc.entity.id).toBe(f.brunner);
    expect(lpStatement(f.victor, brunnerStatement.id)).toBeNull();
    expect(lpStatement(f.olivia, brunnerStatement.id)).toBeNull();
    expect(lpStatement(f.olivia, "no-such-statement")).toBeNull();
    expect(lpStatements(f.victor).some((s) => s.entityId === f.brunner)).toBe(false);
    // An admin reads any.
    expect(lpStatement(f.admin, brunnerStatement.id)?.doc.entity.id).toBe(f.brunner);
  });
});

describe("the statements' watermark setting", () => {
  it("is off by default, and turned on and off with an audit row each time", () => {
    expect(readSetting("statements_watermark")).toBe(false);
    setStatementsWatermark(f.admin, true);
    expect(readSetting("statements_watermark")).toBe(true);
    setStatementsWatermark(f.admin, false);
    expect(readSetting("statements_watermark")).toBe(false);
    const rows = getDb().select().from(auditEvents).where(eq(auditEvents.event, "firm_setting.changed")).all();
    expect(rows.map((r) => JSON.parse(r.details))).toEqual([
      { key: "statements_watermark", value: true, was: false },
      { key: "statements_watermark", value: false, was: true },
    ]);
  });
});
