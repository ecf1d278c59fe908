/**
 * The original file name is metadata only (shown, and offered on download);
 * it never names anything on disk. Cleaning keeps what a person would
 * recognise and drops what could mislead or break: path parts, control
 * characters (NUL, CR, LF…), bidirectional overrides that disguise an
 * extension, and excess length (at most 255 characters, extension kept).
 */
const MAX_NAME_LENGTH = 255;

// C0/C1 controls, and the bidi embedding/override/isolate marks.
const UNSAFE_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

export function cleanFileName(raw: string, fallbackExtension: string): string {
  const base = raw.split(/[\\/]/).pop() ?? "";
  let name = base.replace(UNSAFE_CHARACTERS, "").trim().normalize("NFC");
  name = name.replace(/^\.+/, "");
  if (!name) return `document${fallbackExtension}`;
  const chars = Array.from(name);
  if (chars.length <= MAX_NAME_LENGTH) return name;
  const dot = name.lastIndexOf(".");
  const extension = dot > 0 && name.length - dot <= 10 ? name.slice(dot) : "";
  const keep = MAX_NAME_LENGTH - Array.from(extension).length;
  return Array.from(name.slice(0, name.length - extension.length)).slice(0, keep).join("") + extension;
}

/** The usual extension for a stored MIME type (for names that lost theirs). */
export const EXTENSION_FOR_TYPE: Readonly<Record<string, string>> = {
  "application/pdf": ".pdf",
  "application/msword": ".doc",
  "application/vnd.ms-excel": ".xls",
  "application/vnd.ms-powerpoint": ".ppt",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document": ".docx",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": ".xlsx",
  "application/vnd.openxmlformats-officedocument.presentationml.presentation": ".pptx",
};
