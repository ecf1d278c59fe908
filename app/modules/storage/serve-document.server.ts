import { recordAccess, type AccessAction, type Actor, type DocumentKind, type RequestMeta } from "../access-log/access-log.server";
import { AppError } from "../http/app-error";
import { fileResponse } from "./file-response.server";
import { storedFilePath } from "./storage.server";

/** The stored-file fields every kind of document row has. */
export type StoredDocument = { id: string; filePath: string; mimeType: string; fileName: string };

/**
 * View (inline) or download (attachment) a stored document, for a caller
 * already authorized: streamed from disk with Range and conditional
 * requests, and recorded in the access log when it starts the file.
 */
export async function serveRecordedDocument(
  request: Request,
  document: StoredDocument,
  access: { action: AccessAction; documentKind: DocumentKind; actor: Actor; meta: RequestMeta },
): Promise<Response> {
  const absolutePath = storedFilePath(document.filePath);
  if (!absolutePath) throw new AppError("not_found", "File not found");
  const answer = await fileResponse(request, {
    absolutePath,
    id: document.id,
    contentType: document.mimeType,
    fileName: document.fileName,
    disposition: access.action === "view" ? "inline" : "attachment",
  });
  if (answer.countsAsAccess) {
    recordAccess({ action: access.action, documentKind: access.documentKind, documentId: document.id, actor: access.actor, meta: access.meta });
  }
  return answer.response;
}
