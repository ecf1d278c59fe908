/**
 * watermark: hostile PDFs given to the watermark (issue 15 §3, decision 024)
 * through the HTTP API of the production build, with WATERMARK_CONCURRENCY=1.
 *
 * - Uploads (POST /api/documents, watermark=on) of PDFs derived from small
 *   valid pdf-lib PDFs (with and without object streams) by fast-check: byte
 *   flips, truncations, a spliced, moved, lying or missing xref, a huge or
 *   negative /Count, deep nesting (arrays, dictionaries, a page tree thousands
 *   of levels deep, a page tree that loops), odd page boxes and rotations,
 *   stream lengths that lie, a RunLength stream that decodes to far more than
 *   it weighs. Then PDFs encrypted by qpdf (AES-256 with a user password or
 *   only an owner password, AES-128, RC4 40-bit), and one with a huge page
 *   count (20,000 tiny pages; 50,000 with --full). Each upload must answer 201
 *   or 400 (never 5xx) within UPLOAD_BOUND_MS; a 400 names the file or the
 *   watermark field.
 * - Every accepted document is downloaded (and viewed) by an investor, in
 *   bursts of DOWNLOAD_BURST at once against one stamping slot and a queue of
 *   four: each answer 200 (a whole PDF) or 503 with Retry-After, never another
 *   5xx, within DOWNLOAD_BOUND_MS (the queue's 30 s wait and a stamp). Those
 *   refused with 503 are fetched again one at a time, so every accepted file
 *   is stamped at least once; samples are read with mutool for the investor's
 *   e-mail (first and last page of the huge one).
 * - At the end: /healthz answers, no crash, no qpdf child of the server left
 *   (`pgrep -P <server> -x qpdf`, waited for), STORAGE_DIR/incoming empty, no
 *   work folder left in the server's TMPDIR, and one stored file per
 *   accepted document (nothing of the refused ones).
 *
 * Replay: HARDENING_SEED=<seed> (printed).
 */
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { PageSizes, PDFDocument, StandardFonts } from "pdf-lib";
import { uploadMessages } from "../app/content/validation";
import { watermarkCopy } from "../app/content/watermark";
import { multipart, request, sleep, startServer, Tally, unique, type HttpAnswer, type Part, type Section } from "./harness";
import { dbValue, headerValue, Portal, retryAfterSeconds } from "./web-helpers";

const SEED = Number(process.env.HARDENING_SEED ?? 20_261_125);
/** A client address of its own (no TRUST_PROXY): the section's sign-ins share no rate limit with others. */
const LOCAL_ADDRESS = "127.0.0.44";
const UPLOAD_BOUND_MS = 25_000;
/** The queue's longest wait (30 s) plus a stamp of the largest file. */
const DOWNLOAD_BOUND_MS = 45_000;
const DOWNLOAD_BURST = 8;

/** The messages a refused upload may give, by name. */
const REFUSALS: Record<string, string> = {
  [watermarkCopy.messages.encrypted]: "encrypted",
  [watermarkCopy.messages.unreadable]: "unreadable",
  [watermarkCopy.messages.tooComplex]: "too complex",
  [uploadMessages.fileType]: "not a PDF (file type)",
  [uploadMessages.fileEmpty]: "empty file",
};

// ─── PDFs ───────────────────────────────────────────────────────────────────

type Case = { label: string; family: string; bytes: Buffer };

/** A small valid PDF made by pdf-lib: three pages of different sizes with text; with or without object streams. */
async function basePdf(objectStreams: boolean): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const [i, size] of [PageSizes.A4, PageSizes.Letter, [842, 595]].entries()) {
    const page = doc.addPage(size as [number, number]);
    page.drawText(`Hardening base page ${i + 1}`, { x: 40, y: size[1]! - 60, size: 14, font });
  }
  return Buffer.from(await doc.save({ useObjectStreams: objectStreams }));
}

