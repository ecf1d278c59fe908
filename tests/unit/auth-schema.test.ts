import { describe, expect, it } from "vitest";
import { LoginInput, RegisterInput, ResetPasswordInput, StatusInput } from "~/modules/lp-users/schema";

const TOO_LONG = "Password must be at most 72 bytes (about 72 letters, fewer with accents or emoji)";

const validRegistration = {
  email: "ada@analytical.example",
  password: "correct horse",
  name: "Ada Lovelace",
  company: "Analytical Engines",
};

/** The messages per field of a failed parse (or fails the test when it parsed). */
function messages(result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) {
  expect(result.success).toBe(false);
  const out: Record<string, string[]> = {};
  for (const issue of result.error?.issues ?? []) (out[String(issue.path[0])] ??= []).push(issue.message);
  return out;
}

describe("RegisterInput", () => {
  it("accepts a complete registration, trims and lower-cases the e-mail and trims name and company", () => {
    const parsed = RegisterInput.parse({
      email: "  Ada@Analytical.EXAMPLE ",
      password: "correct horse",
      name: "  Ada Lovelace ",
      company: "  Analytical Engines  ",
    });
    expect(parsed).toEqual({
      email: "ada@analytical.example",
      password: "correct horse",
      name: "Ada Lovelace",
      company: "Analytical Engines",
    });
  });

  it.each([
    ["missing", {}],
    ["empty", { company: "" }],
    ["blank", { company: "   " }],
  ])("treats a %s company as not given", (_label, company) => {
    const { company: _drop, ...rest } = validRegistration;
    const parsed = RegisterInput.parse({ ...rest, ...company });
    expect(parsed.company).toBeUndefined();
  });

  it.each([
    ["malformed", "not-an-email"],
    ["empty", ""],
    ["a number", 42],
    ["missing", undefined],
    ["without a domain", "ada@"],
  ])("says 'Invalid email address' when the e-mail is %s", (_label, email) => {
    expect(messages(RegisterInput.safeParse({ ...validRegistration, email }))).toEqual({
      email: ["Invalid email address"],
    });
  });

  it.each([
    ["7 characters", "1234567"],
    ["empty", ""],
    ["missing", undefined],
    ["not a string", 12345678],
  ])("says 'Password must be at least 8 characters' when the password is %s", (_label, password) => {
    expect(messages(RegisterInput.safeParse({ ...validRegistration, password }))).toEqual({
      password: ["Password must be at least 8 characters"],
    });
  });

  it("accepts exactly 8 characters and exactly 72 bytes", () => {
    expect(RegisterInput.safeParse({ ...validRegistration, password: "12345678" }).success).toBe(true);
    expect(RegisterInput.safeParse({ ...validRegistration, password: "a".repeat(72) }).success).toBe(true);
    // 18 four-byte emoji are 72 bytes.
    expect(RegisterInput.safeParse({ ...validRegistration, password: "🔒".repeat(18) }).success).toBe(true);
  });

  it.each([
    ["73 ASCII characters", "a".repeat(73)],
    ["25 emoji (25 characters, 100 bytes)", "🔒".repeat(25)],
    ["37 accented letters (74 bytes)", "é".repeat(37)],
  ])("refuses a password of %s with the 72-bytes message (never truncated)", (_label, password) => {
    expect(messages(RegisterInput.safeParse({ ...validRegistration, password }))).toEqual({ password: [TOO_LONG] });
  });

  it.each([
    ["empty", ""],
    ["blank", "   "],
    ["missing", undefined],
  ])("says 'Name is required' when the name is %s", (_label, name) => {
    expect(messages(RegisterInput.safeParse({ ...validRegistration, name }))).toEqual({ name: ["Name is required"] });
  });

  it("reports every invalid field at once", () => {
    expect(messages(RegisterInput.safeParse({ email: "x", password: "short", name: "" }))).toEqual({
      email: ["Invalid email address"],
      password: ["Password must be at least 8 characters"],
      name: ["Name is required"],
    });
  });

  it("drops isAdmin, status, id, passwordHash and createdAt from the input", () => {
    const parsed = RegisterInput.parse({
      ...validRegistration,
      isAdmin: true,
      status: "approved",
      id: "00000000-0000-0000-0000-000000000000",
      passwordHash: "$2b$04$forged",
      createdAt: "2000-01-01T00:00:00.000Z",
    });
    expect(Object.keys(parsed).sort()).toEqual(["company", "email", "name", "password"]);
  });
});

describe("LoginInput", () => {
  it("accepts an e-mail and any non-empty password, normalising the e-mail", () => {
    expect(LoginInput.parse({ email: " LP@Fund.Example ", password: "x" })).toEqual({
      email: "lp@fund.example",
      password: "x",
    });
  });

  it.each([["not-an-email"], [""], [undefined], [7]])("says 'Invalid email address' for the e-mail %j", (email) => {
    expect(messages(LoginInput.safeParse({ email, password: "whatever1" }))).toEqual({
      email: ["Invalid email address"],
    });
  });

  it.each([[""], [undefined], [null], [12345678]])("says 'Password is required' for the password %j", (password) => {
    expect(messages(LoginInput.safeParse({ email: "lp@fund.example", password }))).toEqual({
      password: ["Password is required"],
    });
  });

  it("reports both fields of an empty form", () => {
    expect(messages(LoginInput.safeParse({}))).toEqual({
      email: ["Invalid email address"],
      password: ["Password is required"],
    });
  });
});

describe("StatusInput", () => {
  it.each(["approved", "rejected"] as const)("accepts %s", (status) => {
    expect(StatusInput.parse({ status })).toEqual({ status });
  });

  it.each([["pending"], ["APPROVED"], ["approve"], [""], [undefined], [1], [null], [true]])(
    "refuses the status %j",
    (status) => {
      expect(messages(StatusInput.safeParse({ status }))).toEqual({
        status: ["Status must be approved or rejected"],
      });
    },
  );
});

describe("ResetPasswordInput", () => {
  const token = "a".repeat(43);

  it("applies the registration password rules to the new password", () => {
    expect(ResetPasswordInput.safeParse({ token, password: "12345678" }).success).toBe(true);
    expect(messages(ResetPasswordInput.safeParse({ token, password: "1234567" }))).toEqual({
      password: ["Password must be at least 8 characters"],
    });
    expect(messages(ResetPasswordInput.safeParse({ token, password: "🔒".repeat(25) }))).toEqual({
      password: [TOO_LONG],
    });
  });

  it("refuses a missing token", () => {
    expect(messages(ResetPasswordInput.safeParse({ password: "12345678" }))).toHaveProperty("token");
  });
});
