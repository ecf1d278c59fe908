import { eq } from "drizzle-orm";
import { getDb, type Db } from "~/modules/db/connection.server";
import { pitchEvents, pitchSubmissions } from "../../../db/schema";
import { pitchMessages } from "~/content/validation";
import { audit } from "../audit/audit.server";
import { now } from "../config/clock.server";
import { AppError } from "../http/app-error";
import { fileResponse } from "../storage/file-response.server";
import { storedFilePath } from "../storage/storage.server";

/** The admin who opens a deck. */
export type DeckReader = { id: string; email: string };

/**
 * An admin opens a pitch's uploaded deck: the PDF inline, streamed from disk
 * with Range, HEAD and conditional requests like documents. Each opening (a
 * 200, or a 206 from byte 0; not a later range, a 304 or a HEAD) is recorded
 * as an audit event and on the pitch's timeline, in one transaction.
 * An unknown pitch, or one without a deck, is a 404.
 */
export async function openPitchDeck(admin: DeckReader, pitchId: string, request: Request, db: Db = getDb()): Promise<Response> {
  const row = db
    .select({ id: pitchSubmissions.id, company: pitchSubmissions.company, deckPath: pitchSubmissions.deckPath, deckName: pitchSubmissions.deckName })
    .from(pitchSubmissions)
    .where(eq(pitchSubmissions.id, pitchId))
    .get();
  const absolutePath = row?.deckPath ? storedFilePath(row.deckPath) : null;
  if (!row || !absolutePath) throw new AppError("not_found", pitchMessages.deckNotFound);
  const answer = await fileResponse(request, {
    absolutePath,
    id: row.id,
    contentType: "application/pdf",
    fileName: row.deckName ?? "deck.pdf",
    disposition: "inline",
  });
  if (answer.countsAsAccess) {
    const at = now();
    db.transaction((tx) => {
      audit(tx, "pitch.deck_opened", {
        actor: admin,
        target: { type: "pitch", id: row.id, label: row.company },
        details: { pitchId: row.id, fileName: row.deckName },
      });
      tx.insert(pitchEvents).values({ pitchId: row.id, at, kind: "deck_opened", actorId: admin.id, actorEmail: admin.email }).run();
    });
  }
  return answer.response;
}
