/**
 * The proxy section's tools: a self-signed certificate (openssl), the shipped
 * deploy/nginx.conf and deploy/Caddyfile with only their host name,
 * certificate paths and ports rewritten (plus the log, pid and temporary paths
 * a run outside systemd needs), Debian's nginx and Caddy started on them, and
 * an HTTPS client (HTTP/1.1 and HTTP/2) that checks the certificate against the
 * test's own and may connect from a chosen local address.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import type { IncomingHttpHeaders } from "node:http";
import http2 from "node:http2";
import https from "node:https";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import tls from "node:tls";
import { ROOT, sleep } from "./harness";

export type ProxyKind = "nginx" | "caddy";

/** Debian's binaries (packages nginx and caddy); NGINX_BIN / CADDY_BIN override. */
export const PROXY_BINARIES: Record<ProxyKind, string> = {
  nginx: process.env.NGINX_BIN ?? "/usr/sbin/nginx",
  caddy: process.env.CADDY_BIN ?? "/usr/bin/caddy",
};

/** The host name the shipped files are written for (the test replaces it). */
export const SHIPPED_HOST = "lumenridge.example";

export type Rewrite = {
  host: string;
  certFile: string;
  keyFile: string;
  httpPort: number;
  httpsPort: number;
  appPort: number;
  /** The proxy's own folder: logs, pid, temporary files, Caddy's data. */
  dir: string;
};

// ─── certificate ────────────────────────────────────────────────────────────

/** A self-signed P-256 certificate for `host` and `www.host`, valid one day (openssl CLI). */
export function makeCertificate(dir: string, host: string): { certFile: string; keyFile: string; cert: Buffer } {
  const certFile = path.join(dir, "cert.pem");
  const keyFile = path.join(dir, "key.pem");
  execFileSync(
    "openssl",
    [
      "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1",
      "-subj", `/CN=${host}`, "-addext", `subjectAltName=DNS:${host},DNS:www.${host}`,
      "-keyout", keyFile, "-out", certFile,
    ],
    { stdio: "pipe" },
  );
  return { certFile, keyFile, cert: fs.readFileSync(certFile) };
}

// ─── configs ────────────────────────────────────────────────────────────────

/** Replace `pattern` (which must match `expected` times, so a changed shipped file fails loudly) by `to`. */
function replaceCounted(text: string, pattern: RegExp, to: string, expected: number, what: string): string {
  const found = text.match(new RegExp(pattern.source, pattern.flags.includes("g") ? pattern.flags : `${pattern.flags}g`))?.length ?? 0;
  if (found !== expected) throw new Error(`rewriting the shipped config: expected ${expected} × ${what}, found ${found}`);
  return text.replace(new RegExp(pattern.source, pattern.flags.includes("g") ? pattern.flags : `${pattern.flags}g`), to);
}

/**
 * deploy/nginx.conf with its host name, certificate paths and ports rewritten;
 * nothing else changes.
 */
export function rewriteNginx(shipped: string, r: Rewrite): string {
  let text = shipped;
  text = replaceCounted(text, /^(\s*ssl_certificate)\s+\S+;/m, `$1 ${r.certFile};`, 1, "ssl_certificate");
  text = replaceCounted(text, /^(\s*ssl_certificate_key)\s+\S+;/m, `$1 ${r.keyFile};`, 1, "ssl_certificate_key");
  text = replaceCounted(text, /^(\s*listen\s+(?:\[::\]:)?)80;/m, `$1${r.httpPort};`, 2, "listen 80");
  text = replaceCounted(text, /^(\s*listen\s+(?:\[::\]:)?)443(\s)/m, `$1${r.httpsPort}$2`, 2, "listen 443");
  text = replaceCounted(text, /^(\s*server\s+127\.0\.0\.1:)3000;/m, `$1${r.appPort};`, 1, "upstream 127.0.0.1:3000");
  text = replaceCounted(text, /^(\s*server_name\s+)lumenridge\.example;/m, `$1${r.host};`, 2, "server_name");
  return text;
}

/**
 * The main configuration Debian's /etc/nginx/nginx.conf would be (its http
 * settings), with the pid, logs and temporary files in `dir`, including the
 * rewritten site file as sites-enabled/ would.
 */
export function nginxMain(r: Rewrite, siteFile: string): string {
  const p = (name: string) => path.join(r.dir, name);
  // As root, nginx's workers would run as nobody, who cannot enter the test's private folder.
  const user = process.getuid?.() === 0 ? "user root root;\n" : "";
  return `${user}worker_processes 1;
pid ${p("nginx.pid")};
error_log ${p("error.log")} warn;
events { worker_connections 256; }
http {
    sendfile on;
    tcp_nopush on;
    types_hash_max_size 2048;
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    ssl_prefer_server_ciphers on;
    access_log ${p("access.log")};
    client_body_temp_path ${p("body")};
    proxy_temp_path ${p("proxy")};
    fastcgi_temp_path ${p("fastcgi")};
    uwsgi_temp_path ${p("uwsgi")};
    scgi_temp_path ${p("scgi")};
    gzip on;
    include ${siteFile};
}
`;
}

