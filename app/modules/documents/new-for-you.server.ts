import type { LpUser } from "../auth/session.server";
import { openedBy } from "./read-status.server";

/** How many of the newest documents the investor's home lists under "New for you". */
export const NEW_FOR_YOU_LIMIT = 6;

/** One document of "New for you": its id, and whether this reader has not opened it yet. */
export type NewForYouEntry = { id: string; unread: boolean };

/**
 * The investor home's "New for you" (issue 23 §3): the newest documents of the
 * reader's own list, so exactly those addressed to them or to all (the list
 * comes from `lpDocuments.listForPage(…, reader)`, newest first: one access
 * rule), each marked unread until the reader views or downloads it (decision 025).
 * The newest N rather than the unread only: a document just opened keeps its
 * place (its dot goes), and the section doubles as "recently published".
 */
export function newForYou(reader: LpUser, listed: ReadonlyArray<{ id: string }>): NewForYouEntry[] {
  const newest = listed.slice(0, NEW_FOR_YOU_LIMIT).map((d) => d.id);
  const opened = openedBy(reader.id, newest);
  return newest.map((id) => ({ id, unread: !opened.has(id) }));
}
