import { beforeAll, describe, expect, it } from "vitest";
import { fundBySlug } from "~/modules/funds/funds.server";
import type { LpUser } from "~/modules/lp-users/lp-users.server";
import { noticeDocsFor } from "~/modules/statements/notice-docs.server";
import { importPnlCsv } from "~/modules/statements/pnl-import.server";
import { statementDocsFor } from "~/modules/statements/statement-docs.server";
import type { StatementDoc } from "~/modules/statements/types";
import { Q1_PNL, Q2_PNL, writeStatementsFixture, type StatementsFixture } from "../helpers/statements-fixture";
import { insertAdmin } from "../helpers/users";

/**
 * A quarter's statements and an entry's notices as frozen for their PDFs
 * (issue 25 §1–3), from the fixture's Fund II history in a real SQLite file:
 * the roll-forward's columns tie to the fixture's numbers, a second version
 * lists what changed, and each notice has the fund's and the investor's
 * cumulative figures before it.
 */

let admin: LpUser;
let ids: StatementsFixture;
const fundII = () => fundBySlug("fund-ii");
const options = { version: 1, previous: null, publishedOn: "2025-07-10" };

beforeAll(async () => {
  admin = await insertAdmin();
  ids = await writeStatementsFixture(admin);
  importPnlCsv(admin, fundII(), Q1_PNL(ids), null);
  importPnlCsv(admin, fundII(), Q2_PNL(ids), null);
});

describe("statementDocsFor", () => {
  it("makes one statement per entity with a commitment at the quarter's end, tied to the fixture's numbers", () => {
    const docs = statementDocsFor(fundII(), "2025-Q2", options);
    // Keller's commitment starts in Q3; the Fund I entity is not in Fund II.
    expect(docs.map((d) => d.entity.name)).toEqual(["Atlas Holdings AG", "Brunner Ventures GmbH"]);
    const atlas = docs[0]!;
    expect(atlas).toMatchObject({
      firmName: "Lumen Ridge Ventures",
      fund: { slug: "fund-ii", name: "Deeptech Fund II", currency: "USD" },
      entity: { id: ids.atlas, name: "Atlas Holdings AG" },
      quarter: "2025-Q2",
      periodEnd: "2025-06-30",
      version: 1,
      restated: false,
      differences: [],
      inceptionPartial: false,
      // Call 2 was noticed on 2025-06-16 and is due on 2025-07-15.
      callsNoticedNotDue: true,
      paidInToDate: "300000.00",
      distributedToDate: "45000.00",
      dpi: 0.15,
      rvpi: 0.95,
      tvpi: 1.1,
      irr: null,
      irrNote: "under_one_year",
      shareOfFund: "75.0000",
      publishedOn: "2025-07-10",
    } satisfies Partial<StatementDoc>);
    expect(atlas.columns.quarter).toEqual({
      fromQuarter: "2025-Q2",
      toQuarter: "2025-Q2",
      beginningNav: "295000.00",
      contributions: "0.00",
      distributions: "45000.00",
      managementFees: "-7500.00",
      partnershipExpenses: "0.00",
      otherIncome: "0.00",
      realizedGain: "0.00",
      unrealizedGainChange: "42500.00",
      carriedInterestChange: "0.00",
      endingNav: "285000.00",
      totalCommitment: "3000000.00",
      beginningUnfunded: "2700000.00",
      commitmentIncreases: "0.00",
      lessContributions: "0.00",
      recallableDistributions: "30000.00",
      endingUnfunded: "2730000.00",
    });
    // Year to date and inception to date: Q1 and Q2 2025, from the acceptance.
    expect(atlas.columns.yearToDate).toEqual(atlas.columns.inceptionToDate);
    expect(atlas.columns.inceptionToDate).toMatchObject({
      fromQuarter: "2025-Q1",
      beginningNav: "0.00",
      contributions: "300000.00",
      distributions: "45000.00",
      managementFees: "-12500.00",
      unrealizedGainChange: "42500.00",
      endingNav: "285000.00",
      beginningUnfunded: "0.00",
      commitmentIncreases: "3000000.00",
      lessContributions: "300000.00",
      recallableDistributions: "30000.00",
      endingUnfunded: "2730000.00",
    });
    // The capital account chart's points up to the quarter's end.
    expect(atlas.chart).toEqual([
      { label: "Q1 2025", start: "2025-01-01", end: "2025-03-31", paidIn: "300000.00", distributed: "0.00", nav: "295000.00" },
      { label: "Q2 2025", start: "2025-04-01", end: "2025-06-30", paidIn: "300000.00", distributed: "45000.00", nav: "285000.00" },
    ]);
    expect(docs[1]).toMatchObject({ shareOfFund: "25.0000", paidInToDate: "100000.00", columns: { quarter: { endingNav: "95000.00", endingUnfunded: "910000.00" } } });
    // Stored as JSON and read back alike.
    expect(JSON.parse(JSON.stringify(atlas))).toEqual(atlas);
  });

  it("a second version lists the rows of the quarter that changed against the first, and is marked restated", () => {
    const first = new Map(statementDocsFor(fundII(), "2025-Q2", options).map((doc) => [doc.entity.id, doc]));
    // The administrator's corrected split of Atlas's Q2: the same NAV, other fees and gains.
    importPnlCsv(admin, fundII(), Q2_PNL(ids, "43500.00", "-8500.00"), null);
    const second = statementDocsFor(fundII(), "2025-Q2", { version: 2, previous: first, publishedOn: "2025-08-01" });
    const atlas = second.find((doc) => doc.entity.id === ids.atlas)!;
    expect(atlas).toMatchObject({ version: 2, restated: true, publishedOn: "2025-08-01" });
    expect(atlas.differences).toEqual([
      { row: "managementFees", previous: "-7500.00", current: "-8500.00" },
      { row: "unrealizedGainChange", previous: "42500.00", current: "43500.00" },
    ]);
    expect(second.find((doc) => doc.entity.id === ids.brunner)).toMatchObject({ restated: true, differences: [] });
    // An entity the previous version did not have is compared with zeros.
    const withoutBrunner = new Map([...first].filter(([id]) => id !== ids.brunner));
    const brunner = statementDocsFor(fundII(), "2025-Q2", { version: 2, previous: withoutBrunner, publishedOn: "2025-08-01" }).find((doc) => doc.entity.id === ids.brunner)!;
    expect(brunner.differences).toContainEqual({ row: "endingNav", previous: "0.00", current: "95000.00" });
    importPnlCsv(admin, fundII(), Q2_PNL(ids), null);
  });
});

