/**
 * Documents part of `npm run bench` (DESIGN.md §7, issue 4):
 *
 *   1. 50 MB download MB/s of GET /api/documents/{id}/download (signed in)
 *      against a bare node:http + fs.createReadStream server sending the same
 *      stored file: sequential runs (median) and concurrent downloads;
 *   2. our server's RSS growth during concurrent 50 MB downloads (per download);
 *   3. our server's RSS growth during a 50 MB upload (POST /api/documents,
 *      streamed from a file), and a 50 MB + 1 byte upload refused with 413
 *      leaving nothing behind in STORAGE_DIR.
 *
 * The servers run in their own processes; the client (this process) streams
 * uploads from disk and discards download bytes as they arrive, so only the
 * server's memory is measured (VmRSS of its pid, sampled every 50 ms, plus
 * VmHWM after a reset through /proc/<pid>/clear_refs when the kernel allows it).
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { cpuSeconds, machineBusySeconds } from "./cpu";
import { num, passFail, table } from "./format";
import { assertPortFree, benchAdminLogin, createBenchAdmin, readMemory, sleep, startChild, startServer, stopChild, waitForHttp, waitForLine, type Child } from "./proc";
import { MAX_UPLOAD_BYTES } from "../app/modules/documents/constants";

export type Check = { name: string; figure: string; budget: string; ok: boolean };

export type FilesContext = {
  root: string;
  host: string;
  ourPort: number;
  basePort: number;
  /** An empty directory for this part (files, database, storage); the caller removes it. */
  workDir: string;
  /** The environment of our server for a port and a data directory. */
  serverEnv: (port: number, dataDir: string) => NodeJS.ProcessEnv;
  /** A minimal environment (PATH, HOME…) for helper processes. */
  baseEnv: NodeJS.ProcessEnv;
  /** Started processes are added here (and removed once stopped) so an interrupted run can stop them. */
  children: Set<Child>;
  progress: (message: string) => void;
  /** Sequential downloads per server (median). */
  runs: number;
  /** Downloads at once in the concurrent runs. */
  concurrency: number;
};

export type FilesResult = { lines: string[]; checks: Check[]; summary: Record<string, unknown> };

export const FILES_BUDGET = {
  downloadRatio: 0.8,
  /** MB of server RSS growth per concurrent download ("memory flat per download"). */
  downloadRssPerDownloadMb: 10,
  uploadRssMb: 10,
};

const FILE_BYTES = MAX_UPLOAD_BYTES; // 52,428,800: the largest accepted upload
const MiB = 1024 * 1024;
const RSS_RUNS = 3;
/** Read rate of each "slow" client: 8 × 25 MB/s keeps a 50 MB download at about 2 s. */
const SLOW_CLIENT_MBPS = 25;
const SAMPLE_MS = 50;
/** What a browser sends; PDFs are not compressible, so compression must step aside. */
const ACCEPT_ENCODING = "gzip, deflate, br";

// ─── helpers ────────────────────────────────────────────────────────────────

function median(values: number[]): number {
  if (!values.length) return NaN;
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

function mbps(bytes: number, ms: number): number {
  return ms > 0 ? bytes / MiB / (ms / 1000) : 0;
}

const f1 = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : "n/a");
const mbOfKb = (kbValue: number) => (kbValue / 1024).toFixed(1);

/** A PDF by its magic (what the server checks), padded with random bytes to `size`. */
function writePdf(file: string, size: number) {
  const head = Buffer.from("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n", "latin1");
  const tail = Buffer.from("\n%%EOF\n", "latin1");
  const block = randomBytes(MiB);
  const fd = fs.openSync(file, "w");
  try {
    fs.writeSync(fd, head);
    let left = size - head.length - tail.length;
    while (left > 0) {
      const n = Math.min(left, block.length);
      fs.writeSync(fd, block, 0, n);
      left -= n;
    }
    fs.writeSync(fd, tail);
  } finally {
    fs.closeSync(fd);
  }
  if (fs.statSync(file).size !== size) throw new Error(`could not write ${file} with ${size} bytes`);
}

function listDir(dir: string): string[] {
  try {
    return fs.readdirSync(dir).sort();
  } catch {
    return [];
  }
}

// ─── HTTP clients ───────────────────────────────────────────────────────────

type Transfer = {
  status: number;
  bytes: number;
  ms: number;
  ttfbMs: number;
  headers: http.IncomingHttpHeaders;
  /** The first bytes of the body. */
  head: Buffer;
  error?: string;
};

/**
 * One GET on a fresh connection; the body is counted and dropped. With
 * `rateMBps`, the client reads no faster than that (it pauses the socket), as
 * a browser on a slower link would: the server then has to wait for the
 * client rather than read ahead.
 */