/** A PDF written object by object with a correct classic xref table (objects numbered from 1). */
function rawPdf(objects: string[], trailerExtra = ""): Buffer {
  let body = "%PDF-1.7\n%\xe2\xe3\xcf\xd3\n";
  const offsets: number[] = [];
  for (const [i, object] of objects.entries()) {
    offsets.push(Buffer.byteLength(body, "latin1"));
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  }
  const xref = Buffer.byteLength(body, "latin1");
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, "0")} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R${trailerExtra} >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, "latin1");
}

const CONTENT = "BT /F1 12 Tf 40 700 Td (Raw page) Tj ET";
const FONT = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>";

/** Catalog (1), Pages (2), one page (3) with `pageExtra` in its dictionary, content (4), font (5). */
function onePage(pageExtra = "", pagesExtra = "", mediaBox = "[0 0 612 792]"): Buffer {
  return rawPdf([
    "<< /Type /Catalog /Pages 2 0 R >>",
    `<< /Type /Pages /Kids [3 0 R] /Count 1${pagesExtra} >>`,
    `<< /Type /Page /Parent 2 0 R /MediaBox ${mediaBox} /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >>${pageExtra} >>`,
    `<< /Length ${CONTENT.length} >>\nstream\n${CONTENT}\nendstream`,
    FONT,
  ]);
}

/** A page tree `depth` levels of /Pages deep above one page. */
function deepPageTree(depth: number): Buffer {
  // 1 catalog, 2 … depth+1 the Pages chain, then the page, its content and font.
  const page = depth + 2;
  const objects = ["<< /Type /Catalog /Pages 2 0 R >>"];
  for (let level = 0; level < depth; level++) {
    const self = level + 2;
    const kid = level === depth - 1 ? page : self + 1;
    objects.push(`<< /Type /Pages /Kids [${kid} 0 R] /Count 1${level ? ` /Parent ${self - 1} 0 R` : ""} >>`);
  }
  objects.push(`<< /Type /Page /Parent ${depth + 1} 0 R /MediaBox [0 0 612 792] /Contents ${page + 1} 0 R /Resources << /Font << /F1 ${page + 2} 0 R >> >> >>`);
  objects.push(`<< /Length ${CONTENT.length} >>\nstream\n${CONTENT}\nendstream`, FONT);
  return rawPdf(objects);
}

/** Page trees that loop: a Pages node among its own kids, two nodes each other's kid, one page listed three times. */
function loopingPageTree(kind: "self" | "pair" | "page-thrice"): Buffer {
  if (kind === "self") return replaceText(onePage(), /\/Kids \[3 0 R\]/, () => "/Kids [3 0 R 2 0 R]");
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    kind === "pair" ? "<< /Type /Pages /Kids [3 0 R 6 0 R] /Count 2 >>" : "<< /Type /Pages /Kids [3 0 R 3 0 R 3 0 R] /Count 3 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    `<< /Length ${CONTENT.length} >>\nstream\n${CONTENT}\nendstream`,
    FONT,
  ];
  if (kind === "pair") objects.push("<< /Type /Pages /Kids [2 0 R] /Count 1 /Parent 2 0 R >>");
  return rawPdf(objects);
}

/** `count` tiny pages (72 × 72 pt) sharing one content stream, in a flat page tree. */
function manyPages(count: number): Buffer {
  const kids: string[] = [];
  for (let i = 0; i < count; i++) kids.push(`${4 + i} 0 R`);
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    `<< /Type /Pages /Kids [${kids.join(" ")}] /Count ${count} >>`,
    "<< /Length 13 >>\nstream\n0 0 m 9 9 l S\nendstream",
  ];
  for (let i = 0; i < count; i++) objects.push("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 72 72] /Contents 3 0 R >>");
  return rawPdf(objects);
}

