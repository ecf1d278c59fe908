/**
 * audience: LP documents addressed to chosen investors (audience 'selected'),
 * tried from outside against the production build, as another investor who
 * knows or guesses a document's id would try it.
 *
 * - Another investor's document through every route an investor reads by:
 *   the JSON list, /lp/dashboard (HTML) and its loader request
 *   /lp/dashboard.data, view and download with GET, HEAD, byte ranges,
 *   conditional requests with the real ETag (If-None-Match, If-Range) and a
 *   few path spellings, and the admin-only PATCH/DELETE: each answer equals
 *   the one for an unknown id (status, headers but Date and X-Request-Id,
 *   body), and the lists never mention it. Every probe has a control: the
 *   recipient's same request opens the document, so the ids are real.
 * - Id enumeration: N random uuids and the real hidden ids (several, of
 *   different types and sizes) give one and the same answer; median times are
 *   printed for information only.
 * - The audience changed while a download streams: investor A reads a large
 *   PDF addressed to them slowly; mid-stream the admin re-addresses it to B
 *   only. The download in flight may finish, but every new request by A
 *   (resuming with Range and If-Range, a new full request, view, HEAD, the
 *   ETag revalidation, the lists) answers as for an unknown id. Re-addressing
 *   it to A again lets the resume work (206 with the right bytes).
 */
import { randomUUID } from "node:crypto";
import http from "node:http";
import { MIME, sampleOoxml, samplePdf } from "../tests/helpers/sample-files";
import { jsonBody, multipart, startServer, Tally, unique, type HttpAnswer, type Part, type Section } from "./harness";
import { dbValue, headerValue, Portal } from "./web-helpers";

/** A local address of its own (no TRUST_PROXY): the section's sign-ins and registrations share no limit with others. */
const LOCAL_ADDRESS = "127.0.0.41";
/** Headers that differ on every answer whatever it says. */
const VARYING = new Set(["date", "x-request-id"]);
const BIG_BYTES = 20 * 1024 * 1024;
/** A reads this much of the big PDF (slowly) before the audience changes. */
const READ_BEFORE_CHANGE = 2 * 1024 * 1024;

type Probe = { label: string; method?: string; headers?: Record<string, string> };

/** Everything an answer says but Date and X-Request-Id: equal fingerprints are indistinguishable answers. */
function fingerprint(answer: HttpAnswer): string {
  const headers = Object.entries(answer.headers)
    .filter(([name]) => !VARYING.has(name))
    .sort(([a], [b]) => a.localeCompare(b));
  return JSON.stringify({ status: answer.status, headers, body: answer.body.toString("base64") });
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor(sorted.length / 2)]! : NaN;
};

