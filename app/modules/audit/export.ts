import { activityCopy } from "~/content/activity";
import { exportTimestamp, isoDay } from "../dates/format";
import { auditEventLabels, isAuditEvent } from "./events";

/** The activity export: one CSV record per audit row, written and streamed by modules/export/csv.ts, times in UTC. */

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

export const ACTIVITY_CSV_HEADER = [
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

/** One audit row's cells, under ACTIVITY_CSV_HEADER. */
export function activityCsvCells(row: ExportRow): string[] {
  return [
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
  ];
}

export function activityExportFileName(date: Date): string {
  return `lumen-ridge-activity-${isoDay(date)}.csv`;
}
