import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { EnvError, getEnv, parseEnv, resetEnvForTests } from "~/modules/config/env.server";

const SECRET = "s".repeat(32);

function problemsOf(source: Record<string, string | undefined>): string[] {
  try {
    parseEnv(source);
  } catch (error) {
    expect(error).toBeInstanceOf(EnvError);
    return (error as EnvError).problems;
  }
  throw new Error("expected parseEnv to throw");
}

describe("parseEnv", () => {
  it("applies the documented defaults", () => {
    const env = parseEnv({});
    expect(env).toMatchObject({
      NODE_ENV: "development",
      PORT: 3000,
      HOST: "127.0.0.1",
      APP_URL: "http://localhost:3000",
      DATABASE_PATH: path.resolve("storage/data.sqlite"),
      STORAGE_DIR: path.resolve("storage/uploads"),
      MAIL_FROM: "Lumen Ridge Ventures <no-reply@lumenridge.example>",
      FIRM_INBOX: "hello@lumenridge.example",
      TRUST_PROXY: [],
      LOG_LEVEL: "info",
      SECURE_COOKIES: false,
    });
    expect(env.SMTP_URL).toBeUndefined();
    // Development gets a usable (>= 32 characters) secret without configuration.
    expect(env.SESSION_SECRET.length).toBeGreaterThanOrEqual(32);
  });

  it("treats empty strings as unset", () => {
    const env = parseEnv({ PORT: "", APP_URL: "", SESSION_SECRET: "", SMTP_URL: "" });
    expect(env.PORT).toBe(3000);
    expect(env.APP_URL).toBe("http://localhost:3000");
    expect(env.SMTP_URL).toBeUndefined();
  });

  it("parses given values: port number, trailing slash of APP_URL, https → secure cookies, TRUST_PROXY", () => {
    const env = parseEnv({
      NODE_ENV: "production",
      PORT: "8080",
      APP_URL: "https://www.lumenridge.example/",
      SESSION_SECRET: SECRET,
      TRUST_PROXY: "1",
      DATABASE_PATH: "/var/lib/lumen/data.sqlite",
    });
    expect(env.PORT).toBe(8080);
    expect(env.APP_URL).toBe("https://www.lumenridge.example");
    expect(env.SECURE_COOKIES).toBe(true);
    // 1 trusts the loopback addresses only (a proxy on the same machine).
    expect(env.TRUST_PROXY).toEqual(["127.0.0.0/8", "::1/128"]);
    expect(env.SESSION_SECRET).toBe(SECRET);
    expect(env.DATABASE_PATH).toBe("/var/lib/lumen/data.sqlite");
  });

  it("refuses production without SESSION_SECRET, naming the variable", () => {
    const problems = problemsOf({ NODE_ENV: "production" });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^SESSION_SECRET: /);
    expect(problems[0]).toContain("SESSION_SECRET is required in production");
    expect(() => parseEnv({ NODE_ENV: "production" })).toThrow(/SESSION_SECRET/);
  });

  it.each(["development", "production", "test"])("refuses a short SESSION_SECRET in %s", (NODE_ENV) => {
    const problems = problemsOf({ NODE_ENV, SESSION_SECRET: "s".repeat(31) });
    expect(problems).toEqual(["SESSION_SECRET: SESSION_SECRET must be at least 32 characters long"]);
  });

  it.each(["not a url", "www.lumenridge.example", "/relative"])("refuses APP_URL %j, naming the variable", (APP_URL) => {
    const problems = problemsOf({ APP_URL });
    expect(problems.some((p) => p.startsWith("APP_URL: ") && p.includes("absolute URL"))).toBe(true);
  });

  it.each([
    ["PORT", "0"],
    ["PORT", "70000"],
    ["PORT", "abc"],
    ["NODE_ENV", "staging"],
    ["SMTP_URL", "http://mail.example"],
    ["FIRM_INBOX", "not-an-address"],
    ["LOG_LEVEL", "debug"],
    ["TRUST_PROXY", "yes"],
  ])("refuses %s=%j, naming the variable", (key, value) => {
    const problems = problemsOf({ SESSION_SECRET: SECRET, [key]: value });
    expect(problems.some((p) => p.startsWith(`${key}: `))).toBe(true);
  });

  it.each([
    ["0", []],
    ["false", []],
    ["true", ["127.0.0.0/8", "::1/128"]],
    ["10.0.0.5", ["10.0.0.5"]],
    ["10.0.0.0/8, 192.168.1.2 ,2001:db8::/32", ["10.0.0.0/8", "192.168.1.2", "2001:db8::/32"]],
  ])("TRUST_PROXY=%j: the trusted proxy addresses are %j", (value, list) => {
    expect(parseEnv({ TRUST_PROXY: value }).TRUST_PROXY).toEqual(list);
  });

  it.each(["10.0.0.0/33", "10.0.0.1/8/9", "proxy.example", "10.0.0.1,,yes", "::1/129"])("refuses TRUST_PROXY=%j, naming the variable", (value) => {
    const problems = problemsOf({ SESSION_SECRET: SECRET, TRUST_PROXY: value });
    expect(problems.some((p) => p.startsWith("TRUST_PROXY: ") && p.includes("address"))).toBe(true);
  });

  it("lists every bad variable at once (production with a bad APP_URL and no SESSION_SECRET)", () => {
    const problems = problemsOf({ NODE_ENV: "production", APP_URL: "not a url" });
    expect(problems.some((p) => p.startsWith("APP_URL: "))).toBe(true);
    expect(problems.some((p) => p.startsWith("SESSION_SECRET: "))).toBe(true);
  });
});

describe("TEST_BCRYPT_COST (decision 036)", () => {
  it("is unset by default: new password hashes are cost 12", () => {
    expect(parseEnv({}).TEST_BCRYPT_COST).toBeUndefined();
  });

  it.each(["http://localhost:3210", "http://127.0.0.1:8080", "http://[::1]:3000"])("is honoured on a server whose APP_URL is on this machine (%s)", (url) => {
    expect(parseEnv({ NODE_ENV: "production", SESSION_SECRET: SECRET, APP_URL: url, TEST_BCRYPT_COST: "4" }).TEST_BCRYPT_COST).toBe(4);
  });

  it.each(["https://lumenridge.example", "http://10.0.0.5:3000", "http://localhost.example.com"])("stops a server others can reach (APP_URL %s), naming the variable", (url) => {
    const problems = problemsOf({ NODE_ENV: "production", SESSION_SECRET: SECRET, APP_URL: url, TEST_BCRYPT_COST: "4" });
    expect(problems).toEqual([expect.stringMatching(/^TEST_BCRYPT_COST: .*test servers only/)]);
  });

  it.each(["3", "12", "4.5", "cheap"])("refuses TEST_BCRYPT_COST=%j (4 to 11 only)", (value) => {
    expect(problemsOf({ TEST_BCRYPT_COST: value })).toEqual(["TEST_BCRYPT_COST: TEST_BCRYPT_COST must be a whole number from 4 to 11"]);
  });
});

describe("getEnv", () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
    resetEnvForTests();
  });

  it("parses process.env once and re-reads it after resetEnvForTests", () => {
    const first = getEnv();
    expect(first.FIRM_INBOX).toBe("inbox@lumenridge.example");
    process.env.FIRM_INBOX = "other@lumenridge.example";
    expect(getEnv()).toBe(first);
    resetEnvForTests();
    expect(getEnv().FIRM_INBOX).toBe("other@lumenridge.example");
  });
});
