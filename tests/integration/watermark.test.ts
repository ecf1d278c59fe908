/**
 * Watermarked PDFs (issue 15 §3, decision 024): the stamp on every page whatever
 * its size and rotation, the stored file untouched, refusals at upload, and the
 * bounded stamping queue. Needs `qpdf` and `mutool` (mupdf-tools); .ci/run
 * installs both. Text is read with `mutool draw -F stext` (pdftotext splits
 * diagonal text), which also gives each line's direction and position on screen.
 */
import { execFileSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import {
  concatTransformationMatrix,
  degrees,
  drawObject,
  PageSizes,
  PDFDocument,
  popGraphicsState,
  pushGraphicsState,
  StandardFonts,
} from "pdf-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { watermarkCopy } from "~/content/watermark";
import { resetEnvForTests } from "~/modules/config/env.server";
import { AppError } from "~/modules/http/app-error";
import { assertStampable, stampPdf, watermarkQueueState, type StampFor } from "~/modules/watermark/watermark.server";

const work = fs.mkdtempSync(path.join(os.tmpdir(), "watermark-test-"));
// The module's temporary folders go here, so the test can see that none is left behind.
const scratch = path.join(work, "tmp");
fs.mkdirSync(scratch);
const previousTmpdir = process.env.TMPDIR;
process.env.TMPDIR = scratch;

const ZOE: StampFor = { name: "Zoë Łukasiewicz", email: "zoe@example.com", at: new Date("2026-11-25T19:30:42.123Z") };
const RECIPIENT = "Zoë Łukasiewicz <zoe@example.com>";
const WHEN = "2026-11-25 19:30 UTC";

beforeAll(() => {
  process.env.WATERMARK_CONCURRENCY = "1";
  resetEnvForTests();
});

afterAll(() => {
  if (previousTmpdir === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = previousTmpdir;
  delete process.env.WATERMARK_CONCURRENCY;
  resetEnvForTests();
  fs.rmSync(work, { recursive: true, force: true });
});

// ---------------------------------------------------------------- fixtures

type PageSpec = { size: [number, number]; rotate?: number; cropBox?: [number, number, number, number] };

async function makePdf(name: string, pages: PageSpec[], { imageBytes = 0 } = {}): Promise<string> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  pages.forEach((spec, index) => {
    const page = doc.addPage(spec.size);
    const [, height] = spec.size;
    page.drawText(`Original content of page ${index + 1}`, { x: 40, y: height - 60, size: 14, font });
    if (spec.cropBox) page.setCropBox(...spec.cropBox);
    if (spec.rotate) page.setRotation(degrees(spec.rotate));
    if (imageBytes > 0) {
      // Noise does not compress: the stamped copy is then as large as this, too large to sit in the pipes.
      const side = Math.ceil(Math.sqrt(imageBytes / pages.length / 3));
      const image = doc.context.register(
        doc.context.flateStream(randomBytes(side * side * 3), {
          Type: "XObject",
          Subtype: "Image",
          Width: side,
          Height: side,
          ColorSpace: "DeviceRGB",
          BitsPerComponent: 8,
        }),
      );
      const imageName = page.node.newXObject("Im", image);
      page.pushOperators(pushGraphicsState(), concatTransformationMatrix(200, 0, 0, 200, 40, 100), drawObject(imageName), popGraphicsState());
    }
  });
  const file = path.join(work, name);
  fs.writeFileSync(file, await doc.save());
  return file;
}

const A4 = PageSizes.A4 as [number, number];
const LETTER = PageSizes.Letter as [number, number];
const LETTER_LANDSCAPE: [number, number] = [LETTER[1], LETTER[0]];

function sha256(file: string): string {
  return createHash("sha256").update(fs.readFileSync(file)).digest("hex");
}

async function stampToFile(input: string, who: StampFor = ZOE): Promise<string> {
  const output = path.join(work, `${path.basename(input, ".pdf")}-${randomBytes(4).toString("hex")}.stamped.pdf`);
  await pipeline(await stampPdf(input, who), fs.createWriteStream(output));
  return output;
}

type Line = { text: string; x0: number; y0: number; x1: number; y1: number; dir: [number, number] };
type Page = { width: number; height: number; lines: Line[]; text: string };

function unescapeXml(text: string): string {
  return text
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&amp;/g, "&");
}

