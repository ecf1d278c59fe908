/**
 * proxy: the shipped deploy/nginx.conf and deploy/Caddyfile, run for real in
 * front of the production server (TRUST_PROXY=1, an https APP_URL), with TLS on
 * a certificate the test makes. Only the host name, the certificate paths and
 * the ports of the shipped files are rewritten (plus where a run outside
 * systemd keeps logs, pid and temporary files; proxy-helpers.ts). Through each
 * proxy: http redirected to https, /readyz, a sign-in whose __Host- Secure
 * cookie is set and accepted, HSTS once, a form post with the site's Origin
 * accepted (HTTP/1.1 and HTTP/2) and cross-site ones refused, the client
 * address the proxy saw in the audit trail (not the X-Forwarded-For the client
 * wrote), a 50 MB upload, a Range and a whole download of it, and a bulk upload
 * larger than a single upload's 64 MB ceiling.
 */
import { randomBytes } from "node:crypto";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { MAX_UPLOAD_BYTES } from "../app/modules/documents/constants";
import { UPLOAD_BODY_LIMIT } from "../server/app";
import { samplePdf } from "../tests/helpers/sample-files";
import { createAdmin, loginWithCode, PASSWORD, request, startServer, Tally, unique, type AppServer, type Section } from "./harness";
import {
  externalAddress,
  h2Request,
  makeCertificate,
  PROXY_BINARIES,
  proxyErrorLines,
  startProxy,
  tlsRequest,
  type ProxyKind,
  type Rewrite,
  type TlsAnswer,
  type TlsTarget,
} from "./proxy-helpers";
import { CROSS_SITE_MESSAGE, dbValue, EVIL_ORIGIN, HSTS_MIN_SECONDS } from "./web-helpers";

/** The host name the shipped files' lumenridge.example becomes. */
const HOST = "portal.lumenridge.test";
/** What a client writes into X-Forwarded-For to pass for someone else. */
const SPOOFED = "203.0.113.66";
const MIB = 1024 * 1024;
/** server/app.ts's answer to a body over its path's ceiling. */
const TOO_LARGE_MESSAGE = "The request is too large.";
/** The bulk upload's second file: with the 50 MiB document, over the 64 MiB a single upload may send (UPLOAD_BODY_LIMIT). */
const BULK_SECOND_FILE_BYTES = 15 * MIB;

type Multipart = { contentType: string; parts: Buffer[] };

/** A multipart/form-data body as a list of buffers: the files are sent as they are, not copied into one buffer. */
function multipartParts(fields: Record<string, string>, files: Array<{ field: string; name: string; bytes: Buffer }>): Multipart {
  const boundary = `----proxy${randomBytes(12).toString("hex")}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  for (const file of files) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.name}"\r\nContent-Type: application/pdf\r\n\r\n`));
    parts.push(file.bytes, Buffer.from("\r\n"));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { contentType: `multipart/form-data; boundary=${boundary}`, parts };
}

const header = (answer: { headers: Record<string, string | string[] | undefined> }, name: string): string => {
  const value = answer.headers[name];
  return Array.isArray(value) ? value.join(", ") : (value ?? "");
};
const setCookieLines = (answer: TlsAnswer): string[] => answer.headers["set-cookie"] ?? [];
const seconds = (ms: number) => Number((ms / 1000).toFixed(2));
const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

/** What both proxies are checked with: made once. */
type Shared = {
  server: AppServer;
  appUrl: string;
  /** The client, as the proxy sees it: a non-loopback address when the machine has one. */
  target: TlsTarget;
  httpPort: number;
  external: boolean;
  /** The admin (two-factor on) each proxy's sign-in is made with. */
  adminEmail: string;
  document: Buffer;
  bulkFiles: Buffer[];
};

