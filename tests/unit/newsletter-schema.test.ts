import { describe, expect, it } from "vitest";
import { NewsletterInput } from "~/modules/newsletter/schema";

/** The messages a visitor sees under the e-mail input, per field. */
function emailErrors(input: unknown): string[] {
  const result = NewsletterInput.safeParse(input);
  if (result.success) return [];
  return result.error.issues.filter((i) => i.path[0] === "email").map((i) => i.message);
}

describe("newsletter schema (SPEC §5: 'Invalid email address')", () => {
  it.each([
    ["missing", {}],
    ["empty", { email: "" }],
    ["only spaces", { email: "   " }],
    ["a number", { email: 42 }],
    ["null", { email: null }],
    ["an array", { email: ["a@b.example"] }],
    ["without @", { email: "not-an-email" }],
    ["without domain", { email: "someone@" }],
    ["without local part", { email: "@lumenridge.example" }],
    ["with a space inside", { email: "some one@lumenridge.example" }],
  ])("refuses an email that is %s with 'Invalid email address'", (_label, input) => {
    expect(emailErrors(input)).toEqual(["Invalid email address"]);
  });

  it("refuses an address longer than 254 characters", () => {
    const tooLong = `${"a".repeat(64)}@${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(58)}.example`;
    expect(tooLong.length).toBeGreaterThan(254);
    expect(emailErrors({ email: tooLong })).toContain("Invalid email address");
    expect(NewsletterInput.safeParse({ email: tooLong }).success).toBe(false);
  });

  it("accepts an address of exactly 254 characters", () => {
    const local = "a".repeat(64);
    const domainBudget = 254 - local.length - 1 - ".example".length;
    const labels: string[] = [];
    let left = domainBudget;
    while (left > 0) {
      const size = Math.min(63, left - (labels.length ? 1 : 0));
      labels.push("b".repeat(size));
      left -= size + (labels.length > 1 ? 1 : 0);
    }
    const email = `${local}@${labels.join(".")}.example`;
    expect(email.length).toBe(254);
    expect(NewsletterInput.parse({ email }).email).toBe(email);
  });

  it("trims and lower-cases the address so duplicates are caught", () => {
    expect(NewsletterInput.parse({ email: "  Ada.Lovelace@Example.COM \n" })).toEqual({
      email: "ada.lovelace@example.com",
    });
  });
});
