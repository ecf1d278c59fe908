import { getDb } from "~/modules/db/connection.server";
import { createCommitment } from "~/modules/commitments/commitments.server";
import { createEntity } from "~/modules/entities/entities.server";
import { fundBySlug, type Fund } from "~/modules/funds/funds.server";
import { draftCall, publishEntry } from "~/modules/ledger/ledger.server";
import type { LpUser } from "~/modules/lp-users/lp-users.server";
import { importValuations } from "~/modules/valuations/valuations.server";
import { pnlRows } from "../../db/schema";
import { insertAdmin, insertUser } from "./users";

/**
 * A fund with a tied-out quarter to publish (issue 25 §2), built through the
 * domain functions: Fund II (USD), Atlas Holdings AG (3,000,000; Olivia owner,
 * Victor viewer) and Brunner Ventures GmbH (1,000,000; Otto owner), both
 * accepted on 2025-01-15; Call 1 (notice 2025-02-03, due 2025-02-28) of
 * 400,000 (Atlas 300,000, Brunner 100,000); NAVs at 2025-03-31 and the
 * quarter's P&L so that 2025-Q1 ties out to the cent.
 */
export type PublishingFixture = {
  fund: Fund;
  admin: LpUser;
  olivia: LpUser;
  victor: LpUser;
  otto: LpUser;
  atlas: string;
  brunner: string;
  callId: string;
};

export type PnlCents = Partial<Record<"managementFeesMinor" | "partnershipExpensesMinor" | "otherIncomeMinor" | "realizedGainMinor" | "unrealizedGainChangeMinor" | "carriedInterestChangeMinor", number>>;

/** Store (or replace) a quarter's P&L row of an entity, in cents. */
export function putPnl(fund: Fund, quarter: string, entityId: string, cents: PnlCents): void {
  const row = {
    managementFeesMinor: 0,
    partnershipExpensesMinor: 0,
    otherIncomeMinor: 0,
    realizedGainMinor: 0,
    unrealizedGainChangeMinor: 0,
    carriedInterestChangeMinor: 0,
    ...cents,
  };
  getDb()
    .insert(pnlRows)
    .values({ fundId: fund.id, quarter, entityId, ...row })
    .onConflictDoUpdate({ target: [pnlRows.fundId, pnlRows.quarter, pnlRows.entityId], set: row })
    .run();
}

export async function publishingFixture(label = "a"): Promise<PublishingFixture> {
  const fund = fundBySlug("fund-ii");
  const admin = await insertAdmin();
  const olivia = await insertUser({ status: "approved", name: `Olivia Owner ${label}` });
  const victor = await insertUser({ status: "approved", name: `Victor Viewer ${label}` });
  const otto = await insertUser({ status: "approved", name: `Otto Outsider ${label}` });
  const atlas = createEntity(admin, {
    name: `Atlas Holdings AG ${label}`,
    kind: "company",
    members: [
      { userId: olivia.id, role: "owner" },
      { userId: victor.id, role: "viewer" },
    ],
  }).id;
  const brunner = createEntity(admin, { name: `Brunner Ventures GmbH ${label}`, kind: "company", members: [{ userId: otto.id, role: "owner" }] }).id;
  createCommitment(admin, { entityId: atlas, fund: fund.slug, amount: "3000000.00", acceptedOn: "2025-01-15" });
  createCommitment(admin, { entityId: brunner, fund: fund.slug, amount: "1000000.00", acceptedOn: "2025-01-15" });
  const call = draftCall(admin, { fund: fund.slug, noticeDate: "2025-02-03", dueDate: "2025-02-28", lines: [{ type: "investment", amount: "400000.00" }] });
  publishEntry(admin, call.id, "call");
  importValuations(admin, {
    fund: fund.slug,
    date: "2025-03-31",
    values: [
      { entityId: atlas, nav: "290000.00" },
      { entityId: brunner, nav: "96000.00" },
    ],
  });
  putPnl(fund, "2025-Q1", atlas, { managementFeesMinor: -500_000, unrealizedGainChangeMinor: -500_000 });
  putPnl(fund, "2025-Q1", brunner, { managementFeesMinor: -200_000, unrealizedGainChangeMinor: -200_000 });
  return { fund, admin, olivia, victor, otto, atlas, brunner, callId: call.id };
}
