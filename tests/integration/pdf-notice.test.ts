/**
 * The notice PDFs (issue 25 §3, §4): a capital call's and a distribution's
 * notice to one entity in the ILPA layout, read back with mutool: the header
 * (fund, entity and investor id, notice number and date, due or payment
 * date, currency), the fund's section and the investor's with their figures
 * as formatted (negatives in parentheses), a call's payment instructions with
 * the standing line; tagged, titled, one page, the same bytes twice.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { renderPdfInProcess } from "~/modules/pdf/pdf.server";
import type { NoticeDoc } from "~/modules/statements/types";
import { ENTITY_ID, callNoticeFixture, distributionNoticeFixture } from "../helpers/pdf-docs";

const work = fs.mkdtempSync(path.join(os.tmpdir(), "pdf-notice-test-"));
let files = 0;

afterAll(() => {
  fs.rmSync(work, { recursive: true, force: true });
});

const mutool = (...args: string[]) => execFileSync("mutool", args, { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });

async function render(doc: NoticeDoc): Promise<{ bytes: Uint8Array; file: string; text: string }> {
  const bytes = await renderPdfInProcess({ kind: "notice", doc });
  const file = path.join(work, `notice-${++files}.pdf`);
  fs.writeFileSync(file, bytes);
  return { bytes, file, text: mutool("draw", "-q", "-F", "txt", "-o", "-", file) };
}

describe("a capital call notice PDF", () => {
  it("has the header, the fund's and the investor's sections as formatted", async () => {
    const { text, file } = await render(callNoticeFixture());
    // Header.
    expect(text).toContain("Capital call notice");
    expect(text).toContain("Lumen Ridge Fund II · Call 3");
    expect(text).toMatch(/Entity\nAtlas Holdings AG/);
    expect(text).toMatch(new RegExp(`Investor ID\\n${ENTITY_ID}`));
    expect(text).toMatch(/Notice\nCall 3/);
    expect(text).toMatch(/Notice date\nSep 15, 2026/);
    expect(text).toMatch(/Due date\nOct 15, 2026/);
    expect(text).toMatch(/Currency\nUSD/);
    expect(text).toMatch(/Amount due\n\$250,000\.00/);
    expect(text).toContain("Due Oct 15, 2026");
    // The fund.
    expect(text).toMatch(/Total commitments\n\$80,000,000\.00/);
    expect(text).toMatch(/Cumulative contributions before this notice\n\$36,000,000\.00/);
    expect(text).toMatch(/Cumulative distributions before this notice\n\$2,400,000\.00/);
    expect(text).toMatch(/Investment\n\$3,600,000\.00\n/);
    expect(text).toMatch(/Management fee\n\$400,000\.00/);
    expect(text).toMatch(/Total of this notice\n\$4,000,000\.00/);
    // The investor.
    expect(text).toContain("Your investment: Atlas Holdings AG");
    expect(text).toMatch(/Commitment\n\$5,000,000\.00/);
    expect(text).toMatch(/Share of the fund\n6\.2500 %/);
    expect(text).toMatch(/Cumulative contributions before this notice\n\$2,250,000\.00/);
    expect(text).toMatch(/Investment\n\$225,000\.00\n/);
    expect(text).toMatch(/Management fee\n\$25,000\.00/);
    expect(text).toMatch(/Amount due\n\$250,000\.00\n\nUnfunded commitment after this notice\n\$2,520,000\.00/);
    expect(Number(/Pages: (\d+)/.exec(mutool("info", file))?.[1])).toBe(1);
  });

  it("gives the payment instructions and the standing line", async () => {
    const { text } = await render(callNoticeFixture());
    expect(text).toContain("Payment instructions");
    expect(text).toContain("Please pay $250,000.00 by Oct 15, 2026, to this account:");
    expect(text).toMatch(/Beneficiary\nLumen Ridge Fund II SCSp/);
    expect(text).toMatch(/Bank\nZürcher Kantonalbank, Zurich/);
    expect(text).toMatch(/IBAN\nCH93 0076 2011 6238 5295 7/);
    expect(text).toMatch(/Reference\nLRF2 Call 3 Atlas Holdings AG/);
    expect(text).toContain("Bank details never change by e-mail");
    expect(text.replace(/\s+/g, " ")).toContain("We never send bank details by e-mail and never change them by e-mail. If a message asks you to pay into another account, call us before you pay.");
  });

  it("says where the instructions are when the fund has none yet", async () => {
    const { text } = await render(callNoticeFixture({ paymentInstructions: null }));
    expect(text.replace(/\s+/g, " ")).toContain("The payment instructions are on this notice's page in the investor portal.");
    expect(text).not.toContain("IBAN");
  });

  it("writes a negative line in parentheses", async () => {
    const doc = callNoticeFixture();
    doc.investorSection.thisNotice = [
      { type: "investment", amount: "225000.00" },
      { type: "management_fee", amount: "-5000.00" },
    ];
    doc.investorSection.total = "220000.00";
    const { text } = await render(doc);
    expect(text).toMatch(/Management fee\n\(\$5,000\.00\)/);
    expect(text).toMatch(/Amount due\n\$220,000\.00/);
  });

  it("is tagged with its title and language, subset fonts, within budget, the same bytes twice", async () => {
    const first = await render(callNoticeFixture());
    const second = await render(callNoticeFixture());
    expect(Buffer.from(second.bytes).equals(Buffer.from(first.bytes))).toBe(true);
    expect(first.bytes.byteLength).toBeLessThanOrEqual(60 * 1024);
    expect(mutool("show", first.file, "trailer/Root/MarkInfo")).toMatch(/\/Marked true/);
    expect(mutool("show", first.file, "trailer/Root/Lang")).toContain("(en-GB)");
    const hex = /<FEFF([0-9A-F]+)>/.exec(mutool("show", first.file, "trailer/Info/Title"))?.[1] ?? "";
    expect(Buffer.from(hex, "hex").swap16().toString("utf16le")).toBe("Capital call notice — Lumen Ridge Fund II — Call 3 — Atlas Holdings AG");
    const info = mutool("info", first.file);
    expect(info).toMatch(/'[A-Z]{6}\+DejaVuSans'/);
    expect(info).toMatch(/'[A-Z]{6}\+DejaVuSans-Bold'/);
    const raw = Buffer.from(first.bytes).toString("latin1");
    for (const type of ["/S /H1", "/S /H2", "/S /Table", "/S /TH", "/S /TD"]) expect(raw).toContain(type);
  });
});

describe("a distribution notice PDF", () => {
  it("has the payment date, the amount payable, its lines, and no payment instructions", async () => {
    const { text, file } = await render(distributionNoticeFixture());
    expect(text).toContain("Distribution notice");
    expect(text).toContain("Lumen Ridge Fund II · Distribution 2");
    expect(text).toMatch(/Entity\nAtlas Holdings AG/);
    expect(text).toMatch(/Notice\nDistribution 2/);
    expect(text).toMatch(/Payment date\nAug 28, 2026/);
    expect(text).toMatch(/Amount payable to you\n\$60,000\.00/);
    expect(text).toContain("Payable on Aug 28, 2026");
    expect(text).toMatch(/Return of capital\n\$640,000\.00/);
    expect(text).toMatch(/Realized gain\n\$320,000\.00/);
    expect(text).toMatch(/Total of this notice\n\$960,000\.00/);
    expect(text).toMatch(/Return of capital\n\$40,000\.00/);
    expect(text).toMatch(/Amount payable\n\$60,000\.00/);
    expect(text).toMatch(/Unfunded commitment after this notice\n\$2,770,000\.00/);
    expect(text).not.toContain("Payment instructions");
    expect(text).not.toContain("Due date");
    const hex = /<FEFF([0-9A-F]+)>/.exec(mutool("show", file, "trailer/Info/Title"))?.[1] ?? "";
    expect(Buffer.from(hex, "hex").swap16().toString("utf16le")).toBe("Distribution notice — Lumen Ridge Fund II — Distribution 2 — Atlas Holdings AG");
  });
});
