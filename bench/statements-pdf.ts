/**
 * One statement PDF, measured (issue 25 §4, decision 041): its size against
 * the 60 KB budget, and the time to make it, in process and through the PDF
 * worker thread. Not a part of `npm run bench` (bench/statements.ts measures
 * publishing 2,000 statements on the server); run it on its own:
 *
 *   npx tsx bench/statements-pdf.ts            (N = 200)
 *   BUILD_DIR=build-b npx tsx bench/statements-pdf.ts
 *
 *   1. Sizes: a one-page statement, a restated one (its box of differences),
 *      a call notice and a distribution notice (tests/helpers/pdf-docs.ts).
 *   2. In process (renderPdfInProcess): 20 to warm up, then N statements one
 *      after the other: mean, p50 and p95 per statement.
 *   3. The worker from the sources (renderPdf, as Vitest and the dev server
 *      run it): the first statement (the thread's start-up, tsx, the fonts),
 *      then N awaited one by one, then N queued at once (throughput); the
 *      process's peak RSS growth over its RSS before the worker.
 *   4. When BUILD_DIR/server/pdf-worker.js exists (default build/): the same
 *      through the compiled worker, as the production server runs it.
 */
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { closePdfWorker, renderPdf, renderPdfInProcess, type PdfJob } from "~/modules/pdf/pdf.server";
import type { PdfWorkerReply } from "~/modules/pdf/worker";
import { callNoticeFixture, distributionNoticeFixture, statementFixture } from "../tests/helpers/pdf-docs";
import { kb, num, passFail, table } from "./format";

const N = Number(process.env.N ?? 200);
const BUDGET_BYTES = 60 * 1024;

const statementJob = (i: number): PdfJob => ({ kind: "statement", doc: statementFixture({ entity: { id: `entity-${i}`, name: `Entity ${i} Holdings AG` } }) });

function stats(ms: number[]) {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return { mean: ms.reduce((a, b) => a + b, 0) / ms.length, p50: at(0.5), p95: at(0.95) };
}

/** Samples the process's RSS every 20 ms while `run` runs; the peak. */
async function peakRss<T>(run: () => Promise<T>): Promise<{ result: T; peak: number }> {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  try {
    const result = await run();
    return { result, peak: Math.max(peak, process.memoryUsage().rss) };
  } finally {
    clearInterval(timer);
  }
}

async function timeEach(render: (job: PdfJob) => Promise<Uint8Array>, count: number): Promise<number[]> {
  const ms: number[] = [];
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    await render(statementJob(i));
    ms.push(performance.now() - start);
  }
  return ms;
}

async function timeQueued(render: (job: PdfJob) => Promise<Uint8Array>, count: number): Promise<number> {
  const start = performance.now();
  await Promise.all(Array.from({ length: count }, (_, i) => render(statementJob(i))));
  return (performance.now() - start) / count;
}

/** A driver for the compiled worker file, speaking pdf.server.ts's protocol (one job at a time). */
function compiledWorker(file: string) {
  const worker = new Worker(pathToFileURL(file), { resourceLimits: { maxOldGenerationSizeMb: 128, maxYoungGenerationSizeMb: 8 } });
  let id = 0;
  let chain: Promise<unknown> = Promise.resolve();
  const send = (job: PdfJob) =>
    new Promise<Uint8Array>((resolve, reject) => {
      const mine = ++id;
      const onMessage = (reply: PdfWorkerReply) => {
        if (reply.id !== mine) return;
        worker.off("message", onMessage);
        if (reply.ok) resolve(new Uint8Array(reply.bytes));
        else reject(new Error(reply.message));
      };
      worker.on("message", onMessage);
      worker.postMessage({ id: mine, job });
    });
  const render = (job: PdfJob) => {
    const next = chain.then(() => send(job));
    chain = next.catch(() => {});
    return next;
  };
  return { render, close: () => worker.terminate() };
}

async function main() {
  console.log(`Statement PDF (N = ${num(N)})\n`);

  // 1. Sizes.
  const sized: [string, PdfJob][] = [
    ["Statement (one page)", { kind: "statement", doc: statementFixture() }],
    [
      "Statement, restated",
      {
        kind: "statement",
        doc: statementFixture({
          version: 2,
          restated: true,
          callsNoticedNotDue: true,
          inceptionPartial: true,
          differences: [
            { row: "endingNav", previous: "1950000.00", current: "1950479.75" },
            { row: "unrealizedGainChange", previous: "-48729.75", current: "-48250.00" },
          ],
        }),
      },
    ],
    ["Call notice", { kind: "notice", doc: callNoticeFixture() }],
    ["Distribution notice", { kind: "notice", doc: distributionNoticeFixture() }],
  ];
  const rows: string[][] = [];
  let statementBytes = 0;
  for (const [label, job] of sized) {
    const bytes = (await renderPdfInProcess(job)).byteLength;
    if (label === "Statement (one page)") statementBytes = bytes;
    rows.push([label, num(bytes), kb(bytes)]);
  }
  console.log(table(["PDF", ">Bytes", ">Size"], rows));
  console.log(`  One-page statement ≤ 60 KB: ${passFail(statementBytes <= BUDGET_BYTES)} (${kb(statementBytes)})\n`);

  // 2. In process.
  await timeEach(renderPdfInProcess, 20);
  const inProcess = stats(await timeEach(renderPdfInProcess, N));

  // 3. The worker from the sources.
  const rssBefore = process.memoryUsage().rss;
  const firstStart = performance.now();
  await renderPdf(statementJob(0));
  const firstMs = performance.now() - firstStart;
  const sourceRun = await peakRss(async () => ({ each: stats(await timeEach(renderPdf, N)), queued: await timeQueued(renderPdf, N) }));
  await closePdfWorker();

  const results: string[][] = [
    ["In process", num(inProcess.mean, 1), num(inProcess.p50, 1), num(inProcess.p95, 1), "—", "—", "—"],
    [
      "Worker (sources, tsx)",
      num(sourceRun.result.each.mean, 1),
      num(sourceRun.result.each.p50, 1),
      num(sourceRun.result.each.p95, 1),
      num(sourceRun.result.queued, 1),
      num(firstMs, 0),
      `+${num((sourceRun.peak - rssBefore) / 1024 / 1024, 0)} MB`,
    ],
  ];

  // 4. The compiled worker.
  const built = path.resolve(process.env.BUILD_DIR ?? "build", "server/pdf-worker.js");
  if (fs.existsSync(built)) {
    const before = process.memoryUsage().rss;
    const worker = compiledWorker(built);
    const start = performance.now();
    await worker.render(statementJob(0));
    const first = performance.now() - start;
    const run = await peakRss(async () => ({ each: stats(await timeEach(worker.render, N)), queued: await timeQueued(worker.render, N) }));
    await worker.close();
    results.push([
      `Worker (${path.relative(process.cwd(), built)})`,
      num(run.result.each.mean, 1),
      num(run.result.each.p50, 1),
      num(run.result.each.p95, 1),
      num(run.result.queued, 1),
      num(first, 0),
      `+${num((run.peak - before) / 1024 / 1024, 0)} MB`,
    ]);
  } else {
    console.log(`  (${built} does not exist: build first to measure the compiled worker)\n`);
  }
  console.log(table(["Made", ">Mean ms", ">p50 ms", ">p95 ms", ">Queued ms/PDF", ">First ms", ">Peak RSS"], results));
  console.log("\n  Mean, p50, p95: one statement awaited at a time. Queued: N sent at once, time ÷ N. First: the worker's start-up and first PDF.");
}

await main();