export const section: Section = {
  name: "proxy",
  run: async (ctx) => {
    const t = new Tally();
    const kinds = (["nginx", "caddy"] as const).filter((kind) => {
      const present = fs.existsSync(PROXY_BINARIES[kind]);
      t.check(`${kind} installed (${PROXY_BINARIES[kind]})`, present, `${PROXY_BINARIES[kind]} is missing: apt-get install ${kind}`);
      return present;
    });
    if (kinds.length === 0) return t.result();

    const dir = fs.mkdtempSync(path.join(ctx.tmpRoot, "proxy-"));
    const { certFile, keyFile, cert } = makeCertificate(dir, HOST);
    const httpPort = ctx.nextPort();
    const httpsPort = ctx.nextPort();
    const appUrl = `https://${HOST}:${httpsPort}`;
    // The client connects from a non-loopback address of this machine: TRUST_PROXY=1 trusts loopback,
    // so a client on 127.0.0.1 would count as a proxy and its X-Forwarded-For would be believed.
    const external = externalAddress();
    const address = external ?? "127.0.0.1";
    const target: TlsTarget = { address, port: httpsPort, host: HOST, ca: cert, localAddress: address };
    if (!external) t.note("no non-loopback address on this machine: the client-address check is skipped (a loopback client counts as a trusted proxy)");

    const t0 = Date.now();
    // With the heap cap deploy/lumen-ridge.service gives it (the uploads and downloads stream).
    const server = await startServer(ctx, { name: "proxy", env: { APP_URL: appUrl, TRUST_PROXY: "1", NODE_OPTIONS: "--max-old-space-size=256" } });
    ctx.progress(`server up (${seconds(Date.now() - t0)} s)`);
    try {
      const adminEmail = `proxy-${unique()}@lumenridge.example`;
      createAdmin(server, adminEmail, PASSWORD);
      const document = samplePdf(`Proxy upload ${unique()}`, MAX_UPLOAD_BYTES);
      const shared: Shared = {
        server,
        appUrl,
        target,
        httpPort,
        external: external !== null,
        adminEmail,
        document,
        bulkFiles: [document, samplePdf("Bulk two", BULK_SECOND_FILE_BYTES)],
      };
      for (const kind of kinds) {
        const started = Date.now();
        const rewrite: Rewrite = { host: HOST, certFile, keyFile, httpPort, httpsPort, appPort: server.port, dir: path.join(dir, kind) };
        let proxy: Awaited<ReturnType<typeof startProxy>> | null = null;
        try {
          proxy = await startProxy(kind, rewrite, async () => (await tlsRequest(target, "GET", "/healthz", { timeoutMs: 2_000 })).status === 200);
          ctx.progress(`${kind} up (${seconds(Date.now() - started)} s)`);
          await checkThrough(kind, shared, t, ctx.progress);
        } catch (error) {
          t.failures.push(`${kind}: ${(error as Error).message}`);
        } finally {
          await proxy?.stop();
        }
        if (kind === "caddy" && proxy) {
          const accessLog = path.join(rewrite.dir, "caddy-access.log");
          const lines = fs.existsSync(accessLog) ? fs.readFileSync(accessLog, "utf8").split("\n").filter((l) => l.startsWith("{")).length : 0;
          t.check(`caddy: its access log written (JSON lines)`, lines > 0, `${lines} JSON lines in ${accessLog}`);
        }
        if (proxy) {
          const errors = proxyErrorLines(proxy);
          t.count(`${kind}: error lines in its log`, errors.length, 0, errors.slice(0, 3).join(" | "));
        }
        t.info(`${kind}: seconds`, seconds(Date.now() - started));
      }
      t.count("server crashes", server.unexpectedExits(), 0);
      const fiveHundreds = server.logLines().filter((line) => /"status":5\d\d/.test(line));
      t.count("5xx answers in the app's log", fiveHundreds.length, 0, fiveHundreds.slice(0, 2).join(" | "));
    } finally {
      await server.stop();
    }
    return t.result();
  },
};