function download(url: string, headers: Record<string, string>, rateMBps?: number): Promise<Transfer> {
  return new Promise((resolve) => {
    const t0 = process.hrtime.bigint();
    const since = () => Number(process.hrtime.bigint() - t0) / 1e6;
    let ttfbMs = 0;
    let bytes = 0;
    let head = Buffer.alloc(0);
    let status = 0;
    let resHeaders: http.IncomingHttpHeaders = {};
    const req = http.get(url, { headers, agent: false }, (res) => {
      ttfbMs = since();
      status = res.statusCode ?? 0;
      resHeaders = res.headers;
      res.on("data", (chunk: Buffer) => {
        if (head.length < 16) head = Buffer.concat([head, chunk.subarray(0, 16 - head.length)]);
        bytes += chunk.length;
        if (rateMBps) {
          const aheadMs = (bytes / (rateMBps * MiB)) * 1000 - since();
          if (aheadMs > 5) {
            res.pause();
            setTimeout(() => res.resume(), aheadMs);
          }
        }
      });
      res.on("end", () => resolve({ status, bytes, ms: since(), ttfbMs, headers: resHeaders, head }));
      res.on("error", (error) => resolve({ status, bytes, ms: since(), ttfbMs, headers: resHeaders, head, error: error.message }));
    });
    req.on("error", (error) => resolve({ status, bytes, ms: since(), ttfbMs, headers: resHeaders, head, error: error.message }));
  });
}

type Sent = { status: number; body: string; ms: number; error?: string };

/**
 * A multipart POST whose file part is streamed from disk (the client never
 * holds the file), with an exact Content-Length as a browser sends.
 */