export const section: Section = {
  name: "audience",
  run: async (ctx) => {
    const t = new Tally();
    const started = Date.now();
    const server = await startServer(ctx, { name: "audience" });
    let requests = 0;
    let serverErrors = 0;
    try {
      const portal = await new Portal(server, {}, LOCAL_ADDRESS).init();
      const call = async (method: string, path: string, cookie: string, headers: Record<string, string> = {}, body?: { headers: Record<string, string>; body?: string | Buffer }) => {
        requests += 1;
        const answer = await portal.call(method, path, body ?? { headers: {} }, cookie, headers);
        if (answer.status >= 500) serverErrors += 1;
        return answer;
      };
      const a = await portal.investor();
      const b = await portal.investor();

      /** POST /api/documents with an audience (recipientIds repeated) as the admin; returns the new id. */
      const upload = async (title: string, file: { bytes: Buffer; name: string; type: string }, recipients: string[] | "all") => {
        const parts: Part[] = [
          { name: "title", value: title },
          { name: "category", value: "reports" },
          { name: "audience", value: recipients === "all" ? "all" : "selected" },
          ...(recipients === "all" ? [] : recipients.map((id) => ({ name: "recipientIds", value: id }))),
          { name: "file", value: file.bytes, filename: file.name, contentType: file.type },
        ];
        const answer = await call("POST", "/api/documents", portal.adminCookie, {}, multipart(parts));
        if (answer.status !== 201) throw new Error(`upload ${title}: ${answer.status} ${answer.text.slice(0, 200)}`);
        return (JSON.parse(answer.text) as { id: string }).id;
      };
      const readdress = async (id: string, recipients: string[] | "all") => {
        const body = recipients === "all" ? { audience: "all" } : { audience: "selected", recipientIds: recipients };
        const answer = await call("PATCH", `/api/documents/${id}`, portal.adminCookie, {}, jsonBody(body));
        if (answer.status !== 200) throw new Error(`PATCH ${id}: ${answer.status} ${answer.text.slice(0, 200)}`);
      };

      const pdf = (title: string, size?: number) => ({ bytes: samplePdf(title, size), name: `${title}.pdf`, type: MIME.pdf });
      const hiddenTitle = `For A only ${unique()}`;
      const forAll = await upload(`For everyone ${unique()}`, pdf("everyone"), "all");
      const hidden = await upload(hiddenTitle, pdf("a-only", 5000), [a.id]);
      // More of A's documents for the enumeration: other types and sizes.
      const moreHidden = [
        await upload(`A memo ${unique()}`, { bytes: await sampleOoxml("docx"), name: "memo.docx", type: MIME.docx }, [a.id]),
        await upload(`A deck ${unique()}`, { bytes: await sampleOoxml("pptx"), name: "deck.pptx", type: MIME.pptx }, [a.id]),
        await upload(`A letter ${unique()}`, pdf("a-letter", 250_000), [a.id]),
        await upload(`A notice ${unique()}`, pdf("a-notice"), [a.id]),
      ];
      const hiddenIds = [hidden, ...moreHidden];
      ctx.progress(`setup done (${((Date.now() - started) / 1000).toFixed(1)} s)`);

      // ── (a) another investor's document through every route ─────────────
      const leaks: string[] = [];
      const leak = (what: string) => leaks.push(what);
      const realEtag = headerValue(await call("HEAD", `/api/documents/${hidden}/download`, a.cookie), "etag");
      const lastModified = headerValue(await call("HEAD", `/api/documents/${hidden}/view`, a.cookie), "last-modified");
      t.check("the recipient's ETag is real (A's If-None-Match → 304)", realEtag !== "" && (await call("GET", `/api/documents/${hidden}/download`, a.cookie, { "if-none-match": realEtag })).status === 304, `ETag ${realEtag || "missing"}`);

      const probes: Probe[] = [
        { label: "GET" },
        { label: "HEAD", method: "HEAD" },
        { label: "Range bytes=0-99", headers: { range: "bytes=0-99" } },
        { label: "Range bytes=100-", headers: { range: "bytes=100-" } },
        { label: "Range bytes=-10", headers: { range: "bytes=-10" } },
        { label: "Range past the end", headers: { range: "bytes=99999999-" } },
        { label: "two ranges", headers: { range: "bytes=0-9,20-29" } },
        { label: "If-None-Match real ETag", headers: { "if-none-match": realEtag } },
        { label: "HEAD If-None-Match real ETag", method: "HEAD", headers: { "if-none-match": realEtag } },
        { label: "If-None-Match *", headers: { "if-none-match": "*" } },
        { label: "If-Modified-Since Last-Modified", headers: { "if-modified-since": lastModified } },
        { label: "Range + If-Range real ETag", headers: { range: "bytes=0-99", "if-range": realEtag } },
        { label: "Accept-Encoding gzip, br", headers: { "accept-encoding": "gzip, br" } },
      ];
      let fileProbes = 0;
      let controlsOpened = 0;
      for (const kind of ["view", "download"] as const) {
        for (const probe of probes) {
          const method = probe.method ?? "GET";
          const control = await call(method, `/api/documents/${hidden}/${kind}`, a.cookie, probe.headers);
          if (control.status !== 404) controlsOpened += 1;
          const asB = await call(method, `/api/documents/${hidden}/${kind}`, b.cookie, probe.headers);
          const unknown = await call(method, `/api/documents/${randomUUID()}/${kind}`, b.cookie, probe.headers);
          fileProbes += 1;
          if (asB.status !== 404 || fingerprint(asB) !== fingerprint(unknown)) {
            leak(`${kind} ${probe.label}: B got ${asB.status} (${headerValue(asB, "content-type")}), unknown id ${unknown.status}`);
          }
        }
        // Other spellings of the same path: a trailing slash, the id in capitals.
        for (const [label, path, unknownPath] of [
          ["trailing slash", `/api/documents/${hidden}/${kind}/`, `/api/documents/${randomUUID()}/${kind}/`],
          ["id in capitals", `/api/documents/${hidden.toUpperCase()}/${kind}`, `/api/documents/${randomUUID().toUpperCase()}/${kind}`],
        ] as const) {
          const asB = await call("GET", path, b.cookie);
          const unknown = await call("GET", unknownPath, b.cookie);
          fileProbes += 1;
          if (asB.status !== 404 || fingerprint(asB) !== fingerprint(unknown)) leak(`${kind} ${label}: B got ${asB.status}, unknown id ${unknown.status}`);
        }
      }
      t.count("file probes whose recipient control did not open", probes.length * 2 - controlsOpened, 0, "A must read A's document, else the probes prove nothing");

      // The admin-only routes of a document: an investor learns nothing there either.
      for (const [method, body] of [
        ["PATCH", jsonBody({ audience: "all" })],
        ["DELETE", { headers: {} }],
        ["GET", { headers: {} }],
      ] as const) {
        const asB = await call(method, `/api/documents/${hidden}`, b.cookie, {}, body);
        const unknown = await call(method, `/api/documents/${randomUUID()}`, b.cookie, {}, body);
        fileProbes += 1;
        if (asB.status < 400 || fingerprint(asB) !== fingerprint(unknown)) leak(`${method} /api/documents/{id}: B got ${asB.status}, unknown id ${unknown.status}`);
      }

      // Lists: the JSON list, the dashboard page and its loader data.
      const mentions = (text: string) => [hidden, ...moreHidden, hiddenTitle].some((needle) => text.includes(needle));
      let listProbes = 0;
      for (const path of ["/api/documents", "/lp/dashboard", "/lp/dashboard.data", "/lp/dashboard.data?_routes=routes%2Flp%2Fdashboard"]) {
        const asB = await call("GET", path, b.cookie);
        const asA = await call("GET", path, a.cookie);
        listProbes += 1;
        if (asB.status !== 200 || !asB.text.includes(forAll)) leak(`${path}: B's answer ${asB.status} lacks the document for everyone (the check would prove nothing)`);
        if (mentions(asB.text)) leak(`${path}: B's answer mentions A's document`);
        if (asA.status !== 200 || !asA.text.includes(hidden)) leak(`${path}: A's answer ${asA.status} lacks A's document (control)`);
      }
      const adminList = JSON.parse((await call("GET", "/api/documents", portal.adminCookie)).text) as Array<{ id: string; recipientIds?: string[] }>;
      t.check("the admin lists A's document with recipientIds [A]", JSON.stringify(adminList.find((d) => d.id === hidden)?.recipientIds) === JSON.stringify([a.id]), "missing or wrong recipientIds");
      t.info("(a) file and admin-route probes (each: B, unknown id, control)", fileProbes);
      t.info("(a) list probes (JSON, HTML, .data ×2)", listProbes);

      // ── (b) id enumeration ───────────────────────────────────────────────
      const n = ctx.full ? 1000 : 100;
      const answers = new Map<string, number>();
      const hiddenAnswers = new Set<string>();
      const times = { random: [] as number[], hidden: [] as number[] };
      for (const kind of ["view", "download"] as const) {
        for (let i = 0; i < n; i++) {
          const t0 = performance.now();
          const answer = await call("GET", `/api/documents/${randomUUID()}/${kind}`, b.cookie);
          times.random.push(performance.now() - t0);
          const key = fingerprint(answer);
          answers.set(key, (answers.get(key) ?? 0) + 1);
        }
        for (let round = 0; round < 5; round++) {
          for (const id of hiddenIds) {
            const t0 = performance.now();
            const answer = await call("GET", `/api/documents/${id}/${kind}`, b.cookie);
            times.hidden.push(performance.now() - t0);
            hiddenAnswers.add(fingerprint(answer));
          }
        }
      }
      const onlyAnswer = answers.size === 1 ? [...answers.keys()][0]! : null;
      t.count("(b) distinct answers to random uuids", answers.size, 1);
      const distinguishable = [...hiddenAnswers].filter((key) => key !== onlyAnswer).length;
      t.count("(b) hidden ids answered unlike random uuids", distinguishable, 0, "a real id another investor may not read must look unknown");
      t.info("(b) requests (random uuids + hidden ids ×5, view and download)", times.random.length + times.hidden.length);
      t.info("(b) median ms random / hidden (information only)", `${median(times.random).toFixed(2)} / ${median(times.hidden).toFixed(2)}`);
      ctx.progress(`(a) and (b) done (${((Date.now() - started) / 1000).toFixed(1)} s)`);

      // ── (c) the audience changes while a download streams ────────────────
      const big = samplePdf("A large report for A", BIG_BYTES);
      const bigId = await upload(`Large report ${unique()}`, { bytes: big, name: "large.pdf", type: MIME.pdf }, [a.id]);
      const auditBefore = dbValue<number>(server, "select count(*) from audit_events where event = 'document.audience_changed' and target_id = ?", bigId) ?? 0;
      const stream = slowDownload(server.url, `/api/documents/${bigId}/download`, a.cookie);
      requests += 1;
      const head = await stream.reachedOrEnded(READ_BEFORE_CHANGE);
      const inFlight = !stream.ended() && stream.received() < BIG_BYTES;
      t.check("(c) A's download was in flight when the audience changed", head.status === 200 && inFlight, `status ${head.status}, ${stream.received()} of ${BIG_BYTES} bytes, ended ${stream.ended()}`);
      const readBefore = stream.received();
      const etag = headerValue(head, "etag");
      t.info("(c) bytes A had read when the audience changed", `${readBefore} of ${BIG_BYTES}`);

      await readdress(bigId, [b.id]);
      const auditAfter = dbValue<number>(server, "select count(*) from audit_events where event = 'document.audience_changed' and target_id = ?", bigId) ?? 0;
      t.count("(c) audit rows document.audience_changed for the change", auditAfter - auditBefore, 1);

      const afterChange: Probe[] = [
        { label: "resume: Range from where it stopped", headers: { range: `bytes=${readBefore}-` } },
        { label: "resume: Range + If-Range ETag", headers: { range: `bytes=${readBefore}-`, "if-range": etag } },
        { label: "new full request" },
        { label: "HEAD", method: "HEAD" },
        { label: "If-None-Match real ETag", headers: { "if-none-match": etag } },
      ];
      const stale: string[] = [];
      let newRequests = 0;
      for (const kind of ["download", "view"] as const) {
        for (const probe of afterChange) {
          const method = probe.method ?? "GET";
          const asA = await call(method, `/api/documents/${bigId}/${kind}`, a.cookie, probe.headers);
          const unknown = await call(method, `/api/documents/${randomUUID()}/${kind}`, a.cookie, probe.headers);
          newRequests += 1;
          if (asA.status !== 404 || fingerprint(asA) !== fingerprint(unknown)) stale.push(`${kind} ${probe.label}: ${asA.status}`);
        }
      }
      for (const path of ["/api/documents", "/lp/dashboard", "/lp/dashboard.data"]) {
        const asA = await call("GET", path, a.cookie);
        newRequests += 1;
        if (asA.status !== 200 || asA.text.includes(bigId)) stale.push(`${path}: ${asA.status}${asA.text.includes(bigId) ? ", still lists it" : ""}`);
      }
      t.info("(c) new requests by A after the change", newRequests);
      t.count("(c) new requests by A that still reached the document", stale.length, 0);
      for (const line of stale.slice(0, 10)) t.note(`(c) ${line}`);

      // The new recipient reads it; the old download may finish (it is not cut off mid-file by design).
      const asNewRecipient = await call("GET", `/api/documents/${bigId}/download`, b.cookie, { range: "bytes=0-1023" });
      t.check("(c) B, the new recipient, reads it (206)", asNewRecipient.status === 206 && asNewRecipient.body.equals(big.subarray(0, 1024)), `status ${asNewRecipient.status}`);
      const finished = await stream.finish();
      t.info("(c) in-flight download after the change (may finish)", finished.complete ? `finished, ${finished.bytes.length} bytes${finished.bytes.equals(big) ? ", intact" : ", NOT the file"}` : `cut at ${finished.bytes.length} bytes`);
      if (finished.complete && !finished.bytes.equals(big)) t.check("(c) a finished in-flight download is the file", false, `${finished.bytes.length} bytes differ from the file`);

      // Addressed to A again: the resume works from where it stopped.
      await readdress(bigId, [a.id, b.id]);
      const resumed = await call("GET", `/api/documents/${bigId}/download`, a.cookie, { range: `bytes=${readBefore}-`, "if-range": etag });
      t.check(
        "(c) re-addressed to A: the resume answers 206 with the rest of the file",
        resumed.status === 206 && resumed.body.equals(big.subarray(readBefore)),
        `status ${resumed.status}, ${resumed.body.length} bytes`,
      );

      t.info("requests made", requests);
      t.count("leaks (answers unlike an unknown id, or lists naming another investor's document)", leaks.length, 0);
      for (const line of leaks.slice(0, 10)) t.note(line);
      t.count("5xx answers", serverErrors, 0);
      t.count("server crashes", server.unexpectedExits(), 0);
    } finally {
      await server.stop();
    }
    return t.result();
  },
};