/** Each page as mutool sees it on screen (rotation applied): its size, text lines, their boxes and directions. */
function readPages(file: string): Page[] {
  const xml = execFileSync("mutool", ["draw", "-q", "-F", "stext", "-o", "-", file], {
    maxBuffer: 256 * 1024 * 1024,
    stdio: ["ignore", "pipe", "pipe"],
  }).toString("utf8");
  return xml
    .split("<page ")
    .slice(1)
    .map((pageXml) => {
      const size = /width="([\d.]+)" height="([\d.]+)"/.exec(pageXml)!;
      const lines = [...pageXml.matchAll(/<line bbox="([^"]+)"[^>]*dir="([^"]+)">([\s\S]*?)<\/line>/g)].map((match) => {
        const [x0, y0, x1, y1] = match[1]!.split(" ").map(Number) as [number, number, number, number];
        const [dx, dy] = match[2]!.split(" ").map(Number) as [number, number];
        const text = [...match[3]!.matchAll(/ c="([^"]*)"/g)].map((c) => unescapeXml(c[1]!)).join("");
        return { text, x0, y0, x1, y1, dir: [dx, dy] as [number, number] };
      });
      return { width: Number(size[1]), height: Number(size[2]), lines, text: lines.map((line) => line.text).join("\n") };
    });
}

function pageCount(file: string): number {
  return Number(execFileSync("qpdf", ["--show-npages", file]).toString().trim());
}

/** The stamp's lines on a page: they must run along the page's diagonal (bottom left to top right) through its centre. */
function expectDiagonalStamp(page: Page, who = { recipient: RECIPIENT, when: WHEN }) {
  const stamp = page.lines.filter((line) => [watermarkCopy.stamp.title, who.recipient, who.when].includes(line.text.trim()));
  expect(stamp.map((line) => line.text.trim()).sort()).toEqual([watermarkCopy.stamp.title, who.recipient, who.when].sort());
  const diagonal = Math.hypot(page.width, page.height);
  // Screen coordinates: y grows downwards, so "up and to the right" is (+x, −y).
  const expected = [page.width / diagonal, -page.height / diagonal];
  for (const line of stamp) {
    expect(line.dir[0]).toBeCloseTo(expected[0]!, 1);
    expect(line.dir[1]).toBeCloseTo(expected[1]!, 1);
  }
  const centreX = (Math.min(...stamp.map((l) => l.x0)) + Math.max(...stamp.map((l) => l.x1))) / 2;
  const centreY = (Math.min(...stamp.map((l) => l.y0)) + Math.max(...stamp.map((l) => l.y1))) / 2;
  expect(Math.abs(centreX - page.width / 2)).toBeLessThan(diagonal * 0.03);
  expect(Math.abs(centreY - page.height / 2)).toBeLessThan(diagonal * 0.03);
  // Inside the page, not beyond its edges.
  for (const line of stamp) {
    expect(line.x0).toBeGreaterThanOrEqual(0);
    expect(line.y0).toBeGreaterThanOrEqual(0);
    expect(line.x1).toBeLessThanOrEqual(page.width);
    expect(line.y1).toBeLessThanOrEqual(page.height);
  }
}

function leftoverWorkDirs(): string[] {
  return fs.readdirSync(scratch).filter((name) => name.startsWith("lumen-watermark-"));
}

/** qpdf processes reading `file` (from /proc: this machine only, read-only). */
function qpdfProcessesReading(file: string): number[] {
  const pids: number[] = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const argv = fs.readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0");
      if (path.basename(argv[0] ?? "") === "qpdf" && argv.includes(file)) pids.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return pids;
}

function closed(stream: Readable): Promise<void> {
  return new Promise((resolve) => (stream.closed ? resolve() : stream.once("close", () => resolve())));
}

async function expectRefused(file: string, message: string) {
  const error = await assertStampable(file).then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AppError);
  const appError = error as AppError;
  expect(appError.code).toBe("bad_request");
  expect(appError.status).toBe(400);
  expect(appError.message).toBe(message);
  expect(appError.options.fields).toEqual({ file: [message] });
}

// ---------------------------------------------------------------- stamping

