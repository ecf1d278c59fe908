/**
 * The statement PDF (issue 25 §1, §4; decision 041): made in the worker thread
 * and in process, read back with mutool (mupdf-tools, installed by .ci/run):
 * the entity, fund, quarter, ending NAV and unfunded commitment as formatted
 * (negatives in parentheses), the footnotes and the "Restated" box when they
 * apply, a tagged PDF with its title and language, DejaVu Sans embedded as
 * subsets, one page within the 60 KB budget, and the same bytes for the same
 * statement. The worker: a job that throws rejects its own promise only, jobs
 * queue, and a closed worker starts again.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { once } from "node:events";
import { closePdfWorker, renderPdf, renderPdfInProcess } from "~/modules/pdf/pdf.server";
import { writeStatementPdf } from "~/modules/pdf/statement";
import type { StatementDoc } from "~/modules/statements/types";
import { ENTITY_ID, statementFixture } from "../helpers/pdf-docs";

const work = fs.mkdtempSync(path.join(os.tmpdir(), "pdf-statement-test-"));
let files = 0;

afterAll(async () => {
  await closePdfWorker();
  fs.rmSync(work, { recursive: true, force: true });
});

function save(bytes: Uint8Array): string {
  const file = path.join(work, `statement-${++files}.pdf`);
  fs.writeFileSync(file, bytes);
  return file;
}

const mutool = (...args: string[]) => execFileSync("mutool", args, { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
/** The text as a reader copies it, one line of the page per line. */
const textOf = (file: string) => mutool("draw", "-q", "-F", "txt", "-o", "-", file);
const pagesOf = (file: string) => Number(/Pages: (\d+)/.exec(mutool("info", file))?.[1]);

const statement = (overrides: Partial<StatementDoc> = {}) => renderPdfInProcess({ kind: "statement", doc: statementFixture(overrides) });