/**
 * deploy/Caddyfile with its host name, certificate (the test's, through `tls`),
 * ports (global http_port / https_port), upstream port and log file rewritten.
 * The global block also keeps Caddy off ACME (local_certs: any other site
 * address gets a certificate of Caddy's internal CA, never installed into the
 * system's trust), and off its admin endpoint.
 */
export function rewriteCaddy(shipped: string, r: Rewrite): string {
  let text = shipped;
  text = replaceCounted(text, /^lumenridge\.example \{$/m, `${r.host} {\n\ttls ${r.certFile} ${r.keyFile}`, 1, "the site block");
  text = replaceCounted(text, /\blumenridge\.example\b/, r.host, 2, "the host name elsewhere");
  text = replaceCounted(text, /\b127\.0\.0\.1:3000\b/, `127.0.0.1:${r.appPort}`, 1, "upstream 127.0.0.1:3000");
  text = replaceCounted(text, /\/var\/log\/caddy\/lumen-ridge\.log/, path.join(r.dir, "caddy-access.log"), 1, "the log file");
  const global = `{\n\tadmin off\n\thttp_port ${r.httpPort}\n\thttps_port ${r.httpsPort}\n\tlocal_certs\n\tskip_install_trust\n}\n`;
  return global + text;
}

// ─── processes ──────────────────────────────────────────────────────────────

export type ProxyProcess = {
  kind: ProxyKind;
  /** stdout/stderr lines and the error log's (nginx). */
  logLines: () => string[];
  running: () => boolean;
  stop: () => Promise<void>;
};

/** Start nginx or Caddy on the rewritten shipped file; resolves once `ready` answers, throws with its log if it exits first. */
export async function startProxy(kind: ProxyKind, r: Rewrite, ready: () => Promise<boolean>): Promise<ProxyProcess> {
  fs.mkdirSync(r.dir, { recursive: true });
  let args: string[];
  const env: NodeJS.ProcessEnv = { ...process.env };
  if (kind === "nginx") {
    const site = path.join(r.dir, "lumen-ridge.conf");
    fs.writeFileSync(site, rewriteNginx(fs.readFileSync(path.join(ROOT, "deploy/nginx.conf"), "utf8"), r));
    const main = path.join(r.dir, "nginx.conf");
    fs.writeFileSync(main, nginxMain(r, site));
    // -p: the prefix (relative paths); -e: the log before the config is read; daemon off: stay this process's child.
    args = ["-p", `${r.dir}/`, "-c", main, "-e", path.join(r.dir, "error.log"), "-g", "daemon off;"];
  } else {
    const file = path.join(r.dir, "Caddyfile");
    fs.writeFileSync(file, rewriteCaddy(fs.readFileSync(path.join(ROOT, "deploy/Caddyfile"), "utf8"), r));
    args = ["run", "--adapter", "caddyfile", "--config", file];
    // Caddy's data (internal CA, certificates) and autosaved config stay in the test's folder.
    Object.assign(env, { HOME: r.dir, XDG_DATA_HOME: path.join(r.dir, "data"), XDG_CONFIG_HOME: path.join(r.dir, "config") });
  }
  const lines: string[] = [];
  let proc: ChildProcess | null = spawn(PROXY_BINARIES[kind], args, { env, stdio: ["ignore", "pipe", "pipe"] });
  const child = proc;
  const keep = (chunk: Buffer) => lines.push(...chunk.toString("utf8").split("\n").filter(Boolean));
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  const exited = new Promise<void>((resolve) => {
    child.on("exit", () => {
      proc = null;
      resolve();
    });
    child.on("error", (error) => {
      lines.push(`spawn failed: ${error.message}`);
      proc = null;
      resolve();
    });
  });
  const errorLog = () => {
    const file = path.join(r.dir, "error.log");
    return kind === "nginx" && fs.existsSync(file) ? fs.readFileSync(file, "utf8").split("\n").filter(Boolean) : [];
  };
  const logLines = () => [...lines, ...errorLog()];
  // nginx and Caddy outlive a parent that dies: take them along if this process exits first.
  const killOnExit = () => child.kill("SIGKILL");
  process.once("exit", killOnExit);
  const stop = async () => {
    process.off("exit", killOnExit);
    if (!proc) return;
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
    await exited;
    clearTimeout(timer);
  };
  const started = Date.now();
  for (;;) {
    if (!proc) throw new Error(`${kind} exited at start:\n${logLines().slice(-20).join("\n")}`);
    if (await ready().catch(() => false)) break;
    if (Date.now() - started > 15_000) {
      await stop();
      throw new Error(`${kind} did not answer within 15 s:\n${logLines().slice(-20).join("\n")}`);
    }
    await sleep(50);
  }
  return { kind, logLines, running: () => proc !== null, stop };
}

/** Lines of a proxy's logs at level error or worse (nginx: [error], [crit], [alert], [emerg]; Caddy: JSON "level":"error"/"fatal"). */
export function proxyErrorLines(proxy: ProxyProcess): string[] {
  return proxy.logLines().filter((line) => /\[(error|crit|alert|emerg)\]|"level":"(error|fatal|panic)"/.test(line));
}

// ─── HTTPS client ───────────────────────────────────────────────────────────

/** A non-loopback IPv4 address of this machine (a client the app must not take for its trusted proxy), or null. */
export function externalAddress(): string | null {
  for (const entries of Object.values(os.networkInterfaces())) {
    for (const entry of entries ?? []) if (entry.family === "IPv4" && !entry.internal) return entry.address;
  }
  return null;
}

const WRITE_PIECE = 1024 * 1024;

export type TlsAnswer = {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body, unless `hashOnly` was asked for (then empty). */
  body: Buffer;
  text: string;
  length: number;
  sha256: string;
  alpn: string;
};

export type TlsTarget = {
  /** The address to connect to. */
  address: string;
  port: number;
  /** SNI and Host. */
  host: string;
  /** The certificate to trust (the test's self-signed one). */
  ca: Buffer;
  localAddress?: string;
};

/** The Host header a browser sends for the target (the port unless 443). */
export const authority = (t: TlsTarget) => (t.port === 443 ? t.host : `${t.host}:${t.port}`);

/**
 * One HTTPS/1.1 request, exactly as given (redirects not followed, bodies not
 * decompressed). `body` may be a list of buffers, written in turn (no copy of a
 * 50 MB file); `hashOnly` keeps only the length and SHA-256 of the answer.
 */
export function tlsRequest(
  t: TlsTarget,
  method: string,
  pathAndQuery: string,
  options: {
    headers?: Record<string, string>;
    body?: string | Buffer | Buffer[];
    /** Declare this Content-Length instead of the body's (and send only the body: the answer must come first). */
    declaredLength?: number;
    hashOnly?: boolean;
    timeoutMs?: number;
  } = {},
): Promise<TlsAnswer> {
  return new Promise((resolve, reject) => {
    const parts = options.body === undefined ? [] : Array.isArray(options.body) ? options.body : [Buffer.from(options.body)];
    const headers: Record<string, string | number> = { host: authority(t), ...options.headers };
    if (options.body !== undefined) headers["content-length"] = options.declaredLength ?? parts.reduce((n, b) => n + b.length, 0);
    const req = https.request(
      {
        host: t.address,
        port: t.port,
        servername: t.host,
        ca: t.ca,
        localAddress: t.localAddress,
        method,
        path: pathAndQuery,
        headers,
        agent: false,
        timeout: options.timeoutMs ?? 60_000,
      },
      (res) => {
        const hash = createHash("sha256");
        const chunks: Buffer[] = [];
        let length = 0;
        res.on("data", (chunk: Buffer) => {
          hash.update(chunk);
          length += chunk.length;
          if (!options.hashOnly) chunks.push(chunk);
        });
        res.on("end", () => {
          // A body declared longer than sent: the socket would wait for the rest.
          if (options.declaredLength !== undefined) req.destroy();
          const body = Buffer.concat(chunks);
          const alpn = (res.socket as { alpnProtocol?: string | false } | null)?.alpnProtocol || "http/1.1";
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body, text: body.toString("utf8"), length, sha256: hash.digest("hex"), alpn });
        });
        res.on("error", reject);
      },
    );
    req.on("timeout", () => req.destroy(new Error(`timeout: ${method} ${pathAndQuery}`)));
    req.on("error", reject);
    // In pieces of 1 MiB: one write of 50 MB through TLS costs the client about 15 times the CPU.
    void (async () => {
      for (const part of parts) {
        for (let at = 0; at < part.length; at += WRITE_PIECE) {
          if (!req.write(part.subarray(at, at + WRITE_PIECE))) await new Promise((r) => req.once("drain", r));
        }
      }
      req.end();
    })();
  });
}