function postMultipart(url: string, cookie: string, fields: Record<string, string>, file: { path: string; name: string; type: string }): Promise<Sent> {
  return new Promise((resolve) => {
    const boundary = `----lumen-bench-${randomBytes(12).toString("hex")}`;
    let pre = "";
    for (const [name, value] of Object.entries(fields)) {
      pre += `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    }
    pre += `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`;
    const preamble = Buffer.from(pre, "utf8");
    const epilogue = Buffer.from(`\r\n--${boundary}--\r\n`, "utf8");
    const length = preamble.length + fs.statSync(file.path).size + epilogue.length;

    const t0 = process.hrtime.bigint();
    const since = () => Number(process.hrtime.bigint() - t0) / 1e6;
    let settled = false;
    let responded = false;
    const done = (value: Sent) => {
      if (settled) return;
      settled = true;
      resolve(value);
    };
    const req = http.request(
      url,
      {
        method: "POST",
        agent: false,
        headers: {
          "content-type": `multipart/form-data; boundary=${boundary}`,
          "content-length": String(length),
          cookie,
          accept: "application/json",
        },
      },
      (res) => {
        responded = true;
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => done({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8"), ms: since() }));
        res.on("error", (error) => done({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8"), ms: since(), error: error.message }));
      },
    );
    // A server may answer (413) and close before the whole body is sent: the answer counts, not the EPIPE.
    req.on("error", (error) => {
      if (!responded) done({ status: 0, body: "", ms: since(), error: error.message });
    });
    req.write(preamble);
    const source = fs.createReadStream(file.path);
    source.on("error", (error) => req.destroy(error));
    source.on("end", () => req.end(epilogue));
    source.pipe(req, { end: false });
  });
}

function requestJson(url: string, method: string, headers: Record<string, string>, body?: unknown): Promise<{ status: number; headers: http.IncomingHttpHeaders; json: unknown }> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const req = http.request(
      url,
      {
        method,
        agent: false,
        headers: { accept: "application/json", ...headers, ...(payload ? { "content-type": "application/json", "content-length": String(payload.length) } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          let json: unknown = text;
          try {
            json = JSON.parse(text);
          } catch {
            /* keep the text */
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, json });
        });
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

// ─── server memory ──────────────────────────────────────────────────────────

type RssRun = { baselineKb: number; peakKb: number; afterKb: number | null; samples: number; hwmUsed: boolean };

/**
 * VmRSS of a process sampled every 50 ms between start() and stop(). When
 * /proc/<pid>/clear_refs accepts "5" (reset the peak), VmHWM at stop() also
 * catches a peak between two samples.
 */
class RssSampler {
  private timer: NodeJS.Timeout | null = null;
  private baselineKb = 0;
  private peakKb = 0;
  private samples = 0;
  private hwmReset = false;

  constructor(private readonly pid: number) {}

  start() {
    const now = readMemory(this.pid);
    if (!now) throw new Error(`cannot read /proc/${this.pid}/status`);
    try {
      fs.writeFileSync(`/proc/${this.pid}/clear_refs`, "5");
      this.hwmReset = true;
    } catch {
      this.hwmReset = false;
    }
    this.baselineKb = now.rssKb;
    this.peakKb = now.rssKb;
    this.samples = 1;
    this.timer = setInterval(() => this.sample(), SAMPLE_MS);
  }

  private sample(): { rssKb: number; hwmKb: number } | null {
    const m = readMemory(this.pid);
    if (m) {
      this.samples += 1;
      this.peakKb = Math.max(this.peakKb, m.rssKb);
    }
    return m;
  }

  stop(): RssRun {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    const m = this.sample();
    if (m && this.hwmReset) this.peakKb = Math.max(this.peakKb, m.hwmKb);
    return { baselineKb: this.baselineKb, peakKb: this.peakKb, afterKb: null, samples: this.samples, hwmUsed: this.hwmReset };
  }
}

/** Run `work` while sampling `pid`'s RSS; a reading `afterMs` later (1 s) shows whether the memory came back. */
async function withRss<T>(pid: number, work: () => Promise<T>, settleMs = 300, afterMs = 1000): Promise<{ value: T; rss: RssRun }> {
  await sleep(settleMs);
  const sampler = new RssSampler(pid);
  sampler.start();
  const value = await work();
  const rss = sampler.stop();
  if (afterMs > 0) {
    await sleep(afterMs);
    rss.afterKb = readMemory(pid)?.rssKb ?? null;
  }
  return { value, rss };
}

const growthMb = (r: RssRun) => (r.peakKb - r.baselineKb) / 1024;

type NoiseReading = { t: bigint; machine: number | null; servers: (number | null)[]; client: number };

/** CPU used by every other process on the machine (not the servers, not this client) since the last take(), as a fraction of one core. */
class Noise {
  private state: NoiseReading;
  constructor(private readonly pids: number[]) {
    this.state = this.now();
  }
  private now(): NoiseReading {
    const client = process.cpuUsage();
    return {
      t: process.hrtime.bigint(),
      machine: machineBusySeconds(),
      servers: this.pids.map(cpuSeconds),
      client: (client.user + client.system) / 1e6,
    };
  }
  take(): number | null {
    const a = this.state;
    const b = this.now();
    this.state = b;
    const wall = Number(b.t - a.t) / 1e9;
    if (a.machine === null || b.machine === null || wall <= 0) return null;
    let servers = 0;
    for (let i = 0; i < this.pids.length; i++) {
      const x = a.servers[i];
      const y = b.servers[i];
      if (x === null || x === undefined || y === null || y === undefined) return null;
      servers += y - x;
    }
    return Math.max(0, b.machine - a.machine - servers - (b.client - a.client)) / wall;
  }
}

// ─── the measurement ────────────────────────────────────────────────────────

type DownloadRun = { mbps: number; ms: number; ttfbMs: number; cpuMs: number | null; ok: boolean; note?: string };
type ConcurrentRun = { mbps: number; ms: number; cpuMs: number | null; ok: boolean; rss: RssRun; note?: string };

export async function benchFiles(ctx: FilesContext): Promise<FilesResult> {
  const { host, progress } = ctx;
  const ourOrigin = `http://${host}:${ctx.ourPort}`;
  const baseOrigin = `http://${host}:${ctx.basePort}`;
  await assertPortFree(ctx.ourPort, host);
  await assertPortFree(ctx.basePort, host);
  const t0 = Date.now();

  // The files: exactly 50 MB (accepted) and one byte more (refused).
  progress(`documents: writing a ${num(FILE_BYTES)} B PDF and a ${num(FILE_BYTES + 1)} B one`);
  const pdf = path.join(ctx.workDir, "bench-50mb.pdf");
  const pdfOver = path.join(ctx.workDir, "bench-50mb-plus-1.pdf");
  writePdf(pdf, FILE_BYTES);
  fs.copyFileSync(pdf, pdfOver);
  fs.appendFileSync(pdfOver, "\n");
  if (fs.statSync(pdfOver).size !== FILE_BYTES + 1) throw new Error("could not write the 50 MB + 1 byte file");

  // Our server, with its own database and storage, and an admin in it.
  const dataDir = path.join(ctx.workDir, "server");
  const env = ctx.serverEnv(ctx.ourPort, dataDir);
  const storageDir = env.STORAGE_DIR!;
  progress("documents: creating the admin (npm run admin:create against the bench DATABASE_PATH)");
  await createBenchAdmin(ctx.root, env);

  progress(`documents: starting our server on ${ourOrigin}`);
  const ours = startServer("our server (documents)", ctx.root, env);
  ctx.children.add(ours);
  let base: Child | null = null;
  try {
    await waitForHttp(`${ourOrigin}/healthz`, ours);

    // Sign in.
    const login = await requestJson(`${ourOrigin}/api/auth/login`, "POST", {}, await benchAdminLogin());
    if (login.status !== 200) throw new Error(`POST /api/auth/login answered ${login.status}: ${JSON.stringify(login.json)}`);
    const setCookie = login.headers["set-cookie"] ?? [];
    const cookie = setCookie.map((c) => c.split(";")[0]).join("; ");
    if (!cookie) throw new Error("POST /api/auth/login set no cookie");

    const uploadUrl = `${ourOrigin}/api/documents`;
    const upload = (file: string, title: string) =>
      postMultipart(uploadUrl, cookie, { title, category: "reports" }, { path: file, name: path.basename(file), type: "application/pdf" });
    const documentsDir = path.join(storageDir, "documents");
    const incomingDir = path.join(storageDir, "incoming");

    // 3. Upload memory: a warm-up upload, then RSS_RUNS measured ones.
    progress("documents: 50 MB upload (warm-up)");
    const idleKb = readMemory(ours.pid)?.rssKb ?? null;
    const { value: warm, rss: warmRss } = await withRss(ours.pid, () => upload(pdf, "Bench warm-up"));
    if (warm.status !== 201) throw new Error(`50 MB upload answered ${warm.status}: ${warm.body || warm.error}`);
    const uploads: { status: number; mbps: number; cpuMs: number | null; rss: RssRun; id: string | null; stored: string | null; error?: string }[] = [];
    for (let i = 0; i < RSS_RUNS; i++) {
      progress(`documents: 50 MB upload ${i + 1}/${RSS_RUNS}, sampling the server's RSS`);
      const before = new Set(listDir(documentsDir));
      let cpu0: number | null = null;
      let cpu1: number | null = null;
      const { value: sent, rss } = await withRss(ours.pid, async () => {
        cpu0 = cpuSeconds(ours.pid);
        const answer = await upload(pdf, `Bench 50 MB #${i + 1}`);
        cpu1 = cpuSeconds(ours.pid);
        return answer;
      });
      let id: string | null = null;
      try {
        id = (JSON.parse(sent.body) as { id?: string }).id ?? null;
      } catch {
        /* not JSON */
      }
      const stored = listDir(documentsDir).find((n) => !before.has(n)) ?? null;
      uploads.push({
        status: sent.status,
        mbps: mbps(FILE_BYTES, sent.ms),
        cpuMs: cpu0 !== null && cpu1 !== null ? ((cpu1 as number) - (cpu0 as number)) * 1000 : null,
        rss,
        id,
        stored,
        error: sent.status === 201 ? undefined : sent.body || sent.error,
      });
    }
    const good = uploads.find((u) => u.status === 201 && u.id && u.stored);
    if (!good) throw new Error(`no 50 MB upload succeeded: ${uploads.map((u) => `${u.status} ${u.error ?? ""}`).join("; ")}`);
    const storedFile = path.join(documentsDir, good.stored!);
    if (fs.statSync(storedFile).size !== FILE_BYTES) throw new Error(`stored file ${storedFile} is not ${FILE_BYTES} bytes`);

    // The bare baseline serves the very file our server stored.
    progress(`documents: starting the bare file server on ${baseOrigin}`);
    base = startChild("bare file server", process.execPath, ["--import", "tsx", path.join(ctx.root, "bench/file-server.ts"), host, String(ctx.basePort), storedFile], {
      cwd: ctx.root,
      env: ctx.baseEnv,
    });
    ctx.children.add(base);
    await waitForLine(base, "ready");

    const ourUrl = `${ourOrigin}/api/documents/${good.id}/download`;
    const baseUrl = `${baseOrigin}/bench.pdf`;
    const ourHeaders = { cookie, "accept-encoding": ACCEPT_ENCODING };
    const baseHeaders = { "accept-encoding": ACCEPT_ENCODING };
    const checkTransfer = (t: Transfer): string | undefined => {
      if (t.error) return t.error;
      if (t.status !== 200) return `HTTP ${t.status}`;
      if (t.bytes !== FILE_BYTES) return `${t.bytes} bytes`;
      if (t.headers["content-encoding"]) return `Content-Encoding: ${t.headers["content-encoding"]}`;
      if (!t.head.subarray(0, 5).equals(Buffer.from("%PDF-"))) return "body does not start with %PDF-";
      return undefined;
    };

    const one = async (url: string, headers: Record<string, string>, pid: number): Promise<DownloadRun> => {
      const cpu0 = cpuSeconds(pid);
      const t = await download(url, headers);
      const cpu1 = cpuSeconds(pid);
      const note = checkTransfer(t);
      return { mbps: mbps(t.bytes, t.ms), ms: t.ms, ttfbMs: t.ttfbMs, cpuMs: cpu0 !== null && cpu1 !== null ? (cpu1 - cpu0) * 1000 : null, ok: !note, note };
    };
    const many = async (url: string, headers: Record<string, string>, pid: number, n: number, rateMBps?: number): Promise<ConcurrentRun> => {
      let cpu0: number | null = null;
      let cpu1: number | null = null;
      const { value: ts, rss } = await withRss(pid, async () => {
        cpu0 = cpuSeconds(pid);
        const all = await Promise.all(Array.from({ length: n }, () => download(url, headers, rateMBps)));
        cpu1 = cpuSeconds(pid);
        return all;
      });
      const notes = ts.map(checkTransfer).filter(Boolean);
      const bytes = ts.reduce((s, t) => s + t.bytes, 0);
      const wall = Math.max(...ts.map((t) => t.ms));
      return {
        mbps: mbps(bytes, wall),
        ms: wall,
        cpuMs: cpu0 !== null && cpu1 !== null ? ((cpu1 as number) - (cpu0 as number)) * 1000 : null,
        ok: notes.length === 0,
        rss,
        note: notes.length ? `${notes.length} failed: ${notes[0]}` : undefined,
      };
    };

    // 1. Sequential downloads, alternating ours / bare after one warm-up each.
    progress(`documents: sequential 50 MB downloads, ${ctx.runs} per server (alternating)`);
    const { rss: seqWarmRss } = await withRss(ours.pid, () => one(ourUrl, ourHeaders, ours.pid), 100, 0);
    await one(baseUrl, baseHeaders, base.pid);
    const noise = new Noise([ours.pid, base.pid]);
    const seqOurs: DownloadRun[] = [];
    const seqBare: DownloadRun[] = [];
    const seqRss: RssRun[] = [];
    for (let i = 0; i < ctx.runs; i++) {
      const { value, rss } = await withRss(ours.pid, () => one(ourUrl, ourHeaders, ours.pid), 50, 0);
      seqOurs.push(value);
      seqRss.push(rss);
      seqBare.push(await one(baseUrl, baseHeaders, base.pid));
    }
    const seqNoise = noise.take();

    // 1 + 2. Concurrent downloads: RSS of each server while `concurrency` downloads run.
    progress(`documents: ${ctx.concurrency} concurrent 50 MB downloads, ${RSS_RUNS} runs per server after a warm-up, sampling RSS`);
    const conWarmOurs = await many(ourUrl, ourHeaders, ours.pid, ctx.concurrency);
    const conWarmBare = await many(baseUrl, baseHeaders, base.pid, ctx.concurrency);
    const conOurs: ConcurrentRun[] = [];
    const conBare: ConcurrentRun[] = [];
    noise.take();
    for (let i = 0; i < RSS_RUNS; i++) {
      conOurs.push(await many(ourUrl, ourHeaders, ours.pid, ctx.concurrency));
      conBare.push(await many(baseUrl, baseHeaders, base.pid, ctx.concurrency));
    }
    const conNoise = noise.take();

    // 2. The same with slow clients (SLOW_CLIENT_MBPS each): the server must wait for them, not buffer the file.
    progress(`documents: ${ctx.concurrency} concurrent 50 MB downloads by clients reading ${SLOW_CLIENT_MBPS} MB/s each, sampling RSS`);
    const slowOurs = await many(ourUrl, ourHeaders, ours.pid, ctx.concurrency, SLOW_CLIENT_MBPS);
    const slowBare = await many(baseUrl, baseHeaders, base.pid, ctx.concurrency, SLOW_CLIENT_MBPS);

    // 3. 50 MB + 1 byte: 413, and nothing left behind.
    progress("documents: 50 MB + 1 byte upload (must be refused)");
    const listBefore = await requestJson(uploadUrl, "GET", { cookie });
    const countBefore = Array.isArray(listBefore.json) ? listBefore.json.length : -1;
    const docsBefore = listDir(documentsDir);
    const { value: over, rss: overRss } = await withRss(ours.pid, () => upload(pdfOver, "Bench 50 MB + 1"));
    // withRss waited 1 s after the answer; the pieces must be gone at answer time, so look again at once and report both.
    const incomingAfter = listDir(incomingDir);
    const docsAfter = listDir(documentsDir);
    const listAfter = await requestJson(uploadUrl, "GET", { cookie });
    const countAfter = Array.isArray(listAfter.json) ? listAfter.json.length : -1;
    let overMessage = "";
    try {
      overMessage = (JSON.parse(over.body) as { error?: string }).error ?? over.body;
    } catch {
      overMessage = over.body || over.error || "";
    }
    const docsUnchanged = docsBefore.length === docsAfter.length && docsBefore.every((n, i) => docsAfter[i] === n);
    const overOk = over.status === 413 && incomingAfter.length === 0 && docsUnchanged && countAfter === countBefore && countBefore >= 0;

    // Stop.
    progress("documents: stopping the servers");
    await stopChild(base);
    ctx.children.delete(base);
    base = null;
    const ourStop = await stopChild(ours);
    ctx.children.delete(ours);

    // ─── report ─────────────────────────────────────────────────────────────
    const lines: string[] = [];
    const checks: Check[] = [];
    lines.push("");
    lines.push(`5. Documents (issue 4) — a ${num(FILE_BYTES)} B (50 MB) PDF uploaded with POST /api/documents, downloaded from GET /api/documents/{id}/download`);
    lines.push(`   ours: our server on :${ctx.ourPort} (pid ${ours.pid}, signed-in admin cookie) · bare: bench/file-server.ts on :${ctx.basePort} (node:http + fs.createReadStream, default options) sending the same stored file`);
    lines.push(`   client: this process, a fresh connection per transfer, accept-encoding: ${ACCEPT_ENCODING}; body bytes counted and dropped; MB = 2^20 B`);
    lines.push("");

    // Throughput.
    const seqOursMed = median(seqOurs.map((r) => r.mbps));
    const seqBareMed = median(seqBare.map((r) => r.mbps));
    const conOursMed = median(conOurs.map((r) => r.mbps));
    const conBareMed = median(conBare.map((r) => r.mbps));
    const seqRatio = seqBareMed ? seqOursMed / seqBareMed : 0;
    const conRatio = conBareMed ? conOursMed / conBareMed : 0;
    const seqClean = seqOurs.every((r) => r.ok) && seqBare.every((r) => r.ok);
    const conClean = conOurs.every((r) => r.ok) && conBare.every((r) => r.ok);
    // Total over the runs ÷ files: /proc counts CPU in 10 ms ticks, too coarse for one file.
    const cpuPer = (runs: { cpuMs: number | null }[], per: number) => {
      const v = runs.map((r) => r.cpuMs).filter((x): x is number => x !== null);
      return v.length ? f1(v.reduce((a, b) => a + b, 0) / (v.length * per)) : "n/a";
    };
    lines.push("   Download throughput");
    lines.push(
      table(
        ["mode", ">ours MB/s", ">bare MB/s", ">ours ÷ bare", "budget", "result", ">ours CPU ms/file", ">bare CPU ms/file"],
        [
          [
            `sequential, median of ${ctx.runs}`,
            f1(seqOursMed),
            f1(seqBareMed),
            seqRatio.toFixed(2),
            `≥ ${FILES_BUDGET.downloadRatio.toFixed(2)}`,
            passFail(seqRatio >= FILES_BUDGET.downloadRatio && seqClean) + (seqClean ? "" : " (errors)"),
            cpuPer(seqOurs, 1),
            cpuPer(seqBare, 1),
          ],
          [
            `${ctx.concurrency} at once, median of ${RSS_RUNS} (aggregate)`,
            f1(conOursMed),
            f1(conBareMed),
            conRatio.toFixed(2),
            `≥ ${FILES_BUDGET.downloadRatio.toFixed(2)}`,
            passFail(conRatio >= FILES_BUDGET.downloadRatio && conClean) + (conClean ? "" : " (errors)"),
            cpuPer(conOurs, ctx.concurrency),
            cpuPer(conBare, ctx.concurrency),
          ],
        ],
      ),
    );
    const pairRatio = median(seqOurs.map((r, i) => (seqBare[i]?.mbps ? r.mbps / seqBare[i]!.mbps : 0)));
    lines.push(
      `   sequential MB/s per run — ours: ${seqOurs.map((r) => f1(r.mbps)).join(", ")} · bare: ${seqBare.map((r) => f1(r.mbps)).join(", ")} · (info) median of the ${ctx.runs} back-to-back pair ratios: ${pairRatio.toFixed(2)}`,
    );
    lines.push(
      `   time to first byte (median) — ours ${f1(median(seqOurs.map((r) => r.ttfbMs)))} ms · bare ${f1(median(seqBare.map((r) => r.ttfbMs)))} ms; concurrent MB/s per run — ours: ${conOurs.map((r) => f1(r.mbps)).join(", ")} · bare: ${conBare.map((r) => f1(r.mbps)).join(", ")}`,
    );
    const pct = (v: number | null) => (v === null ? "n/a" : `${Math.round(v * 100)}%`);
    lines.push(
      `   NOTE: client and servers share this machine's ${os.cpus().length} CPUs; other processes used ${pct(seqNoise)} (sequential) and ${pct(conNoise)} (concurrent) of a core meanwhile. "CPU ms/file" (server CPU per 50 MB sent, total ÷ files) is the steadier figure.`,
    );
    if (Math.max(seqNoise ?? 0, conNoise ?? 0) > 0.2) {
      lines.push("   WARNING: the machine was busy with other work during the downloads: MB/s ratios are noisy; re-run on a quiet machine (or --runs=15).");
    }
    for (const r of [...seqOurs, ...seqBare, ...conOurs, ...conBare]) if (r.note) lines.push(`   transfer problem: ${r.note}`);
    checks.push({ name: "download MB/s ours ÷ bare, sequential", figure: seqRatio.toFixed(2), budget: `≥ ${FILES_BUDGET.downloadRatio.toFixed(2)}`, ok: seqRatio >= FILES_BUDGET.downloadRatio && seqClean });
    checks.push({
      name: `download MB/s ours ÷ bare, ${ctx.concurrency} concurrent`,
      figure: conRatio.toFixed(2),
      budget: `≥ ${FILES_BUDGET.downloadRatio.toFixed(2)}`,
      ok: conRatio >= FILES_BUDGET.downloadRatio && conClean,
    });

    // Download memory.
    const hwmNote = conOurs.every((r) => r.rss.hwmUsed) ? "VmRSS every 50 ms + VmHWM reset through clear_refs" : "VmRSS every 50 ms (clear_refs not allowed: peaks between samples can be missed)";
    lines.push("");
    lines.push(`   Our server's RSS during ${ctx.concurrency} concurrent 50 MB downloads (${hwmNote}; baseline = just before, after = 1 s later)`);
    const rssRows = (runs: RssRun[], per: number, label: string) =>
      runs.map((r, i) => [
        `${label} ${i + 1}`,
        mbOfKb(r.baselineKb),
        mbOfKb(r.peakKb),
        f1(growthMb(r)),
        f1(growthMb(r) / per),
        r.afterKb === null ? "n/a" : mbOfKb(r.afterKb),
        String(r.samples),
      ]);
    lines.push(
      table(
        ["run", ">baseline MB", ">peak MB", ">growth MB", ">per download MB", ">after 1 s MB", ">samples"],
        [
          ...rssRows([conWarmOurs.rss], ctx.concurrency, `ours ×${ctx.concurrency} warm-up`),
          ...rssRows(conOurs.map((r) => r.rss), ctx.concurrency, `ours ×${ctx.concurrency}`),
          ...rssRows([slowOurs.rss], ctx.concurrency, `ours ×${ctx.concurrency} at ${SLOW_CLIENT_MBPS} MB/s`),
          ...rssRows([conWarmBare.rss], ctx.concurrency, `bare ×${ctx.concurrency} warm-up`),
          ...rssRows(conBare.map((r) => r.rss), ctx.concurrency, `bare ×${ctx.concurrency}`),
          ...rssRows([slowBare.rss], ctx.concurrency, `bare ×${ctx.concurrency} at ${SLOW_CLIENT_MBPS} MB/s`),
        ],
      ),
    );
    const conGrowth = median(conOurs.map((r) => growthMb(r.rss)));
    const perDownload = conGrowth / ctx.concurrency;
    const seqGrowth = median(seqRss.map(growthMb));
    const bareGrowth = median(conBare.map((r) => growthMb(r.rss)));
    const slowPerDownload = growthMb(slowOurs.rss) / ctx.concurrency;
    const dlRssOk = perDownload <= FILES_BUDGET.downloadRssPerDownloadMb;
    const slowRssOk = slowPerDownload <= FILES_BUDGET.downloadRssPerDownloadMb && slowOurs.ok;
    lines.push(
      `   median growth: ours ${f1(conGrowth)} MB for ${ctx.concurrency} downloads = ${f1(perDownload)} MB per download (budget ≤ ${FILES_BUDGET.downloadRssPerDownloadMb} MB) — ${passFail(dlRssOk)}; one download at a time: ${f1(seqGrowth)} MB (median of ${ctx.runs}; the first after the uploads: ${f1(growthMb(seqWarmRss))} MB); bare server ×${ctx.concurrency}: ${f1(bareGrowth)} MB`,
    );
    lines.push(
      `   slow clients (${SLOW_CLIENT_MBPS} MB/s each, ${f1(slowOurs.ms / 1000)} s): ${f1(growthMb(slowOurs.rss))} MB = ${f1(slowPerDownload)} MB per download — ${passFail(slowRssOk)}${slowOurs.note ? ` (${slowOurs.note})` : ""}; bare server: ${f1(growthMb(slowBare.rss))} MB. Growth that is gone 1 s later is garbage not yet collected (V8 frees Buffers at its next GC), not memory held per download.`,
    );
    checks.push({
      name: `download RSS growth per download (${ctx.concurrency} concurrent)`,
      figure: `${f1(perDownload)} MB (${f1(conGrowth)} MB total)`,
      budget: `≤ ${FILES_BUDGET.downloadRssPerDownloadMb} MB`,
      ok: dlRssOk,
    });
    checks.push({
      name: `download RSS growth per download (${ctx.concurrency} slow clients)`,
      figure: `${f1(slowPerDownload)} MB (${f1(growthMb(slowOurs.rss))} MB total)`,
      budget: `≤ ${FILES_BUDGET.downloadRssPerDownloadMb} MB`,
      ok: slowRssOk,
    });

    // Upload memory.
    lines.push("");
    lines.push(
      `   Our server's RSS during a 50 MB upload (streamed from disk by the client; median of ${RSS_RUNS} after a warm-up upload; RSS after start + sign-in: ${idleKb === null ? "n/a" : `${mbOfKb(idleKb)} MB`})`,
    );
    lines.push(
      table(
        ["run", "status", ">MB/s", ">server CPU ms", ">baseline MB", ">peak MB", ">growth MB", ">after 1 s MB"],
        [
          [
            "warm-up (first after start)",
            String(warm.status),
            f1(mbps(FILE_BYTES, warm.ms)),
            "",
            mbOfKb(warmRss.baselineKb),
            mbOfKb(warmRss.peakKb),
            f1(growthMb(warmRss)),
            warmRss.afterKb === null ? "n/a" : mbOfKb(warmRss.afterKb),
          ],
          ...uploads.map((u, i) => [
          `upload ${i + 1}`,
          String(u.status),
          f1(u.mbps),
          u.cpuMs === null ? "n/a" : num(u.cpuMs),
          mbOfKb(u.rss.baselineKb),
          mbOfKb(u.rss.peakKb),
          f1(growthMb(u.rss)),
          u.rss.afterKb === null ? "n/a" : mbOfKb(u.rss.afterKb),
        ]),
        ],
      ),
    );
    const upGrowth = median(uploads.map((u) => growthMb(u.rss)));
    const upClean = uploads.every((u) => u.status === 201);
    const upOk = upGrowth <= FILES_BUDGET.uploadRssMb && upClean;
    lines.push(`   median growth ${f1(upGrowth)} MB (budget ≤ ${FILES_BUDGET.uploadRssMb} MB) — ${passFail(upOk)}${upClean ? "; every 50 MB upload answered 201" : "; NOT every upload answered 201"}`);
    for (const u of uploads) if (u.error) lines.push(`   upload problem: ${u.error}`);
    checks.push({ name: "50 MB upload RSS growth", figure: `${f1(upGrowth)} MB`, budget: `≤ ${FILES_BUDGET.uploadRssMb} MB`, ok: upOk });

    // 50 MB + 1.
    lines.push("");
    lines.push(
      `   50 MB + 1 B upload: HTTP ${over.status}${over.error ? ` (${over.error})` : ""} "${overMessage.slice(0, 80)}" in ${num(over.ms)} ms; server RSS growth ${f1(growthMb(overRss))} MB`,
    );
    lines.push(
      `   left behind: incoming/ ${incomingAfter.length ? incomingAfter.join(", ") : "empty"} · documents/ ${docsUnchanged ? `unchanged (${docsAfter.length} files)` : `CHANGED (${docsBefore.length} → ${docsAfter.length} files)`} · GET /api/documents ${countBefore} → ${countAfter} rows — ${passFail(overOk)}`,
    );
    checks.push({ name: "50 MB + 1 B upload refused, nothing left", figure: `${over.status}, incoming ${incomingAfter.length}, docs ${docsUnchanged ? "same" : "changed"}`, budget: "413, none", ok: overOk });
    lines.push(
      `   our documents server stopped on SIGTERM: exit ${ourStop.code ?? "-"}${ourStop.signal ? ` (signal ${ourStop.signal})` : ""}${ourStop.killed ? " — did NOT exit within 15 s, killed" : ""}; part took ${((Date.now() - t0) / 1000).toFixed(0)} s`,
    );

    const round = (n: number, d = 1) => Number(n.toFixed(d));
    const summary = {
      fileBytes: FILE_BYTES,
      download: {
        sequential: { runs: ctx.runs, oursMBps: round(seqOursMed), bareMBps: round(seqBareMed), ratio: round(seqRatio, 3), pairRatio: round(pairRatio, 3), otherCpu: seqNoise === null ? null : round(seqNoise, 2) },
        concurrent: { connections: ctx.concurrency, runs: RSS_RUNS, oursMBps: round(conOursMed), bareMBps: round(conBareMed), ratio: round(conRatio, 3), otherCpu: conNoise === null ? null : round(conNoise, 2) },
        rssGrowthMb: {
          concurrentTotal: round(conGrowth),
          perDownload: round(perDownload),
          sequential: round(seqGrowth),
          warmupConcurrent: round(growthMb(conWarmOurs.rss)),
          slowClientsTotal: round(growthMb(slowOurs.rss)),
          bareSlowClientsTotal: round(growthMb(slowBare.rss)),
          bareConcurrent: round(bareGrowth),
        },
      },
      upload: { rssGrowthMb: round(upGrowth), warmupGrowthMb: round(growthMb(warmRss)), idleRssMb: idleKb === null ? null : round(idleKb / 1024), runs: uploads.map((u) => ({ status: u.status, MBps: round(u.mbps), growthMb: round(growthMb(u.rss)) })) },
      overLimit: { status: over.status, incomingLeft: incomingAfter.length, documentsUnchanged: docsUnchanged, rowsBefore: countBefore, rowsAfter: countAfter },
    };
    return { lines, checks, summary };
  } finally {
    if (base) {
      await stopChild(base).catch(() => {});
      ctx.children.delete(base);
    }
    if (!ours.hasExited()) await stopChild(ours).catch(() => {});
    ctx.children.delete(ours);
  }
}