describe("stampPdf", () => {
  it("stamps every page along its diagonal: A4, Letter landscape, pages turned 90°, 180° and 270°, a cropped page", async () => {
    const input = await makePdf("mixed.pdf", [
      { size: A4 },
      { size: LETTER_LANDSCAPE },
      { size: A4, rotate: 90 },
      { size: LETTER, rotate: 270 },
      { size: PageSizes.A5 as [number, number], rotate: 180 },
      { size: A4, cropBox: [100, 150, 300, 400] },
      { size: A4 },
    ]);
    const before = sha256(input);
    const output = await stampToFile(input);

    expect(sha256(input)).toBe(before);
    expect(pageCount(output)).toBe(7);
    const pages = readPages(output);
    expect(pages).toHaveLength(7);
    // As shown: rotation swaps width and height, the crop box is the page.
    expect(pages.map((page) => [Math.round(page.width), Math.round(page.height)])).toEqual([
      [595, 842],
      [792, 612],
      [842, 595],
      [792, 612],
      [420, 595],
      [300, 400],
      [595, 842],
    ]);
    pages.forEach((page, index) => {
      expect(page.text).toContain(watermarkCopy.stamp.title);
      expect(page.text).toContain(RECIPIENT);
      expect(page.text).toContain(WHEN);
      if (index !== 5) expect(page.text).toContain(`Original content of page ${index + 1}`);
      expectDiagonalStamp(page);
    });
  });

  it("stamps all 30 pages of a longer document and leaves the stored file as it was", async () => {
    const input = await makePdf(
      "thirty.pdf",
      Array.from({ length: 30 }, () => ({ size: A4 })),
    );
    const before = sha256(input);
    const sizeBefore = fs.statSync(input).size;
    const output = await stampToFile(input);

    expect(sha256(input)).toBe(before);
    expect(fs.statSync(input).size).toBe(sizeBefore);
    expect(pageCount(output)).toBe(30);
    const pages = readPages(output);
    expect(pages).toHaveLength(30);
    pages.forEach((page, index) => {
      expect(page.text).toContain("Confidential");
      expect(page.text).toContain("zoe@example.com");
      expect(page.text).toContain(`Original content of page ${index + 1}`);
      expectDiagonalStamp(page);
    });
    expect(watermarkQueueState()).toEqual({ running: 0, queued: 0 });
  });

  it("writes names in other scripts as real text, and keeps line breaks out of the stamp", async () => {
    const input = await makePdf("unicode.pdf", [{ size: A4 }]);
    const who: StampFor = { name: "Ζωή\nМирошниченко-Łukasiewicz", email: "zoe.m@example.com", at: new Date("2027-01-02T03:04:05Z") };
    const pages = readPages(await stampToFile(input, who));
    expect(pages[0]!.text).toContain("Ζωή Мирошниченко-Łukasiewicz <zoe.m@example.com>");
    expectDiagonalStamp(pages[0]!, { recipient: "Ζωή Мирошниченко-Łukasiewicz <zoe.m@example.com>", when: "2027-01-02 03:04 UTC" });
  });

  it("fails with a plain Error (not an AppError: the file was accepted) when qpdf cannot read the file, and frees the slot", async () => {
    const broken = path.join(work, "broken-at-download.pdf");
    fs.writeFileSync(broken, "%PDF-1.7\n" + "x".repeat(4000));
    const error = await stampPdf(broken, ZOE).then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(AppError);
    expect(watermarkQueueState()).toEqual({ running: 0, queued: 0 });
  });
});

// ---------------------------------------------------------------- assertStampable