describe("a statement PDF", () => {
  it("is made in the worker thread with the entity, fund, quarter and the roll-forward as formatted", async () => {
    const bytes = await renderPdf({ kind: "statement", doc: statementFixture() });
    const file = save(bytes);
    const text = textOf(file);
    expect(text).toContain("Capital account statement");
    expect(text).toContain("Atlas Holdings AG");
    expect(text).toContain(`Investor ID ${ENTITY_ID}`);
    expect(text).toContain("Lumen Ridge Fund II");
    expect(text).toContain("2026-Q3");
    expect(text).toContain("Sep 30, 2026");
    // The columns, and the rows in the words.
    expect(text).toMatch(/2026-Q3\nYear to date\nInception to date/);
    for (const label of ["Beginning NAV", "Management fees (net of offsets)", "Carried interest: change in accrual", "plus commitment increases", "less contributions", "plus recallable distributions"]) {
      expect(text).toContain(label);
    }
    // Ending NAV and unfunded in each column; distributions and "less contributions" shown negative.
    expect(text).toMatch(/Ending NAV\n\$1,950,479\.75\n\$1,950,479\.75\n\$1,950,479\.75/);
    expect(text).toMatch(/Ending unfunded commitment\n\$2,520,000\.00\n\$2,520,000\.00\n\$2,520,000\.00/);
    expect(text).toMatch(/Distributions\n\(\$60,000\.00\)\n\(\$160,000\.00\)\n\(\$210,000\.00\)/);
    expect(text).toMatch(/less contributions\n\(\$250,000\.00\)\n\(\$750,000\.00\)\n\(\$2,500,000\.00\)/);
    expect(text).toMatch(/Management fees \(net of offsets\)\n\(\$12,500\.00\)/);
    // The figures as the capital account page writes them.
    expect(text).toMatch(/Paid in to date\n\$2,500,000\.00/);
    expect(text).toMatch(/Distributed to date\n\$210,000\.00/);
    expect(text).toMatch(/DPI\n0\.08×/);
    expect(text).toMatch(/TVPI\n0\.86×/);
    expect(text).toMatch(/Net IRR\n-7\.1 %/);
    expect(text).toMatch(/Share of the fund\n6\.2500 %/);
    // The chart's legend and axis labels are text; the footer.
    expect(text).toContain("Paid in, distributions and NAV");
    expect(text).toContain("$2.5M");
    expect(text).toContain("Lumen Ridge Ventures · Version 1 · Published Oct 20, 2026");
    // No footnote that does not apply.
    expect(text).not.toContain("Contributions count by due date");
    expect(text).not.toContain("Restated");
    expect(pagesOf(file)).toBe(1);
  });

  it("is the same bytes made twice, in the worker or in process", async () => {
    const [first, second, inWorker] = await Promise.all([statement(), statement(), renderPdf({ kind: "statement", doc: statementFixture() })]);
    expect(Buffer.from(second).equals(Buffer.from(first))).toBe(true);
    expect(Buffer.from(inWorker).equals(Buffer.from(first))).toBe(true);
    // Another publication date changes the info dictionary's dates (and so the file's /ID), nothing else of the page.
    const later = await statement({ publishedOn: "2026-11-02" });
    expect(Buffer.from(later).equals(Buffer.from(first))).toBe(false);
  });

  it("streams the same bytes into a writable stream", async () => {
    const file = path.join(work, "streamed.pdf");
    const out = fs.createWriteStream(file);
    await writeStatementPdf(statementFixture(), out);
    await once(out, "finish");
    expect(fs.readFileSync(file).equals(Buffer.from(await statement()))).toBe(true);
  });

  it("stays within the 60 KB budget on one page, with DejaVu Sans embedded as subsets", async () => {
    const bytes = await statement();
    expect(bytes.byteLength).toBeLessThanOrEqual(60 * 1024);
    const file = save(bytes);
    expect(pagesOf(file)).toBe(1);
    const info = mutool("info", file);
    // A subset's name has a six-letter tag: 'BZZZZZ+DejaVuSans'.
    expect(info).toMatch(/'[A-Z]{6}\+DejaVuSans'/);
    expect(info).toMatch(/'[A-Z]{6}\+DejaVuSans-Bold'/);
    expect(info).not.toMatch(/Helvetica|Times|Courier/);
    // Real text, no picture of it.
    expect(info).not.toContain("Images");
    // Each font of the page carries its file (mutool's paths count from 1).
    const names = [...mutool("show", file, "trailer/Root/Pages/Kids/1/Resources/Font").matchAll(/\/(F\d+) /g)].map((m) => m[1]!);
    expect(names).toHaveLength(2);
    for (const name of names) expect(mutool("show", file, `trailer/Root/Pages/Kids/1/Resources/Font/${name}/DescendantFonts/1/FontDescriptor`)).toMatch(/\/FontFile2 \d+ 0 R/);
  });

  it("is a tagged PDF with its title and language", async () => {
    const file = save(await statement());
    expect(mutool("show", file, "trailer/Root/MarkInfo")).toMatch(/\/Marked true/);
    expect(mutool("show", file, "trailer/Root/Lang")).toContain("(en-GB)");
    expect(mutool("show", file, "trailer/Root/ViewerPreferences")).toMatch(/\/DisplayDocTitle true/);
    expect(mutool("show", file, "trailer/Root/StructTreeRoot")).toContain("/ParentTree");
    expect(mutool("show", file, "trailer/Root/StructTreeRoot/K/1")).toContain("/S /Document");
    // The title, a UTF-16 string: "Capital account statement — Lumen Ridge Fund II — 2026-Q3 — Atlas Holdings AG".
    const hex = /<FEFF([0-9A-F]+)>/.exec(mutool("show", file, "trailer/Info/Title"))?.[1] ?? "";
    expect(Buffer.from(hex, "hex").swap16().toString("utf16le")).toBe("Capital account statement — Lumen Ridge Fund II — 2026-Q3 — Atlas Holdings AG");
    // The structure holds the headings, the tables with header cells, and the chart as a figure with its summary.
    const raw = Buffer.from(await statement()).toString("latin1");
    for (const type of ["/S /H1", "/S /H2", "/S /Table", "/S /TR", "/S /TH", "/S /TD", "/S /Figure"]) expect(raw).toContain(type);
    // The chart's alternative text: the page's summary of it.
    expect(raw).toContain("/Alt (Lumen Ridge Fund II, Atlas Holdings AG, from Q4 2024 to Q3 2026: paid in $2,500,000.00 and distributions $210,000.00");
    expect(raw).toContain("/Scope /Column");
    expect(raw).toContain("/Scope /Row");
  });

  it("writes a negative unfunded commitment in parentheses", async () => {
    const doc = statementFixture();
    doc.columns.quarter = { ...doc.columns.quarter, recallableDistributions: "0.00", lessContributions: "2771250.00", contributions: "2771250.00", endingUnfunded: "-21250.00" };
    const text = textOf(save(await renderPdfInProcess({ kind: "statement", doc })));
    expect(text).toMatch(/Ending unfunded commitment\n\(\$21,250\.00\)/);
  });

  it("writes each amount in the fund's currency", async () => {
    const doc = statementFixture({ fund: { slug: "fund-jp", name: "Lumen Ridge Japan I", currency: "JPY" } });
    for (const key of ["quarter", "yearToDate", "inceptionToDate"] as const) {
      const column = doc.columns[key];
      doc.columns[key] = Object.fromEntries(Object.entries(column).map(([k, v]) => [k, /^-?\d+\.\d\d$/.test(v) ? v.replace(/\.\d\d$/, "") : v])) as typeof column;
    }
    doc.paidInToDate = "2500000";
    doc.distributedToDate = "210000";
    doc.chart = doc.chart.map((p) => ({ ...p, paidIn: p.paidIn.slice(0, -3), distributed: p.distributed.slice(0, -3), nav: p.nav === null ? null : p.nav.slice(0, -3) }));
    const text = textOf(save(await renderPdfInProcess({ kind: "statement", doc })));
    expect(text).toContain("Lumen Ridge Japan I");
    expect(text).toMatch(/Ending NAV\n¥1,950,479\n/);
    expect(text).toMatch(/Distributions\n\(¥60,000\)/);
  });

  it("carries the due-date footnote, 'Since {quarter}', the IRR's note and n/m when they apply", async () => {
    const text = textOf(save(await statement({ callsNoticedNotDue: true, inceptionPartial: true, irr: null, irrNote: "under_one_year", dpi: null })));
    expect(text).toContain("Contributions count by due date.");
    expect(text).toMatch(/2026-Q3\nYear to date\nSince 2024-Q4/);
    expect(text).toContain("Inception to date starts at 2024-Q4");
    expect(text).toMatch(/Net IRR\nn\/m/);
    expect(text).toMatch(/DPI\nn\/m/);
    expect(text).toContain("Not shown in the first year");
  });

  it("is marked Restated, with the differences listed, and still one page", async () => {
    const file = save(
      await statement({
        version: 2,
        restated: true,
        callsNoticedNotDue: true,
        inceptionPartial: true,
        irrNote: "under_one_year",
        differences: [
          { row: "endingNav", previous: "1950000.00", current: "1950479.75" },
          { row: "distributions", previous: "59520.25", current: "60000.00" },
        ],
      }),
    );
    const text = textOf(file);
    expect(text).toMatch(/Capital account statement\nRESTATED/);
    expect(text).toContain("Restated: what changed against version 1");
    expect(text).toMatch(/Ending NAV\n\$1,950,000\.00\n\$1,950,479\.75/);
    // As the table shows them: distributions negative.
    expect(text).toMatch(/Distributions\n\(\$59,520\.25\)\n\(\$60,000\.00\)/);
    expect(text).toContain("Version 2");
    expect(pagesOf(file)).toBe(1);
  });

  it("draws the chart's place when the account has no flow yet", async () => {
    const text = textOf(save(await statement({ chart: [] }))).replace(/\s+/g, " ");
    expect(text).toContain("The chart starts with the first payment, distribution or valuation.");
  });
});

