import { describe, expect, it } from "vitest";
import { cleanFileName } from "~/modules/storage/file-name";

const PATH_SEPARATOR = /[/\\]/;
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const codePoints = (s: string) => Array.from(s).length;
/** The extension a name already has (what its checked content would call for). */
const extensionOf = (name: string) => name.slice(name.lastIndexOf("."));

describe("cleanFileName", () => {
  it.each([
    "Q3 2026 Report.pdf",
    "Capital account (final) v2.xlsx",
    "LP update – December.pptx",
    "dot.separated.name.docx",
  ])("leaves an ordinary name alone: %s", (name) => {
    expect(cleanFileName(name, extensionOf(name))).toBe(name);
  });

  it.each([
    ["../../etc/passwd.pdf", "passwd.pdf"],
    ["/var/www/report.pdf", "report.pdf"],
    ["C:\\Users\\ada\\Documents\\report.docx", "report.docx"],
    ["..\\..\\Windows\\win.ini.pdf", "win.ini.pdf"],
    ["mixed/dirs\\and/names.xls", "names.xls"],
  ])("keeps only the last part of a path: %s → %s", (raw, clean) => {
    expect(cleanFileName(raw, extensionOf(clean))).toBe(clean);
  });

  it.each([
    ["NUL", "evil.exe\u0000.pdf", "evil.exe.pdf"],
    ["CR LF", "report\r\nX-Injected: 1.pdf", "reportX-Injected: 1.pdf"],
    ["tab and bell", "re\tport\u0007.pdf", "report.pdf"],
    ["DEL", "rep\u007fort.pdf", "report.pdf"],
    ["C1 controls (NEL, CSI)", "rep\u0085ort\u009b.pdf", "report.pdf"],
  ])("drops control characters (%s)", (_label, raw, clean) => {
    expect(cleanFileName(raw, ".pdf")).toBe(clean);
  });

  it.each([
    ["RLO", "\u202E"],
    ["LRO", "\u202D"],
    ["RLE", "\u202B"],
    ["LRE", "\u202A"],
    ["PDF (pop)", "\u202C"],
    ["RLI", "\u2067"],
    ["LRI", "\u2066"],
    ["FSI", "\u2068"],
    ["PDI", "\u2069"],
    ["RLM", "\u200F"],
    ["LRM", "\u200E"],
    ["ALM", "\u061C"],
  ])("drops the bidi control %s, so an extension cannot be disguised", (_label, mark) => {
    expect(cleanFileName(`invoice${mark}fdp.exe`, ".pdf")).toBe("invoicefdp.exe.pdf");
    expect(cleanFileName(`report${mark}.pdf`, ".pdf")).toBe("report.pdf");
  });

  it.each([
    ["Hebrew", "דוח רבעוני לשקיעים.pdf"],
    ["Arabic", "تقرير المستثمرين.docx"],
    ["Japanese", "四半期報告書.xlsx"],
    ["emoji", "Deck 🚀 final.pptx"],
  ])("keeps genuine %s letters", (_label, name) => {
    expect(cleanFileName(name, extensionOf(name))).toBe(name);
  });

  it("keeps Hebrew letters while removing the bidi marks around them", () => {
    expect(cleanFileName("\u202Bדוח\u200F שנתי\u202C.pdf", ".pdf")).toBe("דוח שנתי.pdf");
  });

  it("composes accents (NFC), so the same name is stored the same way", () => {
    expect(cleanFileName("Re\u0301sume\u0301.pdf", ".pdf")).toBe("R\u00e9sum\u00e9.pdf");
  });

  it("trims spaces and removes leading dots (no hidden files)", () => {
    expect(cleanFileName("   report.pdf  ", ".pdf")).toBe("report.pdf");
    expect(cleanFileName(".htaccess", ".pdf")).toBe("htaccess.pdf");
    expect(cleanFileName("...secret.docx", ".docx")).toBe("secret.docx");
  });

  it.each(["", "   ", "..", ".", "/", "dir/", "\u0000\r\n", "\u202E\u2066", "../.."])(
    "falls back to 'document' plus the type's extension for a name with nothing left (%j)",
    (raw) => {
      expect(cleanFileName(raw, ".xlsx")).toBe("document.xlsx");
    },
  );

  describe("length", () => {
    it("keeps a name of exactly 255 characters", () => {
      const name = `${"a".repeat(251)}.pdf`;
      expect(cleanFileName(name, ".pdf")).toBe(name);
    });

    it("cuts a 256-character name to 255, keeping the extension", () => {
      const clean = cleanFileName(`${"a".repeat(252)}.pdf`, ".pdf");
      expect(clean).toBe(`${"a".repeat(251)}.pdf`);
    });

    it("cuts a 300-character name to 255, keeping its start and the extension", () => {
      const clean = cleanFileName(`Board minutes ${"x".repeat(281)}.docx`, ".docx");
      expect(codePoints(clean)).toBe(255);
      expect(clean.startsWith("Board minutes xxx")).toBe(true);
      expect(clean.endsWith(".docx")).toBe(true);
    });

    it("counts characters, not UTF-16 units, and never splits an emoji", () => {
      const clean = cleanFileName(`${"📄".repeat(300)}.pdf`, ".pdf");
      expect(codePoints(clean)).toBe(255);
      expect(clean.endsWith(".pdf")).toBe(true);
      expect(clean).not.toMatch(LONE_SURROGATE);
      expect(cleanFileName(`${"📄".repeat(251)}.pdf`, ".pdf")).toBe(`${"📄".repeat(251)}.pdf`);
    });

    it("cuts a long Hebrew name by characters, keeping the letters and the extension", () => {
      const clean = cleanFileName(`${"דוח".repeat(100)}.pdf`, ".pdf");
      expect(codePoints(clean)).toBe(255);
      expect(clean).toMatch(/^[\u05d0-\u05ea]+\.pdf$/);
    });

    it("still stays within 255 when the 'extension' is too long to be one", () => {
      const clean = cleanFileName(`report.${"x".repeat(400)}`, ".pdf");
      expect(codePoints(clean)).toBeLessThanOrEqual(255);
      expect(clean.startsWith("report.")).toBe(true);
      expect(clean.endsWith(".pdf")).toBe(true);
    });
  });

  it.each([
    ["a PDF named as a program", "invoice.exe", ".pdf", "invoice.exe.pdf"],
    ["a name without an extension", "Quarterly report", ".docx", "Quarterly report.docx"],
    ["another document type's extension", "model.xlsx", ".pdf", "model.xlsx.pdf"],
    ["the right extension in capitals", "REPORT.PDF", ".pdf", "REPORT.PDF"],
  ])("gives %s the extension its content calls for", (_label, raw, extension, clean) => {
    expect(cleanFileName(raw, extension)).toBe(clean);
  });

  it("whatever it is given, the result is a safe, non-empty, well-formed name of at most 255 characters", () => {
    // A fixed-seed generator, so a failure is reproducible.
    let seed = 20260501;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const alphabet = [
      "a", "Z", "7", " ", ".", "-", "_", "/", "\\", "\u0000", "\r", "\n", "\t", "\u007f", "\u0085",
      "\u202E", "\u202A", "\u2066", "\u2069", "\u200F", "\u061C", "ש", "ל", "ع", "é", "e\u0301", "📄", "..", ".pdf",
    ];
    for (let i = 0; i < 2000; i++) {
      const length = Math.floor(random() * 320);
      let raw = "";
      for (let j = 0; j < length; j++) raw += alphabet[Math.floor(random() * alphabet.length)];
      const clean = cleanFileName(raw, ".pdf");
      const context = JSON.stringify(raw);
      expect(clean, context).not.toMatch(PATH_SEPARATOR);
      expect(clean, context).not.toMatch(UNSAFE);
      expect(clean, context).not.toMatch(LONE_SURROGATE);
      expect(clean.length, context).toBeGreaterThan(0);
      expect(clean.startsWith("."), context).toBe(false);
      expect(codePoints(clean), context).toBeLessThanOrEqual(255);
    }
  });
});
