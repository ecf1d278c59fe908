import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { setLogSinkForTests } from "~/modules/logging/log.server";
import { reconcileStorage } from "~/modules/storage/reconcile.server";
import { storageRoot } from "~/modules/storage/storage.server";
import {
  absoluteStored,
  allDocuments,
  clearDocuments,
  insertDocument,
  insertFundDocument,
  storedFiles,
} from "../helpers/documents";
import { allFundDocuments } from "../helpers/funds";
import { samplePdf } from "../helpers/sample-files";

/**
 * reconcileStorage (app/modules/storage/reconcile.server.ts), run at start
 * before serving: a file in documents/ or fund-documents/ that no row names is
 * removed and counted; a row whose file is missing is reported by id and kept;
 * nothing else under STORAGE_DIR is touched. The operator sees a warn line for
 * the removals and an error line for the missing files.
 */

type Line = Record<string, unknown> & { level: string; msg: string };

let raw: string[] = [];
beforeEach(() => {
  clearDocuments();
  raw = [];
  setLogSinkForTests((line) => raw.push(line));
});
afterEach(() => {
  setLogSinkForTests(null);
});

const lines = () => raw.map((text) => JSON.parse(text) as Line);
const hex = () => randomBytes(16).toString("hex");

/** Write a file under STORAGE_DIR (its folders made), returning its path relative to STORAGE_DIR. */
function writeUnderStorage(relative: string, content: string | Buffer = "x"): string {
  const absolute = path.join(storageRoot(), relative);
  fs.mkdirSync(path.dirname(absolute), { recursive: true });
  fs.writeFileSync(absolute, content);
  return relative;
}

/** Every file and folder under STORAGE_DIR with its size and mtime, to prove nothing else changed. */
function snapshot(exclude: string[] = []): Record<string, string> {
  const root = storageRoot();
  const out: Record<string, string> = {};
  if (!fs.existsSync(root)) return out;
  for (const entry of fs.readdirSync(root, { recursive: true, withFileTypes: true }) as fs.Dirent[]) {
    const relative = path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join("/");
    if (exclude.includes(relative)) continue;
    const stat = fs.statSync(path.join(root, relative));
    out[relative] = entry.isDirectory() ? "dir" : `${stat.size}:${stat.mtimeMs}`;
  }
  return out;
}

