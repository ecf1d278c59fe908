import { createCommitment } from "~/modules/commitments/commitments.server";
import { createEntity } from "~/modules/entities/entities.server";
import { draftCall, draftDistribution, publishEntry, recordPayment } from "~/modules/ledger/ledger.server";
import type { LpUser } from "~/modules/lp-users/lp-users.server";
import { importValuations } from "~/modules/valuations/valuations.server";
import { insertUser } from "./users";

/**
 * A small Fund II history for the statements' tests (issue 25), written
 * through the domain functions:
 * - Atlas Holdings AG commits $3,000,000.00 and Brunner Ventures GmbH
 *   $1,000,000.00 on 2025-01-15; Keller Pension Fund $2,000,000.00 only on
 *   2025-08-01 (after Q2); Fund One Only Ltd holds a Fund I commitment.
 * - Call 1 (notice 2025-02-03, due 2025-02-28): $400,000.00 of investment,
 *   paid in full (Atlas 2025-02-27, Brunner 2025-03-03).
 * - Distribution 1 (2025-05-15): $40,000.00 return of capital (recallable)
 *   and $20,000.00 realized gain.
 * - Call 2 (notice 2025-06-16, due 2025-07-15): $200,000.00, noticed in Q2
 *   and due in Q3.
 * - NAVs at 2025-03-31 (Atlas 295,000.00, Brunner 98,000.00) and 2025-06-30
 *   (Atlas 285,000.00, Brunner 95,000.00), which the P&L files below tie to.
 */

export type StatementsFixture = { atlas: string; brunner: string; keller: string; fundIOnly: string; call1: string; distribution1: string; call2: string };

/** Q1 2025's P&L: management fees only. */
export const Q1_PNL = (ids: StatementsFixture) =>
  [
    "entity,fund,quarter,management_fees,partnership_expenses,other_income,realized_gain,unrealized_gain_change,carried_interest_change",
    `${ids.atlas},fund-ii,2025-Q1,-5000.00,0,0,0,0,0`,
    `Brunner Ventures GmbH,fund-ii,2025-Q1,-2000.00,0,0,0,0,0`,
  ].join("\n");

/** Q2 2025's P&L: Atlas 295,000 − 45,000 − 7,500 + 42,500 = 285,000; Brunner 98,000 − 15,000 − 2,500 + 14,500 = 95,000. */
export const Q2_PNL = (_ids: StatementsFixture, atlasUnrealized = "42500.00", atlasFees = "-7500.00") =>
  [
    "entity,fund,quarter,management_fees,partnership_expenses,other_income,realized_gain,unrealized_gain_change,carried_interest_change",
    `Atlas Holdings AG,fund-ii,2025-Q2,${atlasFees},0,0,0,${atlasUnrealized},0`,
    `Brunner Ventures GmbH,fund-ii,2025-Q2,-2500.00,0,0,0,14500.00,0`,
  ].join("\n");

export async function writeStatementsFixture(admin: LpUser): Promise<StatementsFixture> {
  const owner = await insertUser({ status: "approved", name: "Olga Owner" });
  const entity = (name: string) => createEntity(admin, { name, kind: "company", members: [{ userId: owner.id, role: "owner" }] }).id;
  const ids = {
    atlas: entity("Atlas Holdings AG"),
    brunner: entity("Brunner Ventures GmbH"),
    keller: entity("Keller Pension Fund"),
    fundIOnly: entity("Fund One Only Ltd"),
  };
  createCommitment(admin, { entityId: ids.atlas, fund: "fund-ii", amount: "3000000.00", acceptedOn: "2025-01-15" });
  createCommitment(admin, { entityId: ids.brunner, fund: "fund-ii", amount: "1000000.00", acceptedOn: "2025-01-15" });
  createCommitment(admin, { entityId: ids.keller, fund: "fund-ii", amount: "2000000.00", acceptedOn: "2025-08-01" });
  createCommitment(admin, { entityId: ids.fundIOnly, fund: "fund-i", amount: "500000.00", acceptedOn: "2025-01-15" });

  const call1 = draftCall(admin, { fund: "fund-ii", noticeDate: "2025-02-03", dueDate: "2025-02-28", lines: [{ type: "investment", amount: "400000.00" }] }).id;
  publishEntry(admin, call1, "call");
  recordPayment(admin, call1, { entityId: ids.atlas, amount: "300000.00", receivedOn: "2025-02-27" });
  recordPayment(admin, call1, { entityId: ids.brunner, amount: "100000.00", receivedOn: "2025-03-03" });
  importValuations(admin, {
    fund: "fund-ii",
    date: "2025-03-31",
    values: [
      { entityId: ids.atlas, nav: "295000.00" },
      { entityId: ids.brunner, nav: "98000.00" },
    ],
  });

  const distribution1 = draftDistribution(admin, {
    fund: "fund-ii",
    paymentDate: "2025-05-15",
    lines: [
      { type: "return_of_capital", amount: "40000.00", recallable: true },
      { type: "realized_gain", amount: "20000.00" },
    ],
  }).id;
  publishEntry(admin, distribution1, "distribution");
  const call2 = draftCall(admin, { fund: "fund-ii", noticeDate: "2025-06-16", dueDate: "2025-07-15", lines: [{ type: "investment", amount: "200000.00" }] }).id;
  publishEntry(admin, call2, "call");
  importValuations(admin, {
    fund: "fund-ii",
    date: "2025-06-30",
    values: [
      { entityId: ids.atlas, nav: "285000.00" },
      { entityId: ids.brunner, nav: "95000.00" },
    ],
  });
  return { ...ids, call1, distribution1, call2 };
}
