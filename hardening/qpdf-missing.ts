/**
 * qpdf-missing: a fresh VPS without qpdf (issue 26 §7). The production server
 * is started with a PATH that lacks qpdf (every folder of this PATH that holds
 * one is left out; checked before the server starts), as a new user on a
 * machine with Node alone would run it. Then:
 *
 * - /readyz: 200 (still ready) and `watermark: "unavailable"`, naming qpdf;
 * - the upload forms (/admin/documents/upload and the bulk upload) show the
 *   watermark switch disabled, with the line that says what to install;
 * - POST /api/documents with watermark=on: 400 with that line as the message
 *   and under `watermark`, nothing stored; PATCH of a document's watermark to
 *   true: the same 400; the bulk upload with the watermark on (posted without
 *   JavaScript): 400 with the line, no batch left;
 * - an investor's view and download of a watermarked document (its switch set
 *   in the database, as for a document uploaded while qpdf was there): 503, a
 *   page for a browser (Accept: text/html), JSON for the API, HEAD too; no
 *   access recorded; the admin still gets the stored file;
 * - nothing else: an unwatermarked upload is 201 and the investor's download
 *   of it is the stored bytes;
 * - the log says why exactly once ("Watermarks are unavailable: qpdf was not
 *   found on the PATH …" at start), however many refusals follow; no other
 *   5xx, no crash.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { watermarkCopy } from "../app/content/watermark";
import { samplePdf } from "../tests/helpers/sample-files";
import { jsonBody, openDatabase, startServer, Tally, unique, type HttpAnswer, type Section } from "./harness";
import { dbValue, multipartBody, Portal } from "./web-helpers";

/** A client address of its own (no TRUST_PROXY): the section's sign-ins share no rate limit with others. */
const LOCAL_ADDRESS = "127.0.0.52";
const INSTALL = watermarkCopy.unavailable.install;
/** The start of the one log line that says why (app/modules/watermark/availability.server.ts). */
const WHY = "Watermarks are unavailable: qpdf was not found on the PATH";
const BROWSER = { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" };
const API = { accept: "application/json" };
/** How many times each refused download is asked for (the log must still say why once). */
const REPEATS = 3;

/** process.env.PATH without every folder that holds an executable qpdf. */
function pathWithoutQpdf(): string {
  const folders = (process.env.PATH ?? "").split(path.delimiter).filter(Boolean);
  return folders
    .filter((folder) => {
      try {
        fs.accessSync(path.join(folder, "qpdf"), fs.constants.X_OK);
        return false;
      } catch {
        return true;
      }
    })
    .join(path.delimiter);
}

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

function json(answer: HttpAnswer): Record<string, unknown> {
  try {
    return JSON.parse(answer.text) as Record<string, unknown>;
  } catch {
    return {};
  }
}

/** The `<input …>` tag of the watermark checkbox in a page's HTML ("" when there is none). */
const watermarkInput = (html: string) => /<input\b[^>]*\bname="watermark"[^>]*>/.exec(html)?.[0] ?? "";

export const section: Section = {
  name: "qpdf-missing",
  run: async (ctx) => {
    const t = new Tally();
    const PATH = pathWithoutQpdf();
    const probe = spawnSync("qpdf", ["--version"], { env: { PATH }, stdio: "ignore" });
    t.check("qpdf cannot be found on the server's PATH", (probe.error as NodeJS.ErrnoException | undefined)?.code === "ENOENT", `qpdf --version with that PATH: ${probe.error?.message ?? `exit ${probe.status}`}`);

    const server = await startServer(ctx, { name: "qpdf-missing", env: { PATH } });
    const statuses: number[] = [];
    try {
      const portal = await new Portal(server, {}, LOCAL_ADDRESS).init();
      const investor = await portal.investor();
      const call = async (method: string, target: string, cookie: string, headers: Record<string, string> = {}, body?: { headers: Record<string, string>; body?: string | Buffer }) => {
        const answer = await portal.call(method, target, body ?? { headers: {} }, cookie, headers);
        statuses.push(answer.status);
        return answer;
      };

      // /readyz: ready, and says what is missing.
      const ready = await call("GET", "/readyz", "");
      const readyBody = json(ready);
      t.check(
        "/readyz 200 with watermark: unavailable, naming qpdf",
        ready.status === 200 && readyBody.watermark === "unavailable" && readyBody.watermarkMissing === "qpdf",
        `${ready.status} ${ready.text.slice(0, 300)}`,
      );

      // The upload forms: the switch disabled, with the line.
      for (const [label, page] of [
        ["upload form", "/admin/documents/upload"],
        ["bulk upload form", "/admin/documents/bulk"],
      ] as const) {
        const answer = await call("GET", page, portal.adminCookie, BROWSER);
        const input = watermarkInput(answer.text);
        t.check(
          `${label}: watermark switch disabled, with the line saying what to install`,
          answer.status === 200 && /\bdisabled=""/.test(input) && !/\bchecked=""/.test(input) && answer.text.includes(INSTALL),
          `${answer.status}; input ${input || "(none)"}; line ${answer.text.includes(INSTALL) ? "present" : "missing"}`,
        );
      }

      // A watermarked upload: 400 with the line, under watermark; nothing stored.
      const documentsBefore = dbValue<number>(server, "select count(*) from documents") ?? -1;
      const title = `Stamped ${unique()}`;
      const refused = await call(
        "POST",
        "/api/documents",
        portal.adminCookie,
        API,
        multipartBody({ title, category: "reports", watermark: "on" }, { name: "stamped.pdf", type: "application/pdf", bytes: samplePdf(title) }),
      );
      const refusedBody = json(refused) as { error?: string; fields?: Record<string, string[]> };
      t.check(
        "watermarked upload: 400 with the line, under watermark",
        refused.status === 400 && refusedBody.error === INSTALL && refusedBody.fields?.watermark?.[0] === INSTALL,
        `${refused.status} ${refused.text.slice(0, 300)}`,
      );
      t.count("documents stored by the refused upload", (dbValue<number>(server, "select count(*) from documents") ?? -1) - documentsBefore);

      // The bulk upload with the watermark on (a post without JavaScript): 400 with the line, no batch kept.
      const bulk = await call(
        "POST",
        "/admin/documents/bulk",
        portal.adminCookie,
        BROWSER,
        multipartBody({ title: `Bulk ${unique()}`, category: "reports", watermark: "on" }, { name: `${investor.email}.pdf`, type: "application/pdf", bytes: samplePdf("bulk") }, "files"),
      );
      const staging = path.join(server.storageDir, "staging");
      const batchesLeft = fs.existsSync(staging) ? fs.readdirSync(staging).length : 0;
      t.check("watermarked bulk upload: 400 with the line", bulk.status === 400 && bulk.text.includes(INSTALL), `${bulk.status} ${bulk.text.slice(0, 200)}`);
      t.count("bulk batches left by the refused upload", batchesLeft);

      // Nothing else: an unwatermarked upload and its download.
      const plainTitle = `Plain ${unique()}`;
      const plainBytes = samplePdf(plainTitle);
      const plain = await call("POST", "/api/documents", portal.adminCookie, API, multipartBody({ title: plainTitle, category: "reports" }, { name: "plain.pdf", type: "application/pdf", bytes: plainBytes }));
      const plainId = String(json(plain).id ?? "");
      t.check("unwatermarked upload: 201", plain.status === 201 && plainId !== "", `${plain.status} ${plain.text.slice(0, 200)}`);
      const plainDownload = await call("GET", `/api/documents/${plainId}/download`, investor.cookie, BROWSER);
      t.check(
        "unwatermarked download by the investor: 200, the stored bytes",
        plainDownload.status === 200 && sha256(plainDownload.body) === sha256(plainBytes),
        `${plainDownload.status} ${plainDownload.body.length} bytes`,
      );

      // Turning the watermark on later: the same 400.
      const patch = await call("PATCH", `/api/documents/${plainId}`, portal.adminCookie, API, jsonBody({ watermark: true }));
      const patchBody = json(patch) as { fields?: Record<string, string[]> };
      t.check("watermark turned on later (PATCH): 400 with the line", patch.status === 400 && patchBody.fields?.watermark?.[0] === INSTALL, `${patch.status} ${patch.text.slice(0, 300)}`);

      // A watermarked document (uploaded while qpdf was there): its switch set in the database.
      const stampedTitle = `Was stamped ${unique()}`;
      const stampedBytes = samplePdf(stampedTitle);
      const stamped = await call("POST", "/api/documents", portal.adminCookie, API, multipartBody({ title: stampedTitle, category: "reports" }, { name: "was-stamped.pdf", type: "application/pdf", bytes: stampedBytes }));
      const stampedId = String(json(stamped).id ?? "");
      const db = openDatabase(server, false);
      try {
        db.prepare("update documents set watermark = 1 where id = ?").run(stampedId);
      } finally {
        db.close();
      }
      const accessesBefore = dbValue<number>(server, "select count(*) from access_log") ?? -1;
      let pages = 0;
      let jsons = 0;
      let heads = 0;
      const samples: string[] = [];
      for (let round = 0; round < REPEATS; round++) {
        for (const action of ["view", "download"] as const) {
          const page = await call("GET", `/api/documents/${stampedId}/${action}`, investor.cookie, BROWSER);
          const isPage =
            page.status === 503 &&
            String(page.headers["content-type"]).startsWith("text/html") &&
            page.text.includes(watermarkCopy.unavailable.page.title) &&
            page.text.includes('href="/lp/dashboard"');
          if (isPage) pages += 1;
          else samples.push(`${action} (browser): ${page.status} ${String(page.headers["content-type"])} ${page.text.slice(0, 120)}`);
          const api = await call("GET", `/api/documents/${stampedId}/${action}`, investor.cookie, API);
          const apiBody = json(api);
          if (api.status === 503 && apiBody.error === watermarkCopy.unavailable.download && apiBody.watermark === "unavailable") jsons += 1;
          else samples.push(`${action} (API): ${api.status} ${api.text.slice(0, 120)}`);
          const head = await call("HEAD", `/api/documents/${stampedId}/${action}`, investor.cookie, API);
          if (head.status === 503) heads += 1;
          else samples.push(`${action} (HEAD): ${head.status}`);
        }
      }
      t.count("watermarked view/download, browser: 503 with the page", pages, 2 * REPEATS);
      t.count("watermarked view/download, API: 503 JSON", jsons, 2 * REPEATS);
      t.count("watermarked view/download, HEAD: 503", heads, 2 * REPEATS);
      t.count("accesses recorded for the refused downloads", (dbValue<number>(server, "select count(*) from access_log") ?? -1) - accessesBefore);
      for (const sample of samples.slice(0, 5)) t.note(sample);

      const adminCopy = await call("GET", `/api/documents/${stampedId}/download`, portal.adminCookie, BROWSER);
      t.check("the admin's download of it: 200, the stored bytes", adminCopy.status === 200 && sha256(adminCopy.body) === sha256(stampedBytes), `${adminCopy.status}`);

      // The log says why once, whatever the number of refusals.
      const why = server.logLines().filter((line) => line.includes(WHY));
      t.count("log lines saying why watermarks are unavailable", why.length, 1);
      if (why[0]) t.note(why[0].slice(0, 400));
      t.count("5xx answers other than the refused watermarked downloads", statuses.filter((status) => status >= 500 && status !== 503).length);
      t.count("503 answers", statuses.filter((status) => status === 503).length, 3 * 2 * REPEATS);
      t.count("server crashes", server.unexpectedExits());
      t.info("requests", statuses.length);
    } finally {
      await server.stop();
    }
    return t.result();
  },
};
