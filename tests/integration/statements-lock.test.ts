import { beforeAll, describe, expect, it } from "vitest";
import { createCommitment, raiseCommitment } from "~/modules/commitments/commitments.server";
import { createEntity } from "~/modules/entities/entities.server";
import { AppError } from "~/modules/http/app-error";
import { draftCall, draftDistribution, publishEntry, recordPayment, redraftEntry } from "~/modules/ledger/ledger.server";
import { publishQuarter, reopenQuarter } from "~/modules/statements/publish.server";
import { importValuations } from "~/modules/valuations/valuations.server";
import { getDb } from "~/modules/db/connection.server";
import { commitments } from "../../db/schema";
import { eq } from "drizzle-orm";
import { publishingFixture, putPnl, type PublishingFixture } from "../helpers/publishing";

/**
 * A published quarter is closed (issue 25 §2, decision 041): a payment,
 * valuation, commitment (acceptance, raise), call (notice or due date) or
 * distribution dated inside it is a 409 naming the quarter; "Restate"
 * reopens it and the same changes go through; a quarter not published takes
 * them all along.
 */

let f: PublishingFixture;
let keller: string;
let kellerCommitment: string;
let draftInQ1: string;
let draftToMove: string;

/** The AppError a call throws (fails the test when it does not throw). */
function refusal(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error("expected a refusal");
}

/** A 409 naming the quarter (and, for a form, shown at the date's field). */
const closed = (run: () => unknown, field?: string) => {
  const error = refusal(run);
  expect(error.status, error.message).toBe(409);
  expect(error.message).toContain("2025-Q1 is published");
  expect(error.message).toMatch(/restate/i);
  if (field) expect(error.options.fields?.[field]).toEqual([error.message]);
};

beforeAll(async () => {
  f = await publishingFixture();
  keller = createEntity(f.admin, { name: "Keller Pension Fund", kind: "foundation", members: [{ userId: f.otto.id, role: "owner" }] }).id;
  // Keller commits in Q2 (not published), so its raise and acceptance can be tried on either side.
  kellerCommitment = createCommitment(f.admin, { entityId: keller, fund: f.fund.slug, amount: "500000.00", acceptedOn: "2025-04-10" }).id;
  // Drafts made before the quarter is published: publishing them (or moving one into Q1) is dated inside it.
  draftInQ1 = draftDistribution(f.admin, { fund: f.fund.slug, paymentDate: "2025-03-20", lines: [{ type: "return_of_capital", amount: "1000.00" }] }).id;
  draftToMove = draftCall(f.admin, { fund: f.fund.slug, noticeDate: "2025-05-02", dueDate: "2025-05-30", lines: [{ type: "investment", amount: "1000.00" }] }).id;
  publishQuarter(f.admin, f.fund, "2025-Q1");
});

describe("a change dated inside a published quarter", () => {
  it("is a 409 for a payment received in it", () => {
    closed(() => recordPayment(f.admin, f.callId, { entityId: f.atlas, amount: "1000.00", receivedOn: "2025-03-10" }), "receivedOn");
  });

  it("is a 409 for valuations at a date in it", () => {
    closed(() => importValuations(f.admin, { fund: f.fund.slug, date: "2025-03-31", values: [{ entityId: f.atlas, nav: "1.00" }] }), "date");
  });

  it("is a 409 for a commitment accepted in it, and for a raise effective in it", () => {
    const late = createEntity(f.admin, { name: "Late Capital SA", kind: "company", members: [{ userId: f.otto.id, role: "owner" }] }).id;
    closed(() => createCommitment(f.admin, { entityId: late, fund: f.fund.slug, amount: "100000.00", acceptedOn: "2025-02-01" }), "acceptedOn");
    expect(getDb().select().from(commitments).where(eq(commitments.entityId, late)).all()).toHaveLength(0);
    const atlasCommitment = getDb().select().from(commitments).where(eq(commitments.entityId, f.atlas)).get()!.id;
    closed(() => raiseCommitment(f.admin, atlasCommitment, { amount: "3500000.00", effectiveOn: "2025-03-01" }), "effectiveOn");
  });

  it("is a 409 for a call drafted with its notice or its due date in it, and a distribution paid in it", () => {
    closed(() => draftCall(f.admin, { fund: f.fund.slug, noticeDate: "2025-03-02", dueDate: "2025-04-15", lines: [{ type: "investment", amount: "1000.00" }] }), "noticeDate");
    closed(() => draftCall(f.admin, { fund: f.fund.slug, noticeDate: "2024-12-20", dueDate: "2025-01-10", lines: [{ type: "investment", amount: "1000.00" }] }), "dueDate");
    closed(() => draftDistribution(f.admin, { fund: f.fund.slug, paymentDate: "2025-03-15", lines: [{ type: "income", amount: "1000.00" }] }), "paymentDate");
  });

  it("is a 409 for a draft moved into it, and for publishing a draft dated in it", () => {
    closed(() =>
      redraftEntry(f.admin, draftToMove, {
        kind: "call",
        input: { fund: f.fund.slug, noticeDate: "2025-03-03", dueDate: "2025-03-31", lines: [{ type: "investment", amount: "1000.00" }] },
      }),
    );
    closed(() => publishEntry(f.admin, draftInQ1, "distribution"));
  });
});

