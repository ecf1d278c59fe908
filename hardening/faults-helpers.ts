/**
 * Helpers for the faults section (hardening/faults.ts): a multipart upload
 * sent in steps (so a test can stop, abort or kill the server at a chosen
 * point of the body), and an audit of STORAGE_DIR against the database.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { listFiles, multipart, openDatabase, sleep, type AppServer, type Tally } from "./harness";

// ─── multipart, sent in steps ───────────────────────────────────────────────

export type MultipartBody = {
  body: Buffer;
  contentType: string;
  /** Offset of the file's first byte in `body`, and its length. */
  fileStart: number;
  fileLength: number;
};

/** A multipart/form-data body: text fields, then one file part named "file" (harness.multipart). */
export function multipartBody(fields: Record<string, string>, file: { name: string; type: string; data: Buffer }): MultipartBody {
  const boundary = `----faults${randomBytes(12).toString("hex")}`;
  const fieldParts = Object.entries(fields).map(([name, value]) => ({ name, value }));
  const { headers, body } = multipart([...fieldParts, { name: "file", value: file.data, filename: file.name, contentType: file.type }], boundary);
  // The file is the last part: after it come only its CRLF and the closing boundary.
  const tail = Buffer.byteLength(`\r\n--${boundary}--\r\n`);
  return { body, contentType: headers["content-type"]!, fileStart: body.length - tail - file.data.length, fileLength: file.data.length };
}

export type UploadOutcome =
  | { kind: "answer"; status: number; text: string; ms: number }
  | { kind: "error"; error: string; ms: number };

/**
 * One POST whose body is written on demand: `sendTo(n)` writes up to byte n
 * (respecting back-pressure), `finish()` writes the rest and waits for the
 * answer, `abort()` destroys the socket. An answer that comes before the body
 * is all sent (e.g. an early 4xx/5xx) is kept; write errors after it are not errors.
 */
export class StreamingUpload {
  sent = 0;
  readonly outcome: Promise<UploadOutcome>;
  private readonly req: http.ClientRequest;
  private closed = false;
  private readonly started = Date.now();

  constructor(
    baseUrl: string,
    pathname: string,
    private readonly multipart: MultipartBody,
    headers: Record<string, string>,
    /** Socket inactivity that counts as a hang. */
    idleTimeoutMs = 30_000,
  ) {
    const url = new URL(pathname, baseUrl);
    this.req = http.request(url, {
      method: "POST",
      agent: false,
      headers: { ...headers, "content-type": multipart.contentType, "content-length": multipart.body.length },
    });
    this.req.setTimeout(idleTimeoutMs, () => this.req.destroy(new Error(`no progress for ${idleTimeoutMs} ms (hang)`)));
    this.outcome = new Promise<UploadOutcome>((resolve) => {
      let answered = false;
      this.req.on("response", (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({ kind: "answer", status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8"), ms: Date.now() - this.started }),
        );
        res.on("error", (error) => resolve({ kind: "error", error: `answer cut off: ${error.message}`, ms: Date.now() - this.started }));
      });
      this.req.on("error", (error) => {
        this.closed = true;
        if (!answered) resolve({ kind: "error", error: error.message, ms: Date.now() - this.started });
      });
      this.req.on("close", () => {
        this.closed = true;
        if (!answered) resolve({ kind: "error", error: "socket closed without an answer", ms: Date.now() - this.started });
      });
    });
  }

  get total(): number {
    return this.multipart.body.length;
  }

  /** Write the body up to byte `limit` (or stop early when the connection is gone). */
  async sendTo(limit: number): Promise<void> {
    const end = Math.min(limit, this.total);
    while (this.sent < end && !this.closed) {
      const next = Math.min(end, this.sent + 256 * 1024);
      const ok = this.req.write(this.multipart.body.subarray(this.sent, next));
      this.sent = next;
      if (!ok) await this.drained();
    }
  }

  /** The whole body, then the answer. */
  async finish(): Promise<UploadOutcome> {
    await this.sendTo(this.total);
    if (!this.closed) this.req.end();
    return this.outcome;
  }

  /** The client goes away mid-upload (socket destroyed). */
  abort(): void {
    this.req.destroy();
  }

  private drained(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        this.req.off("drain", done);
        this.req.off("close", done);
        resolve();
      };
      this.req.on("drain", done);
      this.req.on("close", done);
    });
  }
}

