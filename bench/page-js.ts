/**
 * What JavaScript a page makes the browser load at start, and what any React
 * Router app loads at the least (the baseline), measured from the files of a
 * client build (gzip level 9 of each file's bytes).
 */
import fs from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";

export type JsFile = { file: string; bytes: number; gzip: number };

/** One inline <script type="module"> (React Router puts the route manifest there). */
export type InlineScript = { bytes: number; gzip: number };

export type PageScripts = {
  /** Same-origin JS URL paths named by the HTML (modulepreload, script src, imports of inline module scripts). */
  urls: string[];
  inlineModules: InlineScript[];
  /** The route manifest inlined in the HTML, when present (window.__reactRouterManifest = {...}). */
  inlineManifest: RouteManifest | null;
  /** Scripts from other origins (not in the build, so not measured). */
  external: string[];
};

export type RouteManifest = { entry?: { module?: string; imports?: string[] }; url?: string; version?: string };

/** Static import specifiers: `import x from "./a.js"`, `import{a as b}from"./a.js"`, `import "./a.js"`, `export * from "./a.js"`. */
const STATIC_IMPORT =
  /(?:^|[^\w$.])(?:import|export)\s*(?:[\w$]+\s*,?\s*)?(?:\{[^{}]*\}|\*(?:\s*as\s+[\w$]+)?)?\s*(?:from\s*)?(["'])((?:\.{1,2}\/|\/)[^"'\n]*?\.m?js)\1/g;
/** Dynamic imports: `import("./a.js")`. */
const DYNAMIC_IMPORT = /(?:^|[^\w$.])import\s*\(\s*(["'])((?:\.{1,2}\/|\/)[^"'\n]*?\.m?js)\1\s*\)/g;

export function staticImportSpecifiers(code: string): string[] {
  return [...code.matchAll(STATIC_IMPORT)].map((m) => m[2]!);
}

export function dynamicImportSpecifiers(code: string): string[] {
  return [...code.matchAll(DYNAMIC_IMPORT)].map((m) => m[2]!);
}

function attributes(tag: string): Record<string, string> {
  const out: Record<string, string> = {};
  const inner = tag.replace(/^<\s*[\w-]+/, "").replace(/\/?>$/, "");
  for (const m of inner.matchAll(/([^\s"'=<>/]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g)) {
    out[m[1]!.toLowerCase()] = decodeEntities(m[2] ?? m[3] ?? m[4] ?? "");
  }
  return out;
}

function decodeEntities(s: string): string {
  return s.replace(/&amp;/g, "&").replace(/&quot;/g, '"').replace(/&#x27;|&#39;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">");
}

/** Same-origin URL path of a JS reference, or null for other origins and non-JS. */
function jsPath(ref: string, origin: string): string | null {
  try {
    const url = new URL(ref, `${origin}/`);
    if (url.origin !== origin) return null;
    return /\.m?js$/.test(url.pathname) ? url.pathname : null;
  } catch {
    return null;
  }
}

function isOtherOrigin(ref: string, origin: string): boolean {
  try {
    return new URL(ref, `${origin}/`).origin !== origin;
  } catch {
    return false;
  }
}

/** Every JS URL a page loads at start, from its HTML. */
export function pageScripts(html: string, origin: string): PageScripts {
  const urls = new Set<string>();
  const inlineModules: InlineScript[] = [];
  const external = new Set<string>();
  let inlineManifest: RouteManifest | null = null;

  for (const m of html.matchAll(/<link\b[^>]*>/gi)) {
    const a = attributes(m[0]);
    const rel = (a.rel ?? "").toLowerCase().split(/\s+/);
    if (rel.includes("modulepreload") && a.href) {
      const p = jsPath(a.href, origin);
      if (p) urls.add(p);
    }
  }
  for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
    const a = attributes(`<script ${m[1]}>`);
    const code = m[2] ?? "";
    if (a.src) {
      const p = jsPath(a.src, origin);
      if (p) urls.add(p);
      else if (isOtherOrigin(a.src, origin)) external.add(a.src);
      continue;
    }
    if ((a.type ?? "").toLowerCase() !== "module") continue;
    const bytes = Buffer.from(code);
    inlineModules.push({ bytes: bytes.byteLength, gzip: gzipSync(bytes, { level: 9 }).byteLength });
    // An inline module's imports, static and dynamic, all run at start
    // (React Router's import("/assets/entry.client-*.js") is dynamic).
    for (const spec of [...staticImportSpecifiers(code), ...dynamicImportSpecifiers(code)]) {
      const p = jsPath(spec, origin);
      if (p) urls.add(p);
    }
    const manifest = /window\.__reactRouterManifest\s*=\s*(\{[\s\S]*?\});\s*(?:window\.|import\(|$)/.exec(code);
    if (manifest) {
      try {
        inlineManifest = JSON.parse(manifest[1]!) as RouteManifest;
      } catch {
        /* not plain JSON: keep going without it */
      }
    }
  }
  return { urls: [...urls], inlineModules, inlineManifest, external: [...external] };
}

/** Reads and measures files of one client build, with caches. */
export class ClientBuild {
  private sizes = new Map<string, JsFile>();
  private imports = new Map<string, string[]>();

  constructor(readonly clientDir: string) {}

  /** Build-relative file ("assets/x.js") for a URL path ("/assets/x.js"). */
  fileForUrl(urlPath: string): string {
    return urlPath.replace(/^\/+/, "");
  }

  exists(file: string): boolean {
    return fs.existsSync(path.join(this.clientDir, file));
  }

  measure(file: string): JsFile {
    let out = this.sizes.get(file);
    if (!out) {
      const body = fs.readFileSync(path.join(this.clientDir, file));
      out = { file, bytes: body.byteLength, gzip: gzipSync(body, { level: 9 }).byteLength };
      this.sizes.set(file, out);
    }
    return out;
  }

  /** Build-relative files this chunk imports statically. */
  staticImports(file: string): string[] {
    let out = this.imports.get(file);
    if (!out) {
      const code = fs.readFileSync(path.join(this.clientDir, file), "utf8");
      out = staticImportSpecifiers(code).map((spec) =>
        spec.startsWith("/") ? spec.replace(/^\/+/, "") : path.posix.normalize(path.posix.join(path.posix.dirname(file), spec)),
      );
      this.imports.set(file, out);
    }
    return out;
  }

  /** The files plus everything they import statically, recursively (missing files are reported, not followed). */
  closure(files: string[]): { files: string[]; missing: string[] } {
    const seen = new Set<string>();
    const missing = new Set<string>();
    const stack = [...files];
    while (stack.length) {
      const file = stack.pop()!;
      if (seen.has(file) || missing.has(file)) continue;
      if (!this.exists(file)) {
        missing.add(file);
        continue;
      }
      seen.add(file);
      stack.push(...this.staticImports(file));
    }
    return { files: [...seen].sort(), missing: [...missing].sort() };
  }

  /** The route manifest file the build wrote (assets/manifest-<version>.js), preferring the one a page names. */
  routeManifestFile(named?: string): string | null {
    if (named) {
      const file = this.fileForUrl(named);
      if (this.exists(file)) return file;
    }
    const assets = path.join(this.clientDir, "assets");
    if (!fs.existsSync(assets)) return null;
    const candidates = fs
      .readdirSync(assets)
      .filter((f) => /^manifest-[\w-]+\.js$/.test(f))
      .map((f) => ({ f, t: fs.statSync(path.join(assets, f)).mtimeMs }))
      .sort((a, b) => b.t - a.t);
    return candidates[0] ? `assets/${candidates[0].f}` : null;
  }
}

export type Baseline = {
  /** How the entry and its graph were found. */
  source: string;
  entry: string;
  /** Entry chunk and its static import graph. */
  graph: string[];
  manifestFile: string | null;
  files: string[];
  gzip: number;
};

type ViteManifest = Record<string, { file: string; src?: string; isEntry?: boolean; imports?: string[] }>;

/**
 * The JS every React Router app loads: the client entry chunk (React,
 * ReactDOM, React Router) with its static imports, plus the route manifest.
 */
export function reactRouterBaseline(build: ClientBuild, inlineManifest: RouteManifest | null): Baseline {
  let entry: string | null = null;
  let graph: string[] | null = null;
  let source = "";

  const viteManifestPath = path.join(build.clientDir, ".vite/manifest.json");
  if (fs.existsSync(viteManifestPath)) {
    const manifest = JSON.parse(fs.readFileSync(viteManifestPath, "utf8")) as ViteManifest;
    const key = Object.keys(manifest).find((k) => manifest[k]!.isEntry && /entry\.client\.[cm]?[jt]sx?$/.test(manifest[k]!.src ?? k));
    if (key) {
      const seen = new Set<string>();
      const walk = (k: string) => {
        const chunk = manifest[k];
        if (!chunk || seen.has(chunk.file)) return;
        seen.add(chunk.file);
        for (const imp of chunk.imports ?? []) walk(imp);
      };
      walk(key);
      entry = manifest[key]!.file;
      graph = [...seen].sort();
      source = ".vite/manifest.json";
    }
  }

  if (!entry) {
    const fromManifest = inlineManifest?.entry?.module ?? routeManifestEntry(build);
    if (fromManifest) {
      entry = build.fileForUrl(fromManifest);
      source = "route manifest entry + static imports parsed from chunks";
    } else {
      const assets = path.join(build.clientDir, "assets");
      const found = fs.existsSync(assets) ? fs.readdirSync(assets).find((f) => /^entry\.client-[\w-]+\.js$/.test(f)) : undefined;
      if (!found) throw new Error(`No client entry chunk found in ${build.clientDir}`);
      entry = `assets/${found}`;
      source = "assets/entry.client-*.js + static imports parsed from chunks";
    }
    graph = build.closure([entry]).files;
  }

  const manifestFile = build.routeManifestFile(inlineManifest?.url);
  const files = [...new Set([...(graph ?? []), ...(manifestFile ? [manifestFile] : [])])].sort();
  const gzip = files.reduce((sum, f) => sum + build.measure(f).gzip, 0);
  return { source, entry, graph: graph ?? [], manifestFile, files, gzip };
}

function routeManifestEntry(build: ClientBuild): string | null {
  const file = build.routeManifestFile();
  if (!file) return null;
  const code = fs.readFileSync(path.join(build.clientDir, file), "utf8");
  const m = /"entry"\s*:\s*\{\s*"module"\s*:\s*"([^"]+)"/.exec(code);
  return m ? m[1]! : null;
}

/** Chunk names that would mean portal (logged-in) code ships to public visitors. */
export function isPortalChunk(file: string): boolean {
  const base = path.posix.basename(file);
  return /^(lp-|admin-)/.test(base) || /portal/i.test(base);
}
