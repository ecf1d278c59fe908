import { activityCopy } from "~/content/activity";
import { exportTimestamp, isoDay } from "../dates/format";
import { CSV_BOM, csvRecord } from "../export/csv";
import { auditEventLabels, isAuditEvent } from "./events";

/** The activity export: one CSV record per audit row, formula-safe (modules/export/csv.ts), times in UTC. */

type ExportRow = {
  at: Date;
  event: string;
  actorId: string | null;
  actorEmail: string | null;
  targetType: string | null;
  targetId: string | null;
  targetLabel: string | null;
  ip: string | null;
  userAgent: string | null;
  requestId: string | null;
  details: string;
};

const HEADERS = [
  "Time (UTC)",
  "Event",
  "Event name",
  "Actor",
  "Actor ID",
  "Target type",
  "Target ID",
  "Target",
  "IP address",
  "User agent",
  "Request ID",
  "Details",
];

/** The file's first bytes: byte order mark and header record. */
export function activityCsvHead(): string {
  return CSV_BOM + csvRecord(HEADERS);
}

export function activityCsvRecord(row: ExportRow): string {
  return csvRecord([
    exportTimestamp(row.at),
    isAuditEvent(row.event) ? auditEventLabels[row.event] : row.event,
    row.event,
    row.actorEmail ?? activityCopy.visitor,
    row.actorId ?? "",
    row.targetType ?? "",
    row.targetId ?? "",
    row.targetLabel ?? "",
    row.ip ?? "",
    row.userAgent ?? "",
    row.requestId ?? "",
    row.details,
  ]);
}

export function activityExportFileName(date: Date): string {
  return `lumen-ridge-activity-${isoDay(date)}.csv`;
}