describe("noticeDocsFor", () => {
  it("makes a call's notice per entity: the fund's and the investor's figures before it, this notice by type, payment instructions", () => {
    const docs = noticeDocsFor(ids.call2);
    expect(docs.map((d) => d.entity.name)).toEqual(["Atlas Holdings AG", "Brunner Ventures GmbH"]);
    expect(docs[0]).toEqual({
      firmName: "Lumen Ridge Ventures",
      kind: "call",
      fund: { slug: "fund-ii", name: "Deeptech Fund II", currency: "USD" },
      entity: { id: ids.atlas, name: "Atlas Holdings AG" },
      reference: "Call 2",
      noticeDate: "2025-06-16",
      dueOrPaymentDate: "2025-07-15",
      fundSection: {
        // Keller's commitment starts on 2025-08-01: not in force on the notice date.
        totalCommitments: "4000000.00",
        contributionsBefore: "400000.00",
        distributionsBefore: "60000.00",
        thisNotice: [{ type: "investment", amount: "200000.00" }],
      },
      investorSection: {
        commitment: "3000000.00",
        shareOfFund: "75.0000",
        contributionsBefore: "300000.00",
        distributionsBefore: "45000.00",
        thisNotice: [{ type: "investment", amount: "150000.00" }],
        total: "150000.00",
        // 3,000,000 − 450,000 called + 30,000 recallable.
        unfundedAfter: "2580000.00",
      },
      // No payment instructions saved for the fund: none to show, the standing line still.
      paymentInstructions: [],
      standingLine: expect.stringContaining("We never change bank details by e-mail"),
    });
  });

  it("makes a distribution's notice without payment instructions; the first call has nothing before it; a draft or unknown entry has none", () => {
    const [atlas] = noticeDocsFor(ids.distribution1);
    expect(atlas).toMatchObject({
      kind: "distribution",
      reference: "Distribution 1",
      dueOrPaymentDate: "2025-05-15",
      fundSection: { contributionsBefore: "400000.00", distributionsBefore: "0.00" },
      investorSection: {
        contributionsBefore: "300000.00",
        distributionsBefore: "0.00",
        thisNotice: [
          { type: "return_of_capital", amount: "30000.00" },
          { type: "realized_gain", amount: "15000.00" },
        ],
        total: "45000.00",
        unfundedAfter: "2730000.00",
      },
      paymentInstructions: null,
      standingLine: null,
    });
    expect(noticeDocsFor(ids.call1)[1]).toMatchObject({
      fundSection: { contributionsBefore: "0.00", distributionsBefore: "0.00" },
      investorSection: { commitment: "1000000.00", shareOfFund: "25.0000", contributionsBefore: "0.00", total: "100000.00", unfundedAfter: "900000.00" },
    });
    expect(noticeDocsFor("no-such-entry")).toEqual([]);
  });
});