describe("the PDF worker", () => {
  it("rejects a job that throws and goes on with the next", async () => {
    const broken = statementFixture({ fund: { slug: "x", name: "Broken", currency: "usd" } });
    const [failed, made] = await Promise.allSettled([renderPdf({ kind: "statement", doc: broken }), renderPdf({ kind: "statement", doc: statementFixture() })]);
    expect(failed.status).toBe("rejected");
    expect((failed as PromiseRejectedResult).reason).toBeInstanceOf(Error);
    expect(String((failed as PromiseRejectedResult).reason.message)).toContain("ISO 4217");
    expect(made.status).toBe("fulfilled");
    expect(textOf(save((made as PromiseFulfilledResult<Uint8Array>).value))).toContain("Atlas Holdings AG");
  });

  it("queues jobs in order and starts again after it is closed", async () => {
    const names = ["Entity A", "Entity B", "Entity C", "Entity D"];
    const made = await Promise.all(names.map((name) => renderPdf({ kind: "statement", doc: statementFixture({ entity: { id: name, name } }) })));
    made.forEach((bytes, i) => expect(textOf(save(bytes))).toContain(names[i]));
    await closePdfWorker();
    const again = await renderPdf({ kind: "statement", doc: statementFixture() });
    expect(textOf(save(again))).toContain("Atlas Holdings AG");
  });
});
