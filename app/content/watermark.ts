import { errorCopy } from "./errors";
import { firm } from "./firm";

/**
 * Watermarked PDFs (issue 15 §3): the stamp drawn on every page of an
 * investor's copy, what is said when a PDF cannot be stamped or the stamping
 * queue is full, and when the server cannot stamp at all (qpdf missing,
 * issue 26 §7).
 */
export const watermarkCopy = {
  stamp: {
    title: "Confidential",
    recipient: (name: string, email: string) => (name ? `${name} <${email}>` : `<${email}>`),
    /** `2026-11-25 19:30` → "2026-11-25 19:30 UTC". */
    time: (utcDateTime: string) => `${utcDateTime} UTC`,
  },
  messages: {
    encrypted:
      "This PDF is password-protected or encrypted, so it cannot be watermarked. Save a copy without a password or restrictions and upload that.",
    unreadable:
      "This PDF could not be read, so it cannot be watermarked. Check that it opens, save it again (for example with “Print to PDF”) and upload it again.",
    tooComplex: "This PDF is too large or complex to watermark in time. Try a smaller or simpler file.",
    busy: "Many watermarked downloads are being prepared right now. Please try again in a few seconds.",
  },
  /** The server lacks qpdf (modules/watermark/availability.server.ts). */
  unavailable: {
    /** The one line beside the upload forms' disabled switch, and the 400 of a watermarked upload (under `watermark`). */
    install: "Watermarking is unavailable: this server lacks qpdf 11 or later. Install it (apt-get install qpdf), then restart the app.",
    /** The 503 of an investor's view or download (JSON `error`). */
    download: "This document is stamped with your name before you receive it, and stamping is unavailable right now. Please try again later.",
    /** The page a browser gets for that 503. */
    page: {
      title: "This document cannot be opened right now",
      lines: [
        "Each copy of this document is stamped with your name and e-mail address before you receive it, and the server cannot stamp documents at the moment.",
        `Please try again later. If it keeps happening, write to us at ${firm.email}.`,
      ],
      back: errorCopy.lpHome,
    },
  },
} as const;
