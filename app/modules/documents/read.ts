import type { FundId } from "../fund-access/constants";
import { formatMegabytes } from "./constants";

/**
 * The read shapes of SPEC.md §3, shared by the JSON routes, the page loaders
 * and the components that show them (no server code here).
 *
 * - LP document (read): fileSize is a numeric string of bytes.
 * - Fund document (read): the same plus fundId; fileSize is ready-made text
 *   ("1.25 MB") on the public pages and a byte string in the admin list.
 *
 * The key order is the JSON answer's order: id, title, description,
 * category, fileName, fileSize, createdAt[, fundId].
 */
export type DocumentRead = {
  id: string;
  title: string;
  description: string | null;
  category: string;
  fileName: string;
  /** "1048576", or "1.00 MB" where the shape asks for text. */
  fileSize: string;
  /** ISO 8601. */
  createdAt: string;
};

export type FundDocumentRead = DocumentRead & { fundId: FundId };

/**
 * An LP document (issue 15): who it is for and whether views are stamped;
 * admins also get the chosen investors' ids (`recipientIds`) and the chosen
 * entities' ids (`recipientEntityIds`, issue 24 §2), both empty for 'all'.
 */
export type LpDocumentRead = DocumentRead & {
  audience: "all" | "selected";
  watermark: boolean;
  recipientIds?: string[];
  recipientEntityIds?: string[];
};

/** How a read shape gives the size: a byte string, or text such as "1.25 MB". */
export type FileSizeAs = "bytes" | "text";

/** A document as a page shows it: its read shape plus `createdOn`, the date formatted on the server ('Jan 5, 2025'). */
export type DocumentView<R extends DocumentRead = DocumentRead> = R & { createdOn: string };

/** The columns every document row has, whatever its scope. */
export type DocumentRowBase = {
  id: string;
  title: string;
  description: string | null;
  category: string;
  fileName: string;
  fileSize: number;
  createdAt: Date;
};

/** The common part of every read shape, in the answer's key order. */
export function toDocumentRead(row: DocumentRowBase, fileSize: FileSizeAs): DocumentRead {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    category: row.category,
    fileName: row.fileName,
    fileSize: fileSize === "text" ? formatMegabytes(row.fileSize) : String(row.fileSize),
    createdAt: row.createdAt.toISOString(),
  };
}