/** A page whose content stream is RunLength-encoded spaces: `encodedBytes` on disk, 64 × that decoded (qpdf decodes and re-encodes it). */
function runLengthBomb(encodedBytes: number): Buffer {
  // Each pair 0x81 0x20 decodes to 128 spaces (257 − 129); 0x80 ends the data.
  const data = Buffer.alloc(encodedBytes + 1);
  for (let i = 0; i + 1 < encodedBytes; i += 2) {
    data[i] = 0x81;
    data[i + 1] = 0x20;
  }
  data[encodedBytes] = 0x80;
  const head = rawPdf([
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>",
    `<< /Length ${data.length} /Filter /RunLengthDecode >>\nstream\n@@DATA@@\nendstream`,
  ]).toString("latin1");
  // Put the binary data in place and fix the offsets after it (only the xref's last entry and startxref move).
  const [before, after] = head.split("@@DATA@@") as [string, string];
  const shift = data.length - "@@DATA@@".length;
  const fixed = after.replace(/(\d{10}) 00000 n \n(?=trailer)/, (_, offset: string) => `${String(Number(offset) + shift).padStart(10, "0")} 00000 n \n`).replace(/startxref\n(\d+)/, (_, offset: string) => `startxref\n${Number(offset) + shift}`);
  return Buffer.concat([Buffer.from(before, "latin1"), data, Buffer.from(fixed, "latin1")]);
}

/** The same PDF encrypted by qpdf (`args` after --encrypt, `options` before it). */
function encrypt(plain: Buffer, args: string[], dir: string, options: string[] = []): Buffer {
  const input = path.join(dir, `plain-${unique()}.pdf`);
  const output = path.join(dir, `encrypted-${unique()}.pdf`);
  fs.writeFileSync(input, plain);
  execFileSync("qpdf", [...options, "--encrypt", ...args, "--", input, output], { stdio: ["ignore", "ignore", "pipe"] });
  return fs.readFileSync(output);
}

// ─── fast-check: mutations of a valid PDF ───────────────────────────────────

type Base = { name: string; bytes: Buffer };

function replaceText(bytes: Buffer, pattern: RegExp, replacement: (match: string) => string): Buffer {
  return Buffer.from(bytes.toString("latin1").replace(pattern, replacement), "latin1");
}