/** Fields of a valid LP document upload. */
export function lpFields(title: string): Record<string, string> {
  return { title, category: "reports", description: "hardening faults" };
}

// ─── storage against the database ───────────────────────────────────────────

export type StorageAudit = {
  /** Every file under STORAGE_DIR (incoming/ included), relative, with / separators. */
  files: string[];
  /** documents + fund_documents rows. */
  rows: number;
  /** Files no row points at. */
  orphans: string[];
  /** Rows whose file is missing. */
  dangling: string[];
  /** Files in incoming/. */
  incoming: string[];
};

export function auditStorage(server: AppServer): StorageAudit {
  const db = openDatabase(server);
  let paths: string[];
  try {
    paths = (
      db.prepare("select file_path as p from documents union all select file_path as p from fund_documents").all() as Array<{ p: string }>
    ).map((r) => r.p);
  } finally {
    db.close();
  }
  const files = listFiles(server.storageDir)
    .map((f) => f.split(path.sep).join("/"))
    .filter((f) => f !== "lost+found" && !f.startsWith("lost+found/"));
  const referenced = new Set(paths);
  return {
    files,
    rows: paths.length,
    orphans: files.filter((f) => !referenced.has(f)),
    dangling: paths.filter((p) => !fs.existsSync(path.join(server.storageDir, p))),
    incoming: files.filter((f) => f.startsWith("incoming/")),
  };
}

/** Record the audit's counts (orphans, dangling rows) under `prefix`. */
export function tallyAudit(t: Tally, prefix: string, audit: StorageAudit) {
  t.count(`${prefix}: orphan files`, audit.orphans.length, 0, `not referenced by any row: ${audit.orphans.slice(0, 5).join(", ")}`);
  t.count(`${prefix}: rows with a missing file`, audit.dangling.length, 0, audit.dangling.slice(0, 5).join(", "));
}

/** Size of the largest file in incoming/ (bytes), or -1 when there is none. */
export function incomingSize(server: AppServer): number {
  const dir = path.join(server.storageDir, "incoming");
  let largest = -1;
  for (const name of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
    try {
      largest = Math.max(largest, fs.statSync(path.join(dir, name)).size);
    } catch {
      /* removed meanwhile */
    }
  }
  return largest;
}

/** Wait until the partial upload in incoming/ stops growing (stable for `stableMs`); returns its size (-1: none). */
export async function waitIncomingSettled(server: AppServer, timeoutMs = 20_000, stableMs = 400): Promise<number> {
  const started = Date.now();
  let last = -2;
  let since = Date.now();
  while (Date.now() - started < timeoutMs) {
    const size = incomingSize(server);
    if (size !== last) {
      last = size;
      since = Date.now();
    } else if (size > 0 && Date.now() - since >= stableMs) {
      return size;
    }
    await sleep(50);
  }
  return last;
}

/** Poll until `done()` or the timeout; returns the ms waited, or -1 on timeout. */
export async function waitUntil(done: () => boolean, timeoutMs: number, stepMs = 100): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    if (done()) return Date.now() - started;
    await sleep(stepMs);
  }
  return done() ? Date.now() - started : -1;
}

/** Request log lines (JSON) with a 5xx status, from `from` on. */
export function logged5xx(server: AppServer, from = 0): string[] {
  return server
    .logLines()
    .slice(from)
    .filter((line) => {
      try {
        const entry = JSON.parse(line) as { msg?: string; status?: number };
        return entry.msg === "request" && typeof entry.status === "number" && entry.status >= 500;
      } catch {
        return false;
      }
    });
}

export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

export function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
