import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { getDb } from "../../app/modules/db/connection.server";
import { accessLog, documents, fundDocuments } from "../../db/schema";
import { storageRoot } from "~/modules/storage/storage.server";
import { ORIGIN } from "./users";

/**
 * Requests and storage checks for the LP documents tests: multipart uploads
 * (FormData as a browser or fetch client sends it, or hand-made bytes when a
 * test needs exact control of the part headers), the files left under
 * STORAGE_DIR, and rows put straight into the database.
 */

export type UploadFile = { bytes: Uint8Array; name: string; type: string };

/** A Uint8Array view of a Buffer (a BlobPart TypeScript accepts), without copying. */
export function bytesOf(buffer: Uint8Array): Uint8Array<ArrayBuffer> {
  return new Uint8Array(buffer.buffer as ArrayBuffer, buffer.byteOffset, buffer.byteLength);
}

/** A multipart POST built with FormData + File, the way a browser or fetch client sends the upload form. */
export function uploadRequest(
  pathname: string,
  { fields = {}, file, cookie }: { fields?: Record<string, string>; file?: UploadFile | undefined; cookie?: string | undefined },
): Request {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (file) form.append("file", new File([bytesOf(file.bytes)], file.name, { type: file.type }));
  const headers = new Headers();
  if (cookie) headers.set("Cookie", cookie);
  return new Request(ORIGIN + pathname, { method: "POST", headers, body: form });
}

export type RawPart =
  | { name: string; value: string }
  | {
      name: string;
      /** Sent as filename="…" (latin1 bytes of the UTF-8 text, as browsers do). */
      filename?: string;
      /** Sent as filename*=UTF-8''… (RFC 5987), which the parser decodes, control characters included. */
      filenameStar?: string;
      type?: string;
      bytes: Uint8Array;
    };

/** RFC 5987 ext-value: every byte outside attr-char percent-encoded. */
function extValue(text: string): string {
  return encodeURIComponent(text).replace(/['()*!]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** A multipart body made byte by byte (exact part headers), with a matching Content-Length. */
export function rawMultipartRequest(
  pathname: string,
  parts: RawPart[],
  { cookie, close = true }: { cookie?: string | undefined; close?: boolean } = {},
): Request {
  const boundary = `----lumen-test-${randomBytes(8).toString("hex")}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"`;
    if ("bytes" in part) {
      if (part.filename !== undefined) head += `; filename="${Buffer.from(part.filename, "utf8").toString("latin1")}"`;
      if (part.filenameStar !== undefined) head += `; filename*=UTF-8''${extValue(part.filenameStar)}`;
      head += `\r\nContent-Type: ${part.type ?? "application/octet-stream"}\r\n\r\n`;
      chunks.push(Buffer.from(head, "latin1"), Buffer.from(bytesOf(part.bytes)), Buffer.from("\r\n"));
    } else {
      chunks.push(Buffer.from(`${head}\r\n\r\n`, "latin1"), Buffer.from(part.value, "utf8"), Buffer.from("\r\n"));
    }
  }
  if (close) chunks.push(Buffer.from(`--${boundary}--\r\n`));
  const body = Buffer.concat(chunks);
  const headers = new Headers({
    "Content-Type": `multipart/form-data; boundary=${boundary}`,
    "Content-Length": String(body.length),
  });
  if (cookie) headers.set("Cookie", cookie);
  return new Request(ORIGIN + pathname, { method: "POST", headers, body: bytesOf(body) });
}

/** Every file under a directory, as sorted paths relative to it ([] when it does not exist). */
export function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((entry) => !entry.isDirectory())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"))
    .sort();
}

/** Every file under STORAGE_DIR (documents/, fund-documents/, incoming/…). */
export function storedFiles(): string[] {
  return filesUnder(storageRoot());
}

/** Empty STORAGE_DIR and the document tables, so each test starts from nothing. */
export function clearDocuments() {
  const db = getDb();
  db.delete(accessLog).run();
  db.delete(documents).run();
  db.delete(fundDocuments).run();
  fs.rmSync(storageRoot(), { recursive: true, force: true });
}

export function allDocuments() {
  return getDb().select().from(documents).all();
}

export function documentRow(id: string) {
  return getDb().select().from(documents).where(eq(documents.id, id)).get();
}

export function allAccessLog() {
  return getDb().select().from(accessLog).all();
}

/** Put a file under STORAGE_DIR/<area>/<32 hex> as the server would; returns its relative path. */
export function storeFile(area: "documents" | "fund-documents", bytes: Uint8Array): string {
  const relative = `${area}/${randomBytes(16).toString("hex")}`;
  fs.mkdirSync(path.join(storageRoot(), area), { recursive: true });
  fs.writeFileSync(path.join(storageRoot(), relative), bytes);
  return relative;
}

export function absoluteStored(relative: string): string {
  return path.join(storageRoot(), relative);
}

/** A stored LP document: its file under documents/ and its row. */
export function insertDocument(
  bytes: Uint8Array,
  overrides: Partial<typeof documents.$inferInsert> = {},
): typeof documents.$inferSelect {
  const filePath = storeFile("documents", bytes);
  return getDb()
    .insert(documents)
    .values({
      title: "Q3 2026 Report",
      category: "reports",
      fileName: "q3-2026-report.pdf",
      filePath,
      fileSize: bytes.byteLength,
      mimeType: "application/pdf",
      ...overrides,
    })
    .returning()
    .get();
}

/** A stored Fund document (fund_documents row, file under fund-documents/). */
export function insertFundDocument(bytes: Uint8Array): typeof fundDocuments.$inferSelect {
  const filePath = storeFile("fund-documents", bytes);
  return getDb()
    .insert(fundDocuments)
    .values({
      fundId: "fund-ii",
      title: "Fund II Deck",
      category: "pitchdeck",
      fileName: "fund-ii-deck.pdf",
      filePath,
      fileSize: bytes.byteLength,
      mimeType: "application/pdf",
    })
    .returning()
    .get();
}

/** The whole body of a response as a Buffer. */
export async function bodyBytes(response: Response): Promise<Buffer> {
  return Buffer.from(await response.arrayBuffer());
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
