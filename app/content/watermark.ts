/**
 * Watermarked PDFs (issue 15 §3): the stamp drawn on every page of an
 * investor's copy, and what is said when a PDF cannot be stamped or the
 * stamping queue is full.
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
} as const;
