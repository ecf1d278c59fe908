import { pitchMessages } from "~/content/validation";
import { AppError } from "../http/app-error";
import { parseJsonInput, readJsonBody } from "../http/json.server";
import { tryReserve, type Refused, type Reservation } from "../http/rate-limit.server";
import { checkFileType } from "../storage/file-type.server";
import { cleanFileName } from "../storage/file-name";
import { commitIncoming, removeQuietly } from "../storage/storage.server";
import { receiveUpload, type ReceivedFile } from "../storage/upload.server";
import { PITCH_DECK_FIELD, PITCH_DECK_MAX_BYTES, PITCH_HONEYPOT_FIELD, PITCH_STAMP_FIELD } from "./constants";
import { PitchInput } from "./schema";

/**
 * A pitch posted as multipart/form-data (the form with a deck, or POST /api/pitch):
 * the text fields and at most one deck, streamed to STORAGE_DIR/incoming by the
 * documents' receiver (decision 011) and checked by its bytes. The caller either
 * stores the deck with storePitch or drops it with discardDeck.
 */

const PITCH_FIELDS = ["name", "email", "company", "stage", "deckUrl", "message"] as const;
/** Besides the pitch: the enhanced form's marker and the spam traps. */
const FORM_FIELDS = [...PITCH_FIELDS, "_enhanced", PITCH_HONEYPOT_FIELD, PITCH_STAMP_FIELD] as const;

export type PitchPost = { fields: Record<string, string>; deck: ReceivedFile | null };

export function isMultipart(request: Request): boolean {
  return /^multipart\/form-data\s*;/i.test(request.headers.get("content-type") ?? "");
}

function deckTooLarge(values?: Record<string, string>): AppError {
  return new AppError("payload_too_large", pitchMessages.deckTooLarge, {
    fields: { [PITCH_DECK_FIELD]: [pitchMessages.deckTooLarge] },
    ...(values ? { values } : {}),
  });
}

/**
 * A deck's place, reserved before the body is read (decision 030): one of its
 * network's (RATE_LIMITS.pitchDeck, an IPv6 /64 is one network) and one of
 * everyone's (pitchDeckAll), or the refusal of the first that has none left.
 */
async function reserveDeckPlace(clientAddress: string): Promise<Reservation[] | Refused> {
  const network = await tryReserve("pitchDeck", clientAddress);
  if ("refusal" in network) return network;
  const all = await tryReserve("pitchDeckAll", clientAddress);
  if ("refusal" in all) {
    await network.giveBack();
    return all;
  }
  return [network, all];
}

/** The 429 of a deck without a place, under the deck field (the form shows it there). */
function deckRefused(refused: Refused): AppError {
  const error = refused.refusal();
  return new AppError("rate_limited", error.message, { ...error.options, fields: { [PITCH_DECK_FIELD]: [error.message] } });
}

/**
 * Read a multipart pitch. Its deck's place is reserved before the body is
 * read, so the decks written to disk are bounded per network and in all a day;
 * without a place the fields are still read but a deck's bytes are not written,
 * and a post carrying one is a 429 with Retry-After (a pitch without a deck
 * goes on: the form always posts multipart). A post that carried no deck gives
 * its place back. A deck over 25 MB is a 413 with the deck's message; nothing is kept.
 */
export async function receivePitchPost(request: Request, clientAddress: string): Promise<PitchPost> {
  const places = await reserveDeckPlace(clientAddress);
  const refused = "refusal" in places ? places : null;
  try {
    const upload = await receiveUpload(request, {
      fileField: PITCH_DECK_FIELD,
      maxFileBytes: PITCH_DECK_MAX_BYTES,
      fieldNames: FORM_FIELDS,
      ...(refused ? { refuseFile: () => deckRefused(refused) } : {}),
    });
    // A file input left empty is sent as a part with no name and no bytes: no deck.
    const deck = upload.file && !(upload.file.size === 0 && upload.file.clientName === "") ? upload.file : null;
    if (upload.file && !deck) await removeQuietly(upload.file.tmpPath);
    if (!deck && !refused) await Promise.all((places as Reservation[]).map((place) => place.giveBack()));
    return { fields: upload.fields, deck };
  } catch (error) {
    // A post that failed keeps its place: it may have written a deck's bytes before failing.
    if (error instanceof AppError && error.code === "payload_too_large") throw deckTooLarge();
    throw error;
  }
}

/** What is wrong with a received deck (empty, not a PDF by its declared type and its bytes), or null. */
export async function deckProblem(deck: ReceivedFile): Promise<string | null> {
  if (deck.size === 0) return pitchMessages.deckEmpty;
  return (await checkFileType(deck.tmpPath, deck.clientMime)) === "application/pdf" ? null : pitchMessages.deckType;
}

/** Drop a received deck that will not be kept (refused, trapped, or the post failed). */
export async function discardDeck(deck: ReceivedFile | null): Promise<void> {
  if (deck) await removeQuietly(deck.tmpPath);
}

/** What a pitch row keeps of an accepted deck. */
export type StoredDeck = { path: string; name: string; size: number };

/** Move an accepted deck into pitch-decks/ under a server-made name. */
export async function commitDeck(deck: ReceivedFile): Promise<StoredDeck> {
  const path = await commitIncoming(deck.tmpPath, "pitch-decks");
  return { path, name: cleanFileName(deck.clientName, ".pdf"), size: deck.size };
}

/**
 * POST /api/pitch's body: JSON as ever, or the same fields as multipart/form-data
 * with an optional deck (its place reserved first: receivePitchPost). Bad fields
 * or a deck that is not a PDF: 400 with field messages, and the deck is dropped.
 */
export async function readApiPitch(request: Request, clientAddress: string): Promise<{ input: PitchInput; deck: ReceivedFile | null }> {
  if (!isMultipart(request)) return { input: parseJsonInput(PitchInput, await readJsonBody(request)), deck: null };
  const { fields, deck } = await receivePitchPost(request, clientAddress);
  try {
    const problem = deck ? await deckProblem(deck) : null;
    const parsed = PitchInput.safeParse(fields);
    if (problem && parsed.success) throw new AppError("bad_request", problem, { fields: { [PITCH_DECK_FIELD]: [problem] } });
    try {
      return { input: parseJsonInput(PitchInput, fields), deck };
    } catch (error) {
      // Both kinds of problem at once: the deck's message beside the fields'.
      if (problem && error instanceof AppError) {
        throw new AppError("bad_request", error.message, { fields: { ...error.options.fields, [PITCH_DECK_FIELD]: [problem] } });
      }
      throw error;
    }
  } catch (error) {
    await discardDeck(deck);
    throw error;
  }
}
