import { createHash } from "node:crypto";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import type { IncomingMessage } from "node:http";

/**
 * Public pages are the same for every anonymous visitor (per theme), so their
 * rendered HTML is kept in memory, pre-compressed, and served without
 * rendering again. Anything personal (a flash message, a session) bypasses it.
 */
export const CACHEABLE_PATHS = new Set([
  "/",
  "/investment-focus",
  "/portfolio",
  "/deeptech-fund",
  "/fund-i",
  "/fund-ii",
  "/team",
  "/process",
  "/contact",
  "/login",
  "/privacy-policy",
  "/terms-of-service",
  "/newsletter",
  "/sitemap.xml",
  "/robots.txt",
]);

/** Query parameters that change a cacheable page (anything else bypasses the cache). */
const ALLOWED_QUERY: Record<string, string[]> = { "/portfolio": ["sector"] };

export type CachedPage = {
  status: number;
  headers: [string, string][];
  body: Buffer;
  br: Buffer;
  gzip: Buffer;
  etag: string;
};

const MAX_ENTRIES = 500;

export class PageCache {
  private entries = new Map<string, CachedPage>();

  /** The cache key for a request, or null when the request must be rendered afresh. */
  keyFor(req: IncomingMessage): string | null {
    if (req.method !== "GET" && req.method !== "HEAD") return null;
    const url = new URL(req.url ?? "/", "http://cache.invalid");
    if (!CACHEABLE_PATHS.has(url.pathname)) return null;
    const allowed = ALLOWED_QUERY[url.pathname] ?? [];
    const params = [...url.searchParams.entries()];
    if (params.some(([k]) => !allowed.includes(k))) return null;
    const cookies = parseCookieNames(req.headers.cookie);
    if ([...cookies.keys()].some((name) => name !== "theme")) return null;
    const rawTheme = cookies.get("theme");
    const theme = rawTheme === "light" || rawTheme === "dark" ? rawTheme : "system";
    params.sort(([a], [b]) => a.localeCompare(b));
    return `${url.pathname}?${new URLSearchParams(params).toString()}|${theme}`;
  }

  get(key: string): CachedPage | undefined {
    return this.entries.get(key);
  }

  /** Keep a rendered page if it is a plain 200 that sets no cookie. */
  store(key: string, status: number, headers: Headers, body: Buffer): CachedPage | undefined {
    if (status !== 200 || headers.has("set-cookie")) return undefined;
    if (this.entries.size >= MAX_ENTRIES) {
      // Drop the oldest entry: junk query values cannot crowd out real pages for long.
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    const kept: [string, string][] = [];
    headers.forEach((value, name) => {
      if (name !== "content-length" && name !== "content-encoding") kept.push([name, value]);
    });
    const page: CachedPage = {
      status,
      headers: kept,
      body,
      br: brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
      gzip: gzipSync(body, { level: 9 }),
      etag: `"${createHash("sha1").update(body).digest("base64url")}"`,
    };
    this.entries.set(key, page);
    return page;
  }

  clear() {
    this.entries.clear();
  }
}

function parseCookieNames(header: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  if (!header) return out;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    const name = (eq === -1 ? part : part.slice(0, eq)).trim();
    if (name) out.set(name, eq === -1 ? "" : part.slice(eq + 1).trim());
  }
  return out;
}

/** Pick the best encoding the client accepts. */
export function negotiateEncoding(acceptEncoding: string | undefined): "br" | "gzip" | null {
  const accept = acceptEncoding ?? "";
  if (/\bbr\b/.test(accept)) return "br";
  if (/\bgzip\b/.test(accept)) return "gzip";
  return null;
}