/** One request over HTTP/2 (what browsers speak to both proxies): status, headers, text and the negotiated protocol. */
export function h2Request(
  t: TlsTarget,
  method: string,
  pathAndQuery: string,
  options: { headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; headers: http2.IncomingHttpHeaders; text: string; alpn: string }> {
  return new Promise((resolve, reject) => {
    const session = http2.connect(`https://${t.address}:${t.port}`, {
      createConnection: () =>
        tls.connect({ socket: net.connect({ host: t.address, port: t.port, localAddress: t.localAddress }), servername: t.host, ca: t.ca, ALPNProtocols: ["h2"] }),
    });
    session.on("error", reject);
    const req = session.request({ ":method": method, ":path": pathAndQuery, ":authority": authority(t), ...options.headers });
    req.setTimeout(30_000, () => req.close(http2.constants.NGHTTP2_CANCEL));
    let headers: http2.IncomingHttpHeaders = {};
    const chunks: Buffer[] = [];
    req.on("response", (h) => (headers = h));
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("error", (error) => {
      session.close();
      reject(error);
    });
    req.on("end", () => {
      const alpn = session.alpnProtocol ?? "";
      session.close();
      resolve({ status: Number(headers[":status"] ?? 0), headers, text: Buffer.concat(chunks).toString("utf8"), alpn });
    });
    req.end(options.body);
  });
}
