import { readdir, rm } from "node:fs/promises";
import path from "node:path";
import { getDb } from "~/modules/db/connection.server";
import { isNotNull } from "drizzle-orm";
import { documents, fundDocuments, pitchSubmissions } from "../../../db/schema";
import { log } from "../logging/log.server";
import { storageRoot, storedFilePath } from "./storage.server";

const AREAS = ["documents", "fund-documents", "pitch-decks"] as const;

export type ReconcileReport = { orphanFilesRemoved: number; rowsWithoutFile: string[] };

/**
 * At start, before serving: bring STORAGE_DIR and the database back in step
 * after a crash. An upload is moved into its area and then recorded, and a
 * deletion removes the row and then the file, so a kill between the two steps
 * can only leave a file no row names: remove it. A row whose file is missing
 * (a disk restored without its files, a hand-deleted file) is reported, not
 * deleted: its record is the only trace left of the document.
 */
export async function reconcileStorage(): Promise<ReconcileReport> {
  const db = getDb();
  const rows = [
    ...db.select({ id: documents.id, filePath: documents.filePath }).from(documents).all(),
    ...db.select({ id: fundDocuments.id, filePath: fundDocuments.filePath }).from(fundDocuments).all(),
    // A pitch's uploaded deck (most pitches have none).
    ...db
      .select({ id: pitchSubmissions.id, filePath: pitchSubmissions.deckPath })
      .from(pitchSubmissions)
      .where(isNotNull(pitchSubmissions.deckPath))
      .all()
      .map((row) => ({ id: row.id, filePath: row.filePath ?? "" })),
  ];
  const referenced = new Set(rows.map((row) => row.filePath));

  let orphanFilesRemoved = 0;
  const present = new Set<string>();
  for (const area of AREAS) {
    let names: string[];
    try {
      names = await readdir(path.join(storageRoot(), area));
    } catch {
      continue;
    }
    for (const name of names) {
      const relative = `${area}/${name}`;
      if (referenced.has(relative)) {
        present.add(relative);
        continue;
      }
      await rm(path.join(storageRoot(), area, name), { force: true, recursive: true });
      orphanFilesRemoved += 1;
    }
  }

  const rowsWithoutFile = rows.filter((row) => !present.has(row.filePath) || !storedFilePath(row.filePath)).map((row) => row.id);
  if (orphanFilesRemoved > 0) log("warn", "storage: removed files no document points at", { count: orphanFilesRemoved });
  if (rowsWithoutFile.length > 0) {
    log("error", "storage: documents whose file is missing", { count: rowsWithoutFile.length, ids: rowsWithoutFile.slice(0, 50) });
  }
  return { orphanFilesRemoved, rowsWithoutFile };
}