async function checkThrough(kind: ProxyKind, s: Shared, t: Tally, progress: (m: string) => void) {
  const { target, appUrl, server } = s;
  const label = (text: string) => `${kind}: ${text}`;
  const browser = { origin: appUrl, "sec-fetch-site": "same-origin" };
  const call = (method: string, p: string, options: Parameters<typeof tlsRequest>[3] = {}) => tlsRequest(target, method, p, options);

  // ── http → https ──
  const plain = await request(`http://${target.address}:${s.httpPort}`, "GET", "/lp/login?next=%2Fproxy", { headers: { host: `${HOST}:${s.httpPort}` }, localAddress: target.localAddress });
  const location = header(plain, "location");
  t.check(
    label("http redirected to https, same host and path"),
    [301, 308].includes(plain.status) && new RegExp(`^https://${HOST.replace(/\./g, "\\.")}(:${target.port})?/lp/login\\?next=%2Fproxy$`).test(location),
    `${plain.status} Location: ${location || "none"}`,
  );
  t.info(label("http answer"), `${plain.status} → ${location.replace(/\?.*$/, "")}`);

  // ── readiness and HSTS ──
  const ready = await call("GET", "/readyz");
  t.check(label("/readyz 200 through the proxy"), ready.status === 200, `${ready.status} ${ready.text.slice(0, 200)}`);
  const home = await call("GET", "/");
  const hsts = header(home, "strict-transport-security");
  const maxAges = [...hsts.matchAll(/max-age=(\d+)/gi)].map((m) => Number(m[1]));
  t.check(label("HSTS once, ≥ 1 year"), home.status === 200 && maxAges.length === 1 && maxAges[0]! >= HSTS_MIN_SECONDS, `${home.status} Strict-Transport-Security: ${hsts || "missing"}`);
  if (kind === "nginx") {
    // nginx's $request_id (32 hex digits; the app's own would be a UUID): the proxy's id is the one the app logs.
    const requestId = header(home, "x-request-id");
    t.check(label("the proxy's X-Request-Id is the app's"), /^[0-9a-f]{32}$/.test(requestId), `X-Request-Id: ${requestId || "missing"}`);
  }

  // ── sign-in: __Host- Secure cookie set and accepted; the client's address as the proxy saw it ──
  const email = s.adminEmail;
  const login = await loginWithCode(
    (fields) =>
      call("POST", "/api/auth/login", {
        headers: { ...browser, "content-type": "application/json", "x-forwarded-for": SPOOFED },
        body: JSON.stringify(fields),
      }),
    email,
    PASSWORD,
  );
  const sessionLine = (login.headers["set-cookie"] ?? []).find((l) => /^__Host-lr_session=[^;]/.test(l)) ?? "";
  t.check(
    label("sign-in sets __Host-lr_session; Secure; Path=/; no Domain"),
    login.status === 200 && /;\s*secure\b/i.test(sessionLine) && /;\s*path=\/(;|$)/i.test(sessionLine) && !/;\s*domain=/i.test(sessionLine),
    `${login.status} Set-Cookie: ${sessionLine.replace(/=[^;]{12,}/, "=…") || (login.headers["set-cookie"] ?? []).join(" | ") || "none"}`,
  );
  const cookie = sessionLine.split(";")[0]!;
  const me = await call("GET", "/api/auth/user", { headers: { cookie } });
  t.check(label("the cookie is accepted on the next request"), me.status === 200 && me.text.includes(email), `GET /api/auth/user → ${me.status}`);
  if (s.external) {
    const ip = dbValue<string>(server, "select ip from audit_events where event = 'auth.sign_in' and actor_email = ? order by id desc limit 1", email);
    t.check(
      label(`audit address = the client's (${target.localAddress}), not its X-Forwarded-For`),
      ip === target.localAddress,
      `audit row ip ${ip ?? "none"} (the client sent X-Forwarded-For: ${SPOOFED})`,
    );
  }

  // ── form posts: the site's Origin accepted, cross-site refused ──
  // /login is a page whose action only answers (a notice in a flash cookie): React Router checks such a
  // post's Origin against the URL it builds from the Host the proxy passes on (a 400 when they differ).
  const form = { "content-type": "application/x-www-form-urlencoded" };
  const fields = "username=proxy&password=proxy";
  const same = await call("POST", "/login", { headers: { ...form, ...browser }, body: fields });
  const flash = setCookieLines(same);
  t.check(
    label("form post with the https Origin accepted (HTTP/1.1), its cookie Secure"),
    [302, 303].includes(same.status) && flash.length > 0 && flash.every((l) => /;\s*secure\b/i.test(l)),
    `${same.status} ${same.text.slice(0, 120)} Set-Cookie: ${flash.join(" | ") || "none"}`,
  );
  const originOnly = await call("POST", "/login", { headers: { ...form, origin: appUrl }, body: fields });
  t.check(label("form post with the https Origin only (no Sec-Fetch-Site) accepted"), [302, 303].includes(originOnly.status), `${originOnly.status} ${originOnly.text.slice(0, 120)}`);
  const h2 = await h2Request(target, "POST", "/login", { headers: { ...form, ...browser }, body: fields });
  t.check(label("form post with the https Origin accepted (HTTP/2)"), h2.alpn === "h2" && [302, 303].includes(h2.status), `${h2.alpn} ${h2.status} ${h2.text.slice(0, 120)}`);
  const crossSite = await call("POST", "/login", { headers: { ...form, origin: EVIL_ORIGIN, "sec-fetch-site": "cross-site" }, body: fields });
  const crossOrigin = await call("POST", "/login", { headers: { ...form, origin: EVIL_ORIGIN }, body: fields });
  t.check(
    label("cross-site form posts refused (403)"),
    [crossSite, crossOrigin].every((a) => a.status === 403 && a.text.includes(CROSS_SITE_MESSAGE)),
    `Sec-Fetch-Site cross-site → ${crossSite.status}, Origin only → ${crossOrigin.status}`,
  );

  // ── a 50 MB upload, a Range and a whole download ──
  const title = `Proxy ${kind} ${unique()}`;
  const upload = multipartParts({ title, category: "reports" }, [{ field: "file", name: "report.pdf", bytes: s.document }]);
  const t0 = Date.now();
  const uploaded = await call("POST", "/api/documents", { headers: { ...browser, cookie, "content-type": upload.contentType }, body: upload.parts });
  const uploadMs = Date.now() - t0;
  t.check(label(`${(s.document.length / MIB).toFixed(0)} MiB upload accepted (201)`), uploaded.status === 201, `${uploaded.status} ${uploaded.text.slice(0, 200)}`);
  t.info(label("50 MiB upload (s)"), seconds(uploadMs));
  progress(`${kind}: 50 MiB upload ${uploaded.status} in ${seconds(uploadMs)} s`);
  if (uploaded.status === 201) {
    const id = (JSON.parse(uploaded.text) as { id: string }).id;
    const [from, to] = [s.document.length - MIB - 17, s.document.length - 18];
    const range = await call("GET", `/api/documents/${id}/download`, { headers: { cookie, range: `bytes=${from}-${to}` } });
    t.check(
      label("Range download 206 with the right bytes"),
      range.status === 206 && header(range, "content-range") === `bytes ${from}-${to}/${s.document.length}` && range.body.equals(s.document.subarray(from, to + 1)),
      `${range.status} Content-Range: ${header(range, "content-range") || "none"}, ${range.length} bytes`,
    );
    // nginx reads the app's answer into buffers and a temporary file (proxy_buffering on): the whole file
    // must come through. Caddy streams it as it comes (the Range above went the same way).
    if (kind === "nginx") {
      const t1 = Date.now();
      const whole = await call("GET", `/api/documents/${id}/download`, { headers: { cookie }, hashOnly: true });
      t.check(
        label("whole download 200, byte-identical"),
        whole.status === 200 && whole.length === s.document.length && whole.sha256 === sha256(s.document),
        `${whole.status}, ${whole.length} bytes`,
      );
      t.info(label("50 MiB download (s)"), seconds(Date.now() - t1));
    }
  }

  // ── over the ceiling: the app's own 413 (the proxies' limits sit just above the app's) ──
  const tooLarge = await call("POST", "/api/documents", {
    headers: { ...browser, cookie, "content-type": upload.contentType },
    body: upload.parts[0]!,
    declaredLength: UPLOAD_BODY_LIMIT + 1,
  });
  t.check(
    label("upload declared over 64 MiB: the app's 413 with its message"),
    tooLarge.status === 413 && tooLarge.text.includes(TOO_LARGE_MESSAGE),
    `${tooLarge.status} ${tooLarge.text.slice(0, 120)}`,
  );

  // ── a bulk upload over 64 MB (the bulk page takes up to 1 GiB) ──
  const bulk = multipartParts(
    { title: `Bulk ${kind} ${unique()}`, category: "reports" },
    s.bulkFiles.map((bytes, i) => ({ field: "files", name: `nobody-${i + 1}.pdf`, bytes })),
  );
  const bulkBytes = bulk.parts.reduce((n, b) => n + b.length, 0);
  const t2 = Date.now();
  const staged = await call("POST", "/admin/documents/bulk", { headers: { ...browser, cookie, "content-type": bulk.contentType }, body: bulk.parts });
  t.check(
    label(`bulk upload of ${(bulkBytes / MIB).toFixed(0)} MiB staged (303)`),
    staged.status === 303 && /^\/admin\/documents\/bulk\/[0-9a-f]{32}$/.test(header(staged, "location")),
    `${staged.status} ${header(staged, "location")} ${staged.text.slice(0, 160)}`,
  );
  t.info(label("bulk upload (s)"), seconds(Date.now() - t2));
}
