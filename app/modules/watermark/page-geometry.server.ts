import { QpdfError, runQpdf, writeArgFile } from "./qpdf.server";

/**
 * Each page's shape as it is shown, read with qpdf's JSON (version 2) without
 * loading the PDF into this process: the list of page objects first, then those
 * objects, then whatever they point at (their /Parent for inherited values, a
 * box written as a reference), one qpdf run per round, usually three in all.
 *
 * The box is the one qpdf's --overlay places the stamp in: /TrimBox, else
 * /CropBox, else /MediaBox (the last two inherited through the page tree).
 * qpdf turns the stamp to match the page's /Rotate, so a page turned by 90° or
 * 270° is shown with width and height swapped, and its stamp is made that shape.
 */

/** The page as shown: width and height in points, rotation applied. */
export type PageShape = { width: number; height: number };

export type PdfGeometry = {
  encrypted: boolean;
  pageCount: number;
  /** One entry per page; null where the shape was not worked out (too many pages, a tree too odd). */
  pages: (PageShape | null)[];
};

/** Past this many pages, shapes are not read one by one: every page gets the square stamp. */
export const MAX_SHAPED_PAGES = 5000;
const MAX_ROUNDS = 10;
const MAX_TREE_DEPTH = 64;
/** Letter, the PDF default when a page names no box at all. */
const DEFAULT_BOX: PageShape = { width: 612, height: 792 };

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Dict = { [key: string]: Json };

const PENDING = Symbol("pending");
type Pending = typeof PENDING;

const REF = /^(\d+) (\d+) R$/;

