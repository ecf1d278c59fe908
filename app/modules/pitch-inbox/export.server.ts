import { pitchListCopy } from "~/content/pitch-inbox";
import { exportDateTime, isoDay } from "../dates/format";
import type { PitchSubmission } from "../pitches/pitches.server";
import { clockText, statusLabel, type PitchAdmin } from "./inbox.server";
import { dueDayOf } from "../pitch-clock/clock.server";

/**
 * The pitch export (/admin/pitches.csv): one CSV record per pitch under
 * content's pitchCsvHeaders, written and streamed by modules/export/csv.ts.
 */

/** A pitch's cells, the owners named from the admins read once for the whole file. */
export function pitchCsvCells(admins: readonly PitchAdmin[], at: Date): (pitch: PitchSubmission) => string[] {
  const names = new Map(admins.map((admin) => [admin.id, admin.name]));
  return (pitch) => [
    exportDateTime(pitch.createdAt),
    pitch.company,
    pitch.name,
    pitch.email,
    pitch.stage,
    statusLabel(pitch.status),
    pitch.ownerId ? (names.get(pitch.ownerId) ?? pitchListCopy.formerAdmin) : "",
    dueDayOf(pitch.dueAt),
    pitch.answeredAt ? exportDateTime(pitch.answeredAt) : "",
    clockText(pitch, at),
    pitch.deckUrl ?? "",
    pitch.message,
    pitch.id,
  ];
}

export function pitchExportFileName(date: Date): string {
  return `lumen-ridge-pitches-${isoDay(date)}.csv`;
}