function mutationArb(bases: Base[]): fc.Arbitrary<Case> {
  const base = fc.constantFrom(...bases);
  // Anywhere in the file, evenly (fast-check's own bias favours the ends).
  const offset = fc.noBias(fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }));
  const at = (bytes: Buffer, fraction: number) => Math.floor(fraction * bytes.length);
  /** Past the "%PDF-1.x" header: a broken header is the file-type check's, not the watermark's. */
  const HEADER = 9;

  const flips = fc.tuple(base, fc.array(fc.tuple(offset, fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 40 })).map(([b, changes]): Case => {
    const bytes = Buffer.from(b.bytes);
    for (const [where, value] of changes) bytes[HEADER + Math.floor(where * (bytes.length - HEADER))] = value;
    return { family: "byte flips", label: `${b.name}: ${changes.length} byte(s) changed`, bytes };
  });
  const truncated = fc.tuple(base, offset).map(([b, where]): Case => {
    const cut = HEADER + Math.floor(where * (b.bytes.length - HEADER));
    return { family: "truncated", label: `${b.name}: cut at ${cut} of ${b.bytes.length}`, bytes: b.bytes.subarray(0, cut) };
  });
  const splicedXref = fc
    .tuple(base, fc.constantFrom("startxref lies", "xref offsets lie", "xref moved", "xref twice", "xref removed", "chunk spliced"), offset, fc.nat({ max: 2 ** 31 }), offset)
    .map(([b, how, where, n, other]): Case => {
      let bytes: Buffer;
      const text = b.bytes.toString("latin1");
      const xrefAt = text.lastIndexOf("\nxref");
      const trailerAt = text.lastIndexOf("trailer");
      const xref = xrefAt >= 0 && trailerAt > xrefAt ? text.slice(xrefAt, trailerAt) : "\nxref\n0 1\n0000000000 65535 f \n";
      if (how === "startxref lies") bytes = replaceText(b.bytes, /startxref\s+\d+/, () => `startxref\n${n}`);
      else if (how === "xref offsets lie") bytes = replaceText(b.bytes, /\d{10} 00000 n/g, (m) => (n % 3 === 0 || m.endsWith("7") ? `${String(n % 10_000_000_000).padStart(10, "0")} 00000 n` : m));
      else if (how === "xref removed") bytes = Buffer.from(text.replace(xref, "\n"), "latin1");
      else {
        const cut = at(b.bytes, where);
        const piece =
          how === "chunk spliced" ? b.bytes.subarray(at(b.bytes, other), Math.min(b.bytes.length, at(b.bytes, other) + 1 + (n % 4096))) : Buffer.from(xref, "latin1");
        const rest = how === "xref moved" ? Buffer.from(text.replace(xref, "\n"), "latin1") : b.bytes;
        const place = Math.min(cut, rest.length);
        bytes = Buffer.concat([rest.subarray(0, place), piece, rest.subarray(place)]);
      }
      return { family: "spliced xref", label: `${b.name}: ${how}`, bytes };
    });
  const hugeCount = fc
    .tuple(base, fc.constantFrom("0", "-1", "2147483647", "4294967296", "99999999999999999999", "1e30", "3.5", "/Name", "(text)"))
    .map(([b, count]): Case => ({ family: "huge /Count", label: `${b.name}: /Count ${count}`, bytes: replaceText(b.bytes, /\/Count\s+\d+/, () => `/Count ${count}`) }));
  const nesting = fc
    .tuple(fc.constantFrom("array", "dictionary", "array unclosed", "page tree"), fc.constantFrom(50, 500, 5_000, 50_000))
    .map(([how, depth]): Case => {
      const label = `${how} nested ${depth} deep`;
      if (how === "page tree") return { family: "deep nesting", label, bytes: deepPageTree(Math.min(depth, 5_000)) };
      const value = how === "dictionary" ? `${"<< /A ".repeat(depth)}1${" >>".repeat(depth)}` : `${"[".repeat(depth)}1${how === "array" ? "]".repeat(depth) : ""}`;
      return { family: "deep nesting", label, bytes: onePage(` /Deep ${value}`) };
    });
  const oddPages = fc
    .constantFrom<[string, () => Buffer]>(
      ["MediaBox [0 0 0 0]", () => onePage("", "", "[0 0 0 0]")],
      ["MediaBox [0 0 1e308 1e308]", () => onePage("", "", "[0 0 1e308 1e308]")],
      ["MediaBox [-1e9 -1e9 1e9 1e9]", () => onePage("", "", "[-1000000000 -1000000000 1000000000 1000000000]")],
      ["MediaBox of names", () => onePage("", "", "[/a /b /c /d]")],
      ["MediaBox with 3 numbers", () => onePage("", "", "[0 0 612]")],
      ["no MediaBox anywhere", () => onePage("", "", "null")],
      ["TrimBox 1 × 10,000 pt", () => onePage(" /TrimBox [0 0 1 10000]")],
      ["Rotate 45", () => onePage(" /Rotate 45")],
      ["Rotate -270", () => onePage(" /Rotate -270")],
      ["Rotate 99999999990", () => onePage(" /Rotate 99999999990")],
      ["page tree loops on itself", () => loopingPageTree("self")],
      ["two page nodes each other's kid", () => loopingPageTree("pair")],
      ["the same page three times", () => loopingPageTree("page-thrice")],
      ["content /Length lies (huge)", () => replaceText(onePage(), /\/Length \d+/, () => "/Length 999999999")],
      ["content /Length lies (negative)", () => replaceText(onePage(), /\/Length \d+/, () => "/Length -5")],
      ["content /Length is a reference to nothing", () => replaceText(onePage(), /\/Length \d+/, () => "/Length 99 0 R")],
      ["Root is not a catalog", () => replaceText(onePage(), /\/Root 1 0 R/, () => "/Root 4 0 R")],
      ["no Root", () => replaceText(onePage(), / \/Root 1 0 R/, () => "")],
      ["Kids is not an array", () => replaceText(onePage(), /\/Kids \[3 0 R\]/, () => "/Kids 3 0 R")],
      ["Kids names a missing object", () => replaceText(onePage(), /\/Kids \[3 0 R\]/, () => "/Kids [3 0 R 77 0 R 123456789 0 R]")],
      ["header only", () => Buffer.from("%PDF-1.7\n")],
      ["header and %%EOF", () => Buffer.from("%PDF-1.7\n%%EOF\n")],
    )
    .map(([label, make]): Case => ({ family: "odd structure", label, bytes: make() }));
  return fc.oneof(
    { arbitrary: flips, weight: 4 },
    { arbitrary: truncated, weight: 2 },
    { arbitrary: splicedXref, weight: 3 },
    { arbitrary: hugeCount, weight: 2 },
    { arbitrary: nesting, weight: 2 },
    { arbitrary: oddPages, weight: 3 },
  );
}