describe("reconcileStorage", () => {
  it("removes a stray file in documents/ and one in fund-documents/, counts them, keeps files rows point at", async () => {
    const lp = insertDocument(samplePdf("LP"));
    const fund = insertFundDocument(samplePdf("Fund"));
    const strayLp = writeUnderStorage(`documents/${hex()}`, samplePdf("stray LP"));
    const strayFund = writeUnderStorage(`fund-documents/${hex()}`, samplePdf("stray fund"));
    const lpBytes = fs.readFileSync(absoluteStored(lp.filePath));

    const report = await reconcileStorage();

    expect(report).toEqual({ orphanFilesRemoved: 2, rowsWithoutFile: [] });
    expect(fs.existsSync(absoluteStored(strayLp))).toBe(false);
    expect(fs.existsSync(absoluteStored(strayFund))).toBe(false);
    expect(storedFiles()).toEqual([lp.filePath, fund.filePath].sort());
    expect(fs.readFileSync(absoluteStored(lp.filePath)).equals(lpBytes)).toBe(true);
    expect(allDocuments().map((d) => d.id)).toEqual([lp.id]);
    expect(allFundDocuments().map((d) => d.id)).toEqual([fund.id]);

    expect(lines()).toEqual([expect.objectContaining({ level: "warn", msg: "storage: removed files no document points at", count: 2 })]);
  });

  it("a row whose file is missing is reported by id, and the row stays", async () => {
    const kept = insertDocument(samplePdf("kept"));
    const lost = insertDocument(samplePdf("lost"), { title: "Lost report" });
    const lostFund = insertFundDocument(samplePdf("lost fund"));
    fs.rmSync(absoluteStored(lost.filePath));
    fs.rmSync(absoluteStored(lostFund.filePath));

    const report = await reconcileStorage();

    expect(report.orphanFilesRemoved).toBe(0);
    expect([...report.rowsWithoutFile].sort()).toEqual([lost.id, lostFund.id].sort());
    expect(allDocuments().map((d) => d.id).sort()).toEqual([kept.id, lost.id].sort());
    expect(allFundDocuments().map((d) => d.id)).toEqual([lostFund.id]);
    expect(storedFiles()).toEqual([kept.filePath]);

    const [line] = lines();
    expect(lines()).toHaveLength(1);
    expect(line).toMatchObject({ level: "error", msg: "storage: documents whose file is missing", count: 2 });
    expect([...(line?.ids as string[])].sort()).toEqual([lost.id, lostFund.id].sort());
  });

  it("touches nothing else under STORAGE_DIR: incoming/, other folders, top-level files, and kept files' times", async () => {
    const doc = insertDocument(samplePdf("doc"));
    const fundDoc = insertFundDocument(samplePdf("fund doc"));
    writeUnderStorage(`incoming/${hex()}.part`, "half an upload");
    writeUnderStorage("backups/2026-11-21.sqlite", "backup bytes");
    writeUnderStorage("README.txt", "operator notes");
    writeUnderStorage(`other-area/${hex()}`, "not an area reconcile owns");
    const strayLp = writeUnderStorage(`documents/${hex()}`);
    const strayFund = writeUnderStorage(`fund-documents/${hex()}`);
    const before = snapshot([strayLp, strayFund]);

    const report = await reconcileStorage();

    expect(report).toEqual({ orphanFilesRemoved: 2, rowsWithoutFile: [] });
    expect(snapshot()).toEqual(before);
    expect(Object.keys(before)).toEqual(expect.arrayContaining([doc.filePath, fundDoc.filePath, "README.txt", "backups/2026-11-21.sqlite"]));
  });

  it("a stray name that is not a stored-file name (a folder, a dotfile) is removed too, and counted", async () => {
    insertDocument(samplePdf("doc"));
    writeUnderStorage("documents/leftover-dir/inner.bin");
    writeUnderStorage("fund-documents/.DS_Store");

    const report = await reconcileStorage();

    expect(report.orphanFilesRemoved).toBe(2);
    expect(fs.existsSync(path.join(storageRoot(), "documents/leftover-dir"))).toBe(false);
    expect(fs.existsSync(path.join(storageRoot(), "fund-documents/.DS_Store"))).toBe(false);
  });

  it("a row whose file sits in the other area is not satisfied by it: the file is stray, the row is reported", async () => {
    const doc = insertDocument(samplePdf("doc"));
    const name = path.basename(doc.filePath);
    fs.mkdirSync(path.join(storageRoot(), "fund-documents"), { recursive: true });
    fs.renameSync(absoluteStored(doc.filePath), path.join(storageRoot(), "fund-documents", name));

    const report = await reconcileStorage();

    expect(report).toEqual({ orphanFilesRemoved: 1, rowsWithoutFile: [doc.id] });
    expect(allDocuments().map((d) => d.id)).toEqual([doc.id]);
  });

  it("on a fresh install (no STORAGE_DIR folders, no rows) does nothing and logs nothing", async () => {
    expect(fs.existsSync(storageRoot())).toBe(false);
    expect(await reconcileStorage()).toEqual({ orphanFilesRemoved: 0, rowsWithoutFile: [] });
    expect(raw).toEqual([]);
    expect(fs.existsSync(storageRoot())).toBe(false);
  });

  it("when storage and rows agree, a second run changes nothing and logs nothing", async () => {
    insertDocument(samplePdf("a"));
    insertFundDocument(samplePdf("b"));
    writeUnderStorage(`documents/${hex()}`);
    await reconcileStorage();
    raw = [];
    const before = snapshot();
    expect(await reconcileStorage()).toEqual({ orphanFilesRemoved: 0, rowsWithoutFile: [] });
    expect(snapshot()).toEqual(before);
    expect(raw).toEqual([]);
  });
});