describe("a quarter not published", () => {
  it("takes dated changes as before", () => {
    expect(recordPayment(f.admin, f.callId, { entityId: f.atlas, amount: "1000.00", receivedOn: "2025-04-02" }).receivedOn).toBe("2025-04-02");
    expect(raiseCommitment(f.admin, kellerCommitment, { amount: "600000.00", effectiveOn: "2025-05-01" }).amount).toBe("600000.00");
    expect(importValuations(f.admin, { fund: f.fund.slug, date: "2025-06-30", values: [{ entityId: keller, nav: "0.00" }] }).count).toBe(1);
    expect(publishEntry(f.admin, draftToMove, "call").changed).toBe(true);
  });
});

describe("a restated (reopened) quarter", () => {
  it("takes every change again once Restate reopened it, and is closed again when the next version is published", () => {
    reopenQuarter(f.admin, f.fund, "2025-Q1");
    expect(refusal(() => reopenQuarter(f.admin, f.fund, "2025-Q1")).status).toBe(409);
    expect(recordPayment(f.admin, f.callId, { entityId: f.brunner, amount: "100.00", receivedOn: "2025-03-10" }).receivedOn).toBe("2025-03-10");
    expect(draftCall(f.admin, { fund: f.fund.slug, noticeDate: "2025-03-02", dueDate: "2025-04-15", lines: [{ type: "investment", amount: "1000.00" }] }).status).toBe("draft");
    // The distribution of 1,000.00 (Atlas 750, Brunner 250) and the NAVs that follow from it.
    expect(publishEntry(f.admin, draftInQ1, "distribution").changed).toBe(true);
    expect(
      importValuations(f.admin, {
        fund: f.fund.slug,
        date: "2025-03-31",
        values: [
          { entityId: f.atlas, nav: "289250.00" },
          { entityId: f.brunner, nav: "95750.00" },
        ],
      }).count,
    ).toBe(2);
    const late = createEntity(f.admin, { name: "Late Capital SA 2", kind: "company", members: [{ userId: f.otto.id, role: "owner" }] }).id;
    expect(createCommitment(f.admin, { entityId: late, fund: f.fund.slug, amount: "100000.00", acceptedOn: "2025-03-25" }).acceptedOn).toBe("2025-03-25");
    const atlasCommitment = getDb().select().from(commitments).where(eq(commitments.entityId, f.atlas)).get()!.id;
    expect(raiseCommitment(f.admin, atlasCommitment, { amount: "3100000.00", effectiveOn: "2025-03-28" }).amount).toBe("3100000.00");
    importValuations(f.admin, { fund: f.fund.slug, date: "2025-03-31", values: [{ entityId: late, nav: "0.00" }] });
    putPnl(f.fund, "2025-Q1", late, {});

    expect(publishQuarter(f.admin, f.fund, "2025-Q1").version).toBe(2);
    closed(() => recordPayment(f.admin, f.callId, { entityId: f.brunner, amount: "100.00", receivedOn: "2025-03-11" }));
  });
});