// ─── the section ────────────────────────────────────────────────────────────

/** qpdf processes whose parent is `pid` (the server runs qpdf itself). */
function qpdfChildren(pid: number): number {
  const found = spawnSync("pgrep", ["-P", String(pid), "-x", "qpdf"], { encoding: "utf8" });
  return found.stdout.split("\n").filter(Boolean).length;
}

function pageText(file: string, page: number): string {
  return execFileSync("mutool", ["draw", "-q", "-F", "txt", "-o", "-", file, String(page)], { stdio: ["ignore", "pipe", "ignore"], maxBuffer: 64 * 1024 * 1024 }).toString("utf8");
}

function pageCount(file: string): number {
  return Number(execFileSync("qpdf", ["--show-npages", file], { stdio: ["ignore", "pipe", "ignore"] }).toString().trim());
}

type Accepted = { id: string; label: string; family: string; bytes: number };
type Download = { status: number; ms: number; retryAfter: number; bytes: Buffer; contentLength: string };

const max = (values: number[]) => values.reduce((m, v) => Math.max(m, v), 0);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export const section: Section = {
  name: "watermark",
  run: async (ctx) => {
    const t = new Tally();
    const started = Date.now();
    const mutated = ctx.full ? 300 : 20;
    const hugePages = ctx.full ? 50_000 : 20_000;
    const bombBytes = ctx.full ? 4 * 1024 * 1024 : 512 * 1024;
    const serverTmp = fs.mkdtempSync(path.join(ctx.tmpRoot, "watermark-tmp-"));
    const scratch = fs.mkdtempSync(path.join(ctx.tmpRoot, "watermark-files-"));
    const server = await startServer(ctx, { name: "watermark", env: { WATERMARK_CONCURRENCY: "1", TMPDIR: serverTmp } });
    let serverErrors = 0;
    try {
      const portal = await new Portal(server, {}, LOCAL_ADDRESS).init();
      const investor = await portal.investor();
      const call = async (method: string, urlPath: string, cookie: string, body?: { headers: Record<string, string>; body?: string | Buffer }, headers: Record<string, string> = {}) => {
        const answer = await request(server.url, method, urlPath, {
          headers: { ...(body?.headers ?? {}), ...headers, cookie },
          body: body?.body,
          timeoutMs: 90_000,
          localAddress: LOCAL_ADDRESS,
        });
        return answer;
      };

      // ── the cases ──────────────────────────────────────────────────────
      const bases: Base[] = [
        { name: "pdf-lib classic xref", bytes: await basePdf(false) },
        { name: "pdf-lib object streams", bytes: await basePdf(true) },
        { name: "hand-made", bytes: onePage() },
      ];
      const cases: Case[] = [
        { family: "control", label: "the valid pdf-lib PDF", bytes: bases[0]!.bytes },
        ...fc.sample(mutationArb(bases), { seed: SEED, numRuns: mutated }),
        { family: "encrypted", label: "AES-256, user password", bytes: encrypt(bases[0]!.bytes, ["u", "o", "256"], scratch) },
        { family: "encrypted", label: "AES-256, owner password only", bytes: encrypt(bases[0]!.bytes, ["", "o", "256"], scratch) },
        { family: "encrypted", label: "AES-128, user password", bytes: encrypt(bases[1]!.bytes, ["u", "o", "128", "--use-aes=y"], scratch) },
        { family: "encrypted", label: "RC4 40-bit, owner password only", bytes: encrypt(bases[2]!.bytes, ["", "o", "40"], scratch, ["--allow-weak-crypto"]) },
        { family: "decoded bomb", label: `RunLength stream ${(bombBytes / 1024).toFixed(0)} KB → ${((bombBytes * 64) / 1024 / 1024).toFixed(0)} MB decoded`, bytes: runLengthBomb(bombBytes) },
        { family: "huge page count", label: `${hugePages.toLocaleString("en-US")} tiny pages`, bytes: manyPages(hugePages) },
      ];
      ctx.progress(`setup done, ${cases.length} PDFs to upload (${((Date.now() - started) / 1000).toFixed(1)} s)`);

      // ── uploads ────────────────────────────────────────────────────────
      const accepted: Accepted[] = [];
      const uploadTimes: number[] = [];
      const reasons = new Map<string, number>();
      const byFamily = new Map<string, { accepted: number; refused: number }>();
      const badUploads: string[] = [];
      let hugeUploadMs = 0;
      for (const item of cases) {
        const parts: Part[] = [
          { name: "title", value: `${item.family}: ${item.label}`.slice(0, 190) },
          { name: "category", value: "reports" },
          { name: "audience", value: "all" },
          { name: "watermark", value: "on" },
          { name: "file", value: item.bytes, filename: "hostile.pdf", contentType: "application/pdf" },
        ];
        const t0 = Date.now();
        let answer: HttpAnswer;
        try {
          answer = await call("POST", "/api/documents", portal.adminCookie, multipart(parts));
        } catch (error) {
          badUploads.push(`${item.label}: ${(error as Error).message}`);
          continue;
        }
        const ms = Date.now() - t0;
        uploadTimes.push(ms);
        if (item.family === "huge page count") hugeUploadMs = ms;
        const tally = byFamily.get(item.family) ?? { accepted: 0, refused: 0 };
        byFamily.set(item.family, tally);
        if (answer.status >= 500) serverErrors += 1;
        if (ms > UPLOAD_BOUND_MS) badUploads.push(`${item.label}: ${ms} ms`);
        if (answer.status === 201) {
          tally.accepted += 1;
          accepted.push({ id: (JSON.parse(answer.text) as { id: string }).id, label: item.label, family: item.family, bytes: item.bytes.length });
        } else if (answer.status === 400) {
          tally.refused += 1;
          const body = JSON.parse(answer.text) as { error?: string; fields?: Record<string, string[]> };
          const reason = REFUSALS[body.error ?? ""] ?? `other: ${body.error}`;
          reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
          if (!body.fields?.file && !body.fields?.watermark) badUploads.push(`${item.label}: 400 without a file or watermark field message (${answer.text.slice(0, 120)})`);
          if (reason.startsWith("other")) badUploads.push(`${item.label}: 400 "${body.error}"`);
        } else badUploads.push(`${item.label}: ${answer.status} ${answer.text.slice(0, 160)}`);
        if (item.family === "control" && answer.status !== 201) badUploads.push(`the valid control PDF was refused: ${answer.status} ${answer.text.slice(0, 160)}`);
        if (item.family === "encrypted" && answer.status !== 400) badUploads.push(`${item.label}: ${answer.status}, an encrypted PDF must be refused`);
      }
      ctx.progress(`uploads done: ${accepted.length} accepted of ${cases.length} (${((Date.now() - started) / 1000).toFixed(1)} s)`);

      // ── downloads: bursts against one slot ─────────────────────────────
      const fetchOne = async (doc: Accepted, kind: "view" | "download"): Promise<Download> => {
        const t0 = Date.now();
        const answer = await call("GET", `/api/documents/${doc.id}/${kind}`, investor.cookie);
        return { status: answer.status, ms: Date.now() - t0, retryAfter: retryAfterSeconds(answer), bytes: answer.body, contentLength: headerValue(answer, "content-length") };
      };
      const downloads: Download[] = [];
      const badDownloads: string[] = [];
      const stamped = new Map<string, Buffer>();
      const check = (doc: Accepted, got: Download) => {
        downloads.push(got);
        if (got.status >= 500 && got.status !== 503) serverErrors += 1;
        if (got.ms > DOWNLOAD_BOUND_MS) badDownloads.push(`${doc.label}: ${got.ms} ms`);
        if (got.status === 200) {
          if (got.bytes.subarray(0, 5).toString("latin1") !== "%PDF-" || got.contentLength !== String(got.bytes.length)) {
            badDownloads.push(`${doc.label}: 200 but not a whole PDF (${got.bytes.length} bytes, Content-Length ${got.contentLength})`);
          } else stamped.set(doc.id, got.bytes);
        } else if (got.status === 503) {
          if (!(got.retryAfter > 0)) badDownloads.push(`${doc.label}: 503 without Retry-After`);
        } else badDownloads.push(`${doc.label}: ${got.status} ${got.bytes.toString("utf8").slice(0, 160)}`);
      };
      // Every accepted file downloaded, every other one viewed too (the huge one only downloaded: it takes seconds).
      const work = accepted.flatMap((doc, i) => [
        { doc, kind: "download" as const },
        ...(i % 2 === 0 && doc.family !== "huge page count" ? [{ doc, kind: "view" as const }] : []),
      ]);
      let peakQpdf = 0;
      const watcher = setInterval(() => (peakQpdf = Math.max(peakQpdf, qpdfChildren(server.pid()))), 100);
      try {
        for (let i = 0; i < work.length; i += DOWNLOAD_BURST) {
          const burst = work.slice(i, i + DOWNLOAD_BURST);
          const answers = await Promise.all(burst.map(({ doc, kind }) => fetchOne(doc, kind).catch((error: Error) => ({ status: 0, ms: 0, retryAfter: NaN, bytes: Buffer.from(error.message), contentLength: "" }))));
          answers.forEach((got, k) => check(burst[k]!.doc, got));
        }
        ctx.progress(`download bursts done: ${downloads.length} answers (${((Date.now() - started) / 1000).toFixed(1)} s)`);
        // Each accepted file stamped at least once: those only refused (503) are fetched again, one at a time.
        for (const doc of accepted.filter((d) => !stamped.has(d.id))) {
          let got = await fetchOne(doc, "download");
          for (let attempt = 0; got.status === 503 && attempt < 3; attempt++) {
            await sleep(got.retryAfter * 1000);
            got = await fetchOne(doc, "download");
          }
          check(doc, got);
          if (got.status !== 200) badDownloads.push(`${doc.label}: never stamped (last answer ${got.status})`);
        }
      } finally {
        clearInterval(watcher);
      }
      ctx.progress(`downloads done (${((Date.now() - started) / 1000).toFixed(1)} s)`);

      // ── samples: the investor's e-mail in the copies ───────────────────
      const samples: string[] = [];
      const sample = (doc: Accepted | undefined, pages: "first" | "first and last") => {
        const bytes = doc && stamped.get(doc.id);
        if (!doc || !bytes) return;
        const file = path.join(scratch, `stamped-${unique()}.pdf`);
        fs.writeFileSync(file, bytes);
        const count = pageCount(file);
        const wanted = pages === "first" ? [1] : [1, count];
        const missing = wanted.filter((p) => !pageText(file, p).includes(investor.email));
        samples.push(`${doc.label} (${count} pages; page ${wanted.join(" and ")})`);
        if (missing.length) badDownloads.push(`${doc.label}: the investor's e-mail missing on page(s) ${missing.join(", ")}`);
        fs.rmSync(file, { force: true });
      };
      sample(accepted.find((d) => d.family === "control"), "first");
      sample(accepted.find((d) => d.family === "huge page count"), "first and last");
      sample(accepted.find((d) => d.family !== "control" && d.family !== "huge page count"), "first");

      // ── afterwards ─────────────────────────────────────────────────────
      const health = await request(server.url, "GET", "/healthz", { timeoutMs: 10_000 });
      let leftQpdf = qpdfChildren(server.pid());
      for (let waited = 0; leftQpdf > 0 && waited < 15_000; waited += 250) {
        await sleep(250);
        leftQpdf = qpdfChildren(server.pid());
      }
      const incoming = path.join(server.storageDir, "incoming");
      const incomingLeft = fs.existsSync(incoming) ? fs.readdirSync(incoming) : [];
      const workDirsLeft = fs.readdirSync(serverTmp).filter((name) => name.startsWith("lumen-watermark-"));
      const documentsDir = path.join(server.storageDir, "documents");
      const storedCount = fs.existsSync(documentsDir) ? fs.readdirSync(documentsDir).length : 0;
      const rows = dbValue<number>(server, "select count(*) from documents") ?? -1;

      // ── figures ────────────────────────────────────────────────────────
      t.info("fast-check mutations of 3 valid PDFs (seed below)", mutated);
      t.info("PDFs uploaded with watermark=on (control, mutations, 4 encrypted, bomb, huge)", cases.length);
      for (const [family, n] of byFamily) t.info(`  ${family}: accepted / refused`, `${n.accepted} / ${n.refused}`);
      for (const [reason, n] of [...reasons].sort((a, b) => b[1] - a[1])) t.info(`  400 because: ${reason}`, n);
      t.count("uploads not answered 201 or 400 within the bound (or wrongly)", badUploads.length, 0);
      for (const line of badUploads.slice(0, 10)) t.note(`upload: ${line}`);
      t.info("slowest upload (bound 25 s)", seconds(max(uploadTimes)));
      t.info(`upload of ${hugePages.toLocaleString("en-US")} pages`, seconds(hugeUploadMs));
      const by = (status: number) => downloads.filter((d) => d.status === status).length;
      t.info(`downloads and views of accepted files (bursts of ${DOWNLOAD_BURST}, then retries)`, downloads.length);
      t.info("  answered 200 / 503 with Retry-After", `${by(200)} / ${by(503)}`);
      t.count("downloads not 200 or 503-with-Retry-After within the bound, or not whole PDFs", badDownloads.length, 0);
      for (const line of badDownloads.slice(0, 10)) t.note(`download: ${line}`);
      t.info("slowest download (bound 45 s)", seconds(max(downloads.map((d) => d.ms))));
      t.count("accepted files never stamped", accepted.filter((d) => !stamped.has(d.id)).length, 0);
      t.info("stamped copies read back with mutool for the investor's e-mail", samples.length);
      for (const line of samples) t.note(`read back: ${line}`);
      t.check("at most one qpdf at a time while downloading (WATERMARK_CONCURRENCY=1; sampled every 100 ms)", peakQpdf <= 1, `${peakQpdf} at once`);
      t.count("5xx answers (but 503 with Retry-After)", serverErrors, 0);
      t.check("the server answers /healthz after", health.status === 200, `status ${health.status}`);
      t.count("server crashes", server.unexpectedExits(), 0);
      t.count("qpdf processes left (children of the server)", leftQpdf, 0);
      t.count("files left in STORAGE_DIR/incoming", incomingLeft.length, 0);
      t.count("work folders left in the server's TMPDIR", workDirsLeft.length, 0);
      t.count("stored files beyond the accepted documents", storedCount - accepted.length, 0);
      t.count("document rows beyond the accepted documents", rows - accepted.length, 0);
      t.note(`fast-check seed ${SEED}; replay: HARDENING_SEED=${SEED}`);
    } finally {
      await server.stop();
    }
    return t.result();
  },
};