/**
 * A download read slowly from a raw socket: 64 KB at a time with a pause in
 * between until `reachedOrEnded(bytes)`, then held (TCP backpressure stops the
 * server) until `finish()` reads the rest.
 */
function slowDownload(baseUrl: string, path: string, cookie: string) {
  const chunks: Buffer[] = [];
  let received = 0;
  let ended = false;
  let complete = false;
  let target = Infinity;
  let held = false;
  let onProgress: () => void = () => {};
  let response: http.IncomingMessage | null = null;
  let headAnswer: HttpAnswer | null = null;
  const done = new Promise<void>((resolve) => {
    const req = http.request(new URL(path, baseUrl), { method: "GET", headers: { cookie }, agent: false, localAddress: LOCAL_ADDRESS }, (res) => {
      response = res;
      headAnswer = { status: res.statusCode ?? 0, headers: res.headers, body: Buffer.alloc(0), text: "" };
      res.on("data", (chunk: Buffer) => {
        chunks.push(chunk);
        received += chunk.length;
        onProgress();
        if (received >= target) {
          held = true;
          res.pause();
        } else if (!held) {
          // Read slowly: a short pause after every chunk.
          res.pause();
          setTimeout(() => {
            if (!held) res.resume();
          }, 2);
        }
      });
      res.on("end", () => {
        complete = res.complete;
        ended = true;
        onProgress();
        resolve();
      });
      res.on("error", () => {
        ended = true;
        onProgress();
        resolve();
      });
      res.on("aborted", () => {
        ended = true;
        onProgress();
      });
    });
    req.on("error", () => {
      ended = true;
      onProgress();
      resolve();
    });
    req.end();
  });
  return {
    received: () => received,
    ended: () => ended,
    /** Wait until `bytes` arrived (then hold the stream) or it ended; the answer's status and headers. */
    reachedOrEnded: (bytes: number) =>
      new Promise<HttpAnswer>((resolve) => {
        target = bytes;
        const check = () => {
          if (received >= bytes || ended) {
            onProgress = () => {};
            resolve(headAnswer ?? { status: 0, headers: {}, body: Buffer.alloc(0), text: "" });
          }
        };
        onProgress = check;
        check();
      }),
    /** Read the rest at full speed; whether it ended complete, and every byte received. */
    finish: async () => {
      held = true;
      target = Infinity;
      (response as http.IncomingMessage | null)?.resume();
      await Promise.race([done, new Promise((resolve) => setTimeout(resolve, 30_000))]);
      return { complete, bytes: Buffer.concat(chunks) };
    },
  };
}
