/**
 * The original file name is metadata only (shown, and offered on download);
 * it never names anything on disk. Cleaning keeps what a person would
 * recognise and drops what could mislead or break: path parts, control
 * characters (NUL, CR, LF…), bidirectional overrides that disguise an
 * extension, and excess length (at most 255 characters, extension kept).
 * The extension always matches the checked content.
 */
const MAX_NAME_LENGTH = 255;

// C0/C1 controls, and the bidi embedding/override/isolate marks.
const UNSAFE_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * `extension` is the one the verified content calls for (".pdf", ".docx"…):
 * a name without it gets it appended, so a PDF called "invoice.exe" is
 * offered as "invoice.exe.pdf", never as a program.
 */
export function cleanFileName(raw: string, extension: string): string {
  const base = raw.split(/[\\/]/).pop() ?? "";
  const name = base.replace(UNSAFE_CHARACTERS, "").normalize("NFC").replace(/^[.\s]+/, "").trim() || "document";
  const hasExtension = name.toLowerCase().endsWith(extension.toLowerCase());
  const stem = hasExtension ? name.slice(0, name.length - extension.length) : name;
  const suffix = hasExtension ? name.slice(stem.length) : extension;
  const keep = MAX_NAME_LENGTH - Array.from(suffix).length;
  return Array.from(stem).slice(0, keep).join("") + suffix;
}

/** The extension for each stored MIME type. */
export const EXTENSION_FOR_TYPE: Readonly<Record<string, string>> = {
  "application/pdf": ".pdf",
  "application/msword": ".doc",
  "application/vnd.ms-excel": ".xls",
  "application/vnd.ms-powerpoint": ".ppt",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document": ".docx",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": ".xlsx",
  "application/vnd.openxmlformats-officedocument.presentationml.presentation": ".pptx",
};
