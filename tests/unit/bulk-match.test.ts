import { describe, expect, it } from "vitest";
import { matchableName, matchFileName, nameHasCode, nameHasEmail, type MatchCandidate } from "~/modules/bulk-upload/match";

/** Bulk upload: which investor a file is for, by the reference code or e-mail address in its name. */

const jane: MatchCandidate = { id: "jane", email: "jane.doe@example.com", referenceCode: "LRV-0042" };
const john: MatchCandidate = { id: "john", email: "doe@example.com", referenceCode: "LRV-004" };
const ana: MatchCandidate = { id: "ana", email: "ana+funds@example.org", referenceCode: null };
const candidates = [jane, john, ana];

const match = (fileName: string, list: readonly MatchCandidate[] = candidates) => matchFileName(fileName, list);

describe("the name that is matched", () => {
  it("drops a final .pdf (any case) and folds case", () => {
    expect(matchableName("Q3-2026-LRV-0042.PDF")).toBe("q3-2026-lrv-0042");
    expect(matchableName("jane@example.com")).toBe("jane@example.com");
    expect(matchableName("report.pdf.pdf")).toBe("report.pdf");
  });
});

describe("reference codes", () => {
  it.each([
    "Q3-2026-LRV-0042.pdf",
    "LRV-0042.pdf",
    "lrv-0042.pdf",
    "Statement LRV-0042 (final).pdf",
    "statement_Lrv-0042_q3.pdf",
    "[LRV-0042].pdf",
  ])("%s is LRV-0042's", (fileName) => {
    expect(match(fileName)).toEqual({ kind: "matched", userId: "jane" });
  });

  it("match whole tokens only: a shorter code is not found inside a longer one", () => {
    expect(nameHasCode(matchableName("Q3-LRV-0042.pdf"), "LRV-004")).toBe(false);
    expect(nameHasCode(matchableName("Q3-LRV-004.pdf"), "LRV-004")).toBe(true);
    expect(nameHasCode(matchableName("XLRV-0042.pdf"), "LRV-0042")).toBe(false);
    expect(nameHasCode(matchableName("LRV-00420.pdf"), "LRV-0042")).toBe(false);
    expect(nameHasCode(matchableName("LRV-0042x.pdf"), "LRV-0042")).toBe(false);
    expect(nameHasCode(matchableName("LRV-0042é.pdf"), "LRV-0042")).toBe(false);
    expect(nameHasCode(matchableName("ÉLRV-0042.pdf"), "LRV-0042")).toBe(false);
    expect(nameHasCode(matchableName("LRV0042.pdf"), "LRV-0042")).toBe(false);
    expect(match("Q3-LRV-004.pdf")).toEqual({ kind: "matched", userId: "john" });
  });

  it("a later whole occurrence counts when an earlier one is part of a longer token", () => {
    expect(nameHasCode(matchableName("LRV-00420 and LRV-0042.pdf"), "LRV-0042")).toBe(true);
  });
});

describe("e-mail addresses", () => {
  it.each([
    "statement_jane.doe@example.com.pdf",
    "JANE.DOE@EXAMPLE.COM.pdf",
    "jane.doe@example.com",
    "Q3 2026 - jane.doe@example.com.pdf",
    "Q3-2026-jane.doe@example.com.pdf",
    "(jane.doe@example.com) statement.pdf",
    "jane.doe@example.com_Q3.pdf",
    "jane.doe@example.com Q3.pdf",
  ])("%s is jane.doe@example.com's", (fileName) => {
    expect(match(fileName)).toEqual({ kind: "matched", userId: "jane" });
  });

  it("an address is not found inside a longer one", () => {
    // doe@example.com inside jane.doe@example.com (a '.' before it)
    expect(nameHasEmail(matchableName("jane.doe@example.com.pdf"), "doe@example.com")).toBe(false);
    // … after '+' or a letter
    expect(nameHasEmail(matchableName("x+doe@example.com.pdf"), "doe@example.com")).toBe(false);
    expect(nameHasEmail(matchableName("johndoe@example.com.pdf"), "doe@example.com")).toBe(false);
    // the domain goes on
    expect(nameHasEmail(matchableName("doe@example.com.au.pdf"), "doe@example.com")).toBe(false);
    expect(nameHasEmail(matchableName("doe@example.community.pdf"), "doe@example.com")).toBe(false);
    expect(nameHasEmail(matchableName("doe@example.com-2.pdf"), "doe@example.com")).toBe(false);
    expect(nameHasEmail(matchableName("doe@example.com.q3.pdf"), "doe@example.com")).toBe(false);
    // an address with '+' in it is found whole
    expect(match("Q3_ana+funds@example.org.pdf")).toEqual({ kind: "matched", userId: "ana" });
    expect(nameHasEmail(matchableName("funds@example.org.pdf"), "ana+funds@example.org")).toBe(false);
  });

  it("the brief's example is jane's only, although doe@example.com is an investor too", () => {
    expect(match("statement_jane.doe@example.com.pdf")).toEqual({ kind: "matched", userId: "jane" });
    expect(match("statement_doe@example.com.pdf")).toEqual({ kind: "matched", userId: "john" });
  });
});

describe("one investor, several, or none", () => {
  it("a code and an address of the same investor are one match", () => {
    expect(match("LRV-0042 jane.doe@example.com.pdf")).toEqual({ kind: "matched", userId: "jane" });
  });

  it("a code of one investor and an address of another is ambiguous", () => {
    expect(match("LRV-0042 doe@example.com.pdf")).toEqual({ kind: "ambiguous", userIds: ["jane", "john"] });
  });

  it("two codes are ambiguous", () => {
    expect(match("LRV-0042 and LRV-004.pdf")).toEqual({ kind: "ambiguous", userIds: ["jane", "john"] });
  });

  it("a name with neither matches nobody", () => {
    for (const name of ["Q3-2026.pdf", "LRV-0043.pdf", "LRV-00.pdf", "jane@example.com.pdf", "", ".pdf"]) {
      expect(match(name), name).toEqual({ kind: "none" });
    }
    expect(match("LRV-0042.pdf", [])).toEqual({ kind: "none" });
  });

  it("an investor without a code is matched by e-mail only", () => {
    expect(match("ana.pdf")).toEqual({ kind: "none" });
  });
});
