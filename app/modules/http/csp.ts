import { createHash } from "node:crypto";

/**
 * Content-Security-Policy for an HTML page: scripts only from our origin plus
 * the exact inline scripts this page contains (by SHA-256 hash). No nonces, so
 * an identical page can be cached and served again with the same policy.
 */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  const re = /<script\b([^>]*)>([\s\S]*?)<\/script>/gi;
  for (let match = re.exec(html); match; match = re.exec(html)) {
    const attrs = match[1] ?? "";
    const body = match[2] ?? "";
    if (/\bsrc\s*=/i.test(attrs) || body.length === 0) continue;
    hashes.add(`'sha256-${createHash("sha256").update(body, "utf8").digest("base64")}'`);
  }
  return [...hashes];
}

export function pageCsp(html: string, { dev = false }: { dev?: boolean } = {}): string {
  const scriptSrc = ["'self'", ...inlineScriptHashes(html)];
  if (dev) scriptSrc.push("'unsafe-inline'");
  return [
    "default-src 'self'",
    `script-src ${scriptSrc.join(" ")}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src 'self'${dev ? " ws: wss:" : ""}`,
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "object-src 'none'",
  ].join("; ");
}

/** The policy for everything that is not an HTML page (JSON, files, errors). */
export const STRICT_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'";