describe("assertStampable", () => {
  it("accepts ordinary PDFs, rotated pages included", async () => {
    await expect(assertStampable(await makePdf("ok.pdf", [{ size: A4 }, { size: LETTER, rotate: 90 }]))).resolves.toBeUndefined();
  });

  it("refuses encrypted PDFs, with a user password or with only an owner password", async () => {
    const plain = await makePdf("to-encrypt.pdf", [{ size: A4 }]);
    const withPassword = path.join(work, "encrypted-user.pdf");
    const ownerOnly = path.join(work, "encrypted-owner.pdf");
    execFileSync("qpdf", ["--encrypt", "u", "o", "256", "--", plain, withPassword]);
    execFileSync("qpdf", ["--encrypt", "", "o", "256", "--", plain, ownerOnly]);
    await expectRefused(withPassword, watermarkCopy.messages.encrypted);
    await expectRefused(ownerOnly, watermarkCopy.messages.encrypted);
  });

  it("refuses a truncated PDF and garbage behind a PDF header", async () => {
    const whole = fs.readFileSync(await makePdf("whole.pdf", Array.from({ length: 5 }, () => ({ size: A4 }))));
    const truncated = path.join(work, "truncated.pdf");
    fs.writeFileSync(truncated, whole.subarray(0, Math.floor(whole.length * 0.6)));
    const garbage = path.join(work, "garbage.pdf");
    fs.writeFileSync(garbage, Buffer.concat([Buffer.from("%PDF-1.7\n"), randomBytes(20_000)]));
    await expectRefused(truncated, watermarkCopy.messages.unreadable);
    await expectRefused(garbage, watermarkCopy.messages.unreadable);
    expect(leftoverWorkDirs()).toEqual([]);
  });

  it("refuses, rather than fails on, a page box whose size overflows (a MediaBox of 308-digit numbers)", async () => {
    const huge = "9".repeat(308) + ".5";
    const text = fs.readFileSync(await makePdf("normal.pdf", [{ size: A4 }]), "latin1");
    const extreme = path.join(work, "extreme.pdf");
    // Same length as the box it replaces is not needed: qpdf repairs the cross-reference table (a warning).
    fs.writeFileSync(extreme, Buffer.from(text.replace(/\/MediaBox\s*\[[^\]]*\]/, `/MediaBox [-${huge} 0 ${huge} 792]`), "latin1"));
    const error = await assertStampable(extreme).then(
      () => null,
      (caught: unknown) => caught,
    );
    // Either the box is ignored and the page stamped, or the file is refused with a 400: never a crash.
    if (error !== null) {
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).status).toBe(400);
    }
    expect(leftoverWorkDirs()).toEqual([]);
  });
});

// ---------------------------------------------------------------- the queue

describe("the stamping queue (WATERMARK_CONCURRENCY=1)", () => {
  it("answers 503 with Retry-After when the queue is full, and a destroyed stream stops qpdf and frees its slot", async () => {
    // About 4 MB of output: qpdf blocks on the pipe until someone reads.
    const input = await makePdf("large.pdf", [{ size: A4 }, { size: A4 }], { imageBytes: 4 * 1024 * 1024 });
    const before = sha256(input);

    const first = await stampPdf(input, ZOE);
    expect(watermarkQueueState()).toEqual({ running: 1, queued: 0 });
    expect(qpdfProcessesReading(input)).toHaveLength(1);

    // Four wait (4 × concurrency)...
    const waiting = Array.from({ length: 4 }, () => stampPdf(input, ZOE));
    for (const promise of waiting) promise.catch(() => {});
    expect(watermarkQueueState()).toEqual({ running: 1, queued: 4 });

    // ...the next one is refused at once.
    const refused = await stampPdf(input, ZOE).then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).code).toBe("service_unavailable");
    expect((refused as AppError).status).toBe(503);
    expect((refused as AppError).message).toBe(watermarkCopy.messages.busy);
    expect((refused as AppError).options.retryAfterSeconds).toBeGreaterThan(0);
    expect(watermarkQueueState()).toEqual({ running: 1, queued: 4 });

    // The client goes away after one chunk: qpdf is killed and the next in line gets the slot.
    first.read();
    first.destroy();
    await closed(first);
    expect(qpdfProcessesReading(input)).toEqual([]);

    for (const next of waiting) {
      const stream = await next;
      expect(watermarkQueueState().running).toBe(1);
      stream.destroy();
      await closed(stream);
    }
    expect(watermarkQueueState()).toEqual({ running: 0, queued: 0 });
    expect(qpdfProcessesReading(input)).toEqual([]);
    expect(sha256(input)).toBe(before);

    // The slot works again: a whole copy, read to the end.
    const output = await stampToFile(input);
    expect(pageCount(output)).toBe(2);
    expect(watermarkQueueState()).toEqual({ running: 0, queued: 0 });
    expect(leftoverWorkDirs()).toEqual([]);
  });

  it("a stream read to its end releases the slot before it ends", async () => {
    const input = await makePdf("small.pdf", [{ size: A4 }]);
    const stream = await stampPdf(input, ZOE);
    expect(watermarkQueueState().running).toBe(1);
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    expect(watermarkQueueState()).toEqual({ running: 0, queued: 0 });
    expect(Buffer.concat(chunks).subarray(0, 5).toString()).toBe("%PDF-");
    expect(leftoverWorkDirs()).toEqual([]);
  });
});
