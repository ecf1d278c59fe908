import { createHash } from "node:crypto";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import type { IncomingMessage } from "node:http";
import { isSector } from "../app/content/portfolio";
import { publicPages } from "../app/content/sitemap";
import { THEME_COOKIE, themeFromCookieHeader } from "../app/modules/theme/theme";

/**
 * Public pages are the same for every anonymous visitor (per theme), so their
 * rendered HTML is kept in memory, pre-compressed, and served without
 * rendering again. Anything personal (a flash message, a session) bypasses it.
 */
export const CACHEABLE_PATHS = new Set<string>([
  // /process carries the pitch form's signed render time, fresh on every view (decision 026).
  ...publicPages.filter((page) => page !== "/process"),
  "/newsletter",
  "/sitemap.xml",
  "/robots.txt",
]);

/**
 * Query parameters that change a cacheable page, with the values worth
 * caching; anything else is rendered afresh (junk values never fill the cache).
 */
const ALLOWED_QUERY: Record<string, Record<string, (value: string) => boolean>> = {
  "/portfolio": { sector: (value) => isSector(value) },
};

type Encoding = "br" | "gzip" | "identity";

export type CachedPage = {
  etag: string;
  /** The body and the complete response headers for each encoding, built once. */
  variants: Record<Encoding, { body: Buffer; headers: Record<string, string | number> }>;
};

const MAX_ENTRIES = 500;

export class PageCache {
  private entries = new Map<string, CachedPage>();

  /** The cache key for a request, or null when the request must be rendered afresh. */
  keyFor(req: IncomingMessage): string | null {
    if (req.method !== "GET" && req.method !== "HEAD") return null;
    const raw = req.url ?? "/";
    const q = raw.indexOf("?");
    const pathname = q === -1 ? raw : raw.slice(0, q);
    if (!CACHEABLE_PATHS.has(pathname)) return null;
    let query = "";
    if (q !== -1 && q < raw.length - 1) {
      const allowed = ALLOWED_QUERY[pathname] ?? {};
      const params = [...new URLSearchParams(raw.slice(q + 1)).entries()];
      if (params.some(([k, v]) => !allowed[k]?.(v))) return null;
      if (new Set(params.map(([k]) => k)).size !== params.length) return null;
      params.sort(([a], [b]) => a.localeCompare(b));
      query = new URLSearchParams(params).toString();
    }
    const cookie = req.headers.cookie;
    if (cookie && parseCookieNames(cookie).some((name) => name !== THEME_COOKIE)) return null;
    // The theme the page renders in (the root loader reads the cookie with the same function).
    return `${pathname}?${query}|${themeFromCookieHeader(cookie)}`;
  }

  get(key: string): CachedPage | undefined {
    return this.entries.get(key);
  }

  /**
   * Keep a rendered page if it is a plain 200 that sets no cookie. `baseHeaders`
   * (the security headers) are merged in, so a hit is one writeHead.
   */
  store(
    key: string,
    status: number,
    headers: Headers,
    body: Buffer,
    baseHeaders: Record<string, string>,
  ): CachedPage | undefined {
    if (status !== 200 || headers.has("set-cookie")) return undefined;
    if (this.entries.size >= MAX_ENTRIES) {
      // Drop the oldest entry: junk query values cannot crowd out real pages for long.
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    const etag = `"${createHash("sha1").update(body).digest("base64url")}"`;
    const common: Record<string, string> = { ...baseHeaders };
    headers.forEach((value, name) => {
      if (name !== "content-length" && name !== "content-encoding") common[name] = value;
    });
    common["vary"] = "Accept-Encoding, Cookie";
    // Public pages: a browser may keep them but revalidates with the ETag each time.
    common["cache-control"] ??= "no-cache";
    common["etag"] = etag;
    common["x-page-cache"] = "HIT";
    const variant = (encoded: Buffer, encoding: Encoding) => ({
      body: encoded,
      headers: {
        ...common,
        ...(encoding === "identity" ? {} : { "content-encoding": encoding }),
        "content-length": encoded.byteLength,
      },
    });
    const page: CachedPage = {
      etag,
      variants: {
        identity: variant(body, "identity"),
        br: variant(brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }), "br"),
        gzip: variant(gzipSync(body, { level: 9 }), "gzip"),
      },
    };
    this.entries.set(key, page);
    return page;
  }

  clear() {
    this.entries.clear();
  }
}

/** The names of a Cookie header's pairs (a part without "=" counts as a name). */
function parseCookieNames(header: string): string[] {
  return header
    .split(";")
    .map((part) => {
      const eq = part.indexOf("=");
      return (eq === -1 ? part : part.slice(0, eq)).trim();
    })
    .filter(Boolean);
}

/** Pick the best encoding the client accepts. */
export function negotiateEncoding(acceptEncoding: string | undefined): "br" | "gzip" | null {
  const accept = acceptEncoding ?? "";
  if (/\bbr\b/.test(accept)) return "br";
  if (/\bgzip\b/.test(accept)) return "gzip";
  return null;
}
