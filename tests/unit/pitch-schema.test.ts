import { describe, expect, it } from "vitest";
import { PITCH_STAGES, PitchInput } from "~/modules/pitches/schema";

const valid = {
  name: "Ada Lovelace",
  email: "ada@analytical.example",
  company: "Analytical Engines",
  stage: "Seed",
  deckUrl: "https://analytical.example/deck.pdf",
  message: "We build general-purpose computing machines.",
};

/** Field → messages, as the form shows them. */
function fieldErrors(input: Record<string, unknown>): Record<string, string[]> {
  const result = PitchInput.safeParse(input);
  if (result.success) return {};
  const out: Record<string, string[]> = {};
  for (const issue of result.error.issues) (out[String(issue.path[0])] ??= []).push(issue.message);
  return out;
}

function without(key: keyof typeof valid) {
  const copy: Record<string, unknown> = { ...valid };
  delete copy[key];
  return copy;
}

describe("pitch schema", () => {
  it("accepts a complete pitch and trims its text fields", () => {
    const parsed = PitchInput.parse({ ...valid, name: "  Ada Lovelace ", email: " ADA@Analytical.example " });
    expect(parsed).toEqual({ ...valid, email: "ada@analytical.example" });
  });

  it("offers exactly the stages of SPEC §3", () => {
    expect(PITCH_STAGES).toEqual(["Pre-Seed", "Seed", "Series A", "Series B", "Other"]);
  });

  it.each(["Pre-Seed", "Seed", "Series A", "Series B", "Other"])("accepts stage %s", (stage) => {
    expect(PitchInput.parse({ ...valid, stage }).stage).toBe(stage);
  });

  it.each([["Series C"], ["seed"], [""], [3]])("refuses stage %j with 'Please choose a stage'", (stage) => {
    expect(fieldErrors({ ...valid, stage })).toEqual({ stage: ["Please choose a stage"] });
  });

  it("refuses a missing stage with 'Please choose a stage'", () => {
    expect(fieldErrors(without("stage"))).toEqual({ stage: ["Please choose a stage"] });
  });

  it.each([
    ["name", "Name is required"],
    ["company", "Company is required"],
    ["message", "Message is required"],
    ["email", "Invalid email address"],
  ] as const)("a missing %s says %j", (key, message) => {
    expect(fieldErrors(without(key))).toEqual({ [key]: [message] });
  });

  it.each([
    ["name", "Name is required"],
    ["company", "Company is required"],
    ["message", "Message is required"],
    ["email", "Invalid email address"],
  ] as const)("an empty or blank %s says %j", (key, message) => {
    expect(fieldErrors({ ...valid, [key]: "" })).toEqual({ [key]: [message] });
    expect(fieldErrors({ ...valid, [key]: "   " })).toEqual({ [key]: [message] });
  });

  it("refuses a malformed email with 'Invalid email address'", () => {
    expect(fieldErrors({ ...valid, email: "ada-at-example" })).toEqual({ email: ["Invalid email address"] });
  });

  it("refuses non-string values with the field's message", () => {
    expect(fieldErrors({ ...valid, name: 7, company: null, message: ["x"] })).toEqual({
      name: ["Name is required"],
      company: ["Company is required"],
      message: ["Message is required"],
    });
  });

  describe("deckUrl", () => {
    it("is optional", () => {
      expect(PitchInput.parse(without("deckUrl")).deckUrl).toBeUndefined();
    });

    it("accepts an empty string (stored as no deck)", () => {
      expect(PitchInput.parse({ ...valid, deckUrl: "" }).deckUrl).toBeUndefined();
    });

    it.each(["http://deck.example/x", "https://deck.example/pitch?v=2#p3"])("accepts %s", (deckUrl) => {
      expect(PitchInput.parse({ ...valid, deckUrl }).deckUrl).toBe(deckUrl);
    });

    it.each([
      "not a url",
      "deck.example/pitch.pdf",
      "javascript:alert(1)",
      "JavaScript:alert(document.cookie)",
      "data:text/html,<script>alert(1)</script>",
      "ftp://deck.example/pitch.pdf",
      "file:///etc/passwd",
    ])("refuses %j with 'Invalid URL'", (deckUrl) => {
      expect(fieldErrors({ ...valid, deckUrl })).toEqual({ deckUrl: ["Invalid URL"] });
    });

    it("refuses a non-string deckUrl with 'Invalid URL'", () => {
      expect(fieldErrors({ ...valid, deckUrl: 5 })).toEqual({ deckUrl: ["Invalid URL"] });
    });

    it("refuses a URL longer than 2000 characters with 'Invalid URL'", () => {
      const deckUrl = `https://deck.example/${"a".repeat(2000)}`;
      expect(fieldErrors({ ...valid, deckUrl })).toEqual({ deckUrl: ["Invalid URL"] });
    });
  });

  describe("maximum lengths", () => {
    it.each([
      ["name", 200],
      ["company", 200],
      ["message", 5000],
    ] as const)("%s accepts %i characters and refuses one more", (key, max) => {
      expect(PitchInput.safeParse({ ...valid, [key]: "x".repeat(max) }).success).toBe(true);
      expect(fieldErrors({ ...valid, [key]: "x".repeat(max + 1) })).toEqual({
        [key]: [`Must be at most ${max} characters`],
      });
    });
  });

  it("never takes id or createdAt from the request", () => {
    const parsed = PitchInput.parse({ ...valid, id: "attacker-chosen", createdAt: "1999-01-01" });
    expect(parsed).not.toHaveProperty("id");
    expect(parsed).not.toHaveProperty("createdAt");
  });
});
