import { eq, sql } from "drizzle-orm";
import { getDb, type Db } from "~/modules/db/connection.server";
import { firmSettings } from "../../../db/schema";
import { audit, type AuditActor } from "../audit/audit.server";
import { now } from "../config/clock.server";
import { watermarkAvailableNow, watermarkUnavailableUpload } from "../watermark/availability.server";

/**
 * The firm's settings (issue 25 §2, decision 041): one row per key in
 * `firm_settings`, its value JSON. Each key has a type and a default here; a
 * key never written reads as its default, and a stored value of the wrong
 * shape (a hand edit) reads as the default too.
 */
export const FIRM_SETTINGS = {
  /** Statement PDFs are made with the documents' watermark switch on (each investor's view is stamped). Off by default. */
  statements_watermark: { default: false, parse: (value: unknown): boolean | undefined => (typeof value === "boolean" ? value : undefined) },
} as const;

export type FirmSettingKey = keyof typeof FIRM_SETTINGS;
export type FirmSettingValue<K extends FirmSettingKey> = NonNullable<ReturnType<(typeof FIRM_SETTINGS)[K]["parse"]>>;

type Reader = Pick<Db, "select">;
type Writer = Pick<Db, "select" | "insert">;

/** A setting's current value (its default when never set). */
export function readSetting<K extends FirmSettingKey>(key: K, db: Reader = getDb()): FirmSettingValue<K> {
  const spec = FIRM_SETTINGS[key];
  const row = db.select({ value: firmSettings.value }).from(firmSettings).where(eq(firmSettings.key, key)).get();
  if (!row) return spec.default as FirmSettingValue<K>;
  let parsed: unknown;
  try {
    parsed = JSON.parse(row.value);
  } catch {
    return spec.default as FirmSettingValue<K>;
  }
  return (spec.parse(parsed) ?? spec.default) as FirmSettingValue<K>;
}

/** Write a setting inside the caller's transaction, with its `firm_setting.changed` audit row. */
function writeSetting<K extends FirmSettingKey>(tx: Writer, admin: AuditActor, key: K, value: FirmSettingValue<K>): void {
  const was = readSetting(key, tx);
  tx.insert(firmSettings)
    .values({ key, value: JSON.stringify(value), updatedAt: now() })
    .onConflictDoUpdate({ target: firmSettings.key, set: { value: sql`excluded.value`, updatedAt: sql`excluded.updated_at` } })
    .run();
  audit(tx, "firm_setting.changed", { actor: { id: admin.id, email: admin.email }, target: null, details: { key, value, was } });
}

/**
 * Turn the watermark of statement PDFs made from now on on or off (audited);
 * returns the new value. Turning it on while watermarks are unavailable (no
 * qpdf 11+ on the server) is the upload's 400, with what to install: the
 * statements would otherwise reach investors as 503s.
 */
export function setStatementsWatermark(admin: AuditActor, on: boolean, db: Db = getDb()): boolean {
  if (on && watermarkAvailableNow() === false) throw watermarkUnavailableUpload();
  db.transaction((tx) => writeSetting(tx, admin, "statements_watermark", on));
  return on;
}