function isDict(value: Json | undefined): value is Dict {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function parseJson(text: string): Json {
  try {
    return JSON.parse(text) as Json;
  } catch {
    throw new QpdfError("unreadable", "qpdf's JSON could not be parsed");
  }
}

/** The objects fetched so far ("12 0" → value; null when the file lacks it), and those still wanted. */
class Objects {
  private readonly known = new Map<string, Json>();
  readonly wanted = new Set<string>();

  /** A value with a reference followed (one step), PENDING when that object is not fetched yet. */
  deref(value: Json | undefined): Json | undefined | Pending {
    if (typeof value !== "string") return value;
    const match = REF.exec(value);
    if (!match) return value;
    const key = `${match[1]} ${match[2]}`;
    if (this.known.has(key)) return this.known.get(key)!;
    this.wanted.add(key);
    return PENDING;
  }

  learn(key: string, value: Json) {
    this.known.set(key, value);
  }
}

type Rect = { width: number; height: number };

function rectOf(objects: Objects, raw: Json | undefined): Rect | null | Pending {
  const value = objects.deref(raw);
  if (value === PENDING) return PENDING;
  if (!Array.isArray(value) || value.length !== 4) return null;
  const numbers: number[] = [];
  for (const item of value) {
    const n = objects.deref(item);
    if (n === PENDING) return PENDING;
    if (typeof n !== "number" || !Number.isFinite(n)) return null;
    numbers.push(n);
  }
  const [x1, y1, x2, y2] = numbers as [number, number, number, number];
  const width = Math.abs(x2 - x1);
  const height = Math.abs(y2 - y1);
  // Extreme coordinates can overflow to Infinity: such a box is no page size.
  return Number.isFinite(width) && Number.isFinite(height) && width > 0 && height > 0 ? { width, height } : null;
}

/** A page-tree attribute from the page or the nearest ancestor that has it. */
function inherited(objects: Objects, page: Dict, key: string): Json | undefined | Pending {
  let node: Dict = page;
  for (let depth = 0; depth < MAX_TREE_DEPTH; depth++) {
    if (key in node) return node[key];
    const parent = objects.deref(node["/Parent"]);
    if (parent === PENDING) return PENDING;
    if (!isDict(parent)) return undefined;
    node = parent;
  }
  return undefined;
}

function shapeOf(objects: Objects, pageRef: string): PageShape | null | Pending {
  const page = objects.deref(pageRef);
  if (page === PENDING) return PENDING;
  if (!isDict(page)) return null;

  let box: Rect | null = null;
  const trim = rectOf(objects, page["/TrimBox"]);
  if (trim === PENDING) return PENDING;
  box = trim;
  for (const name of ["/CropBox", "/MediaBox"]) {
    if (box) break;
    const raw = inherited(objects, page, name);
    if (raw === PENDING) return PENDING;
    const rect = rectOf(objects, raw);
    if (rect === PENDING) return PENDING;
    box = rect;
  }
  box ??= DEFAULT_BOX;

  const rawRotate = inherited(objects, page, "/Rotate");
  if (rawRotate === PENDING) return PENDING;
  const rotate = objects.deref(rawRotate);
  if (rotate === PENDING) return PENDING;
  const quarter = typeof rotate === "number" && Number.isInteger(rotate) ? (((rotate / 90) % 4) + 4) % 4 : 0;
  return quarter === 1 || quarter === 3 ? { width: box.height, height: box.width } : { width: box.width, height: box.height };
}

/** Fetches the wanted objects in one qpdf run. */
async function fetchObjects(absolutePath: string, objects: Objects, workDir: string, round: number, timeoutMs: number) {
  const keys = [...objects.wanted];
  objects.wanted.clear();
  const argFile = await writeArgFile(workDir, `objects-${round}.args`, [
    "--json=2",
    "--json-key=qpdf",
    ...keys.map((key) => `--json-object=${key.replace(" ", ",")}`),
  ]);
  const { stdout } = await runQpdf([absolutePath, argFile], { timeoutMs, maxOutputBytes: 32 * 1024 * 1024 });
  const json = parseJson(stdout);
  const list = isDict(json) ? json.qpdf : undefined;
  const found = Array.isArray(list) && isDict(list[1]) ? list[1] : {};
  for (const key of keys) {
    const entry = found[`obj:${key} R`];
    let value: Json = null;
    if (isDict(entry)) {
      if ("value" in entry) value = entry.value ?? null;
      else if (isDict(entry.stream)) value = entry.stream.dict ?? null;
    }
    objects.learn(key, value);
  }
}

/**
 * Reads encryption, page count and page shapes. Throws QpdfError when qpdf
 * cannot read the file (or overruns `deadline`, a Date.now() time).
 */
export async function readPdfGeometry(absolutePath: string, workDir: string, deadline: number): Promise<PdfGeometry> {
  const remaining = () => Math.max(1, deadline - Date.now());
  const { stdout } = await runQpdf(["--json=2", "--json-key=encrypt", "--json-key=pages", absolutePath], {
    timeoutMs: remaining(),
    maxOutputBytes: 64 * 1024 * 1024,
  });
  const json = parseJson(stdout);
  if (!isDict(json) || !Array.isArray(json.pages)) throw new QpdfError("unreadable", "qpdf's JSON has no page list");
  const encrypted = isDict(json.encrypt) && json.encrypt.encrypted === true;
  const pageRefs = json.pages.map((page) => (isDict(page) && typeof page.object === "string" ? page.object : null));
  const pages: (PageShape | null)[] = pageRefs.map(() => null);
  if (pageRefs.length > MAX_SHAPED_PAGES) return { encrypted, pageCount: pageRefs.length, pages };

  const objects = new Objects();
  let open = pageRefs.map((_, index) => index).filter((index) => pageRefs[index] !== null);
  for (let round = 0; open.length > 0; round++) {
    const lastRound = round >= MAX_ROUNDS;
    const still: number[] = [];
    for (const index of open) {
      const shape = shapeOf(objects, pageRefs[index]!);
      if (shape === PENDING) still.push(index);
      else pages[index] = shape;
    }
    open = still;
    if (open.length === 0 || lastRound) break;
    await fetchObjects(absolutePath, objects, workDir, round, remaining());
  }
  return { encrypted, pageCount: pageRefs.length, pages };
}
