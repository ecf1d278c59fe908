import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from "vitest";
import { getDb } from "../../app/modules/db/connection.server";
import { emailOutbox } from "../../db/schema";
import { getEnv, resetEnvForTests } from "~/modules/config/env.server";
import { fillSecrets, openSecrets, sealSecrets } from "~/modules/mail/mail-secrets.server";
import { deliverDueMail, flushMailer, queueMail, setMailTransportForTests } from "~/modules/mail/mail.server";
import { allOutbox } from "../helpers/db";
import { TEST_SESSION_SECRET } from "../helpers/test-env";

/**
 * Sealed mail secrets (app/modules/mail/mail-secrets.server.ts): the outbox
 * keeps `{{link}}` and an AES-256-GCM sealed value, opened only at send time
 * and erased after. The environment is read through getEnv(), which caches:
 * tests that change NODE_ENV or SESSION_SECRET call resetEnvForTests() and
 * put everything back afterwards (tests/setup.ts sets the test environment).
 */

const LINK = "http://localhost:3000/fund-ii/documents?token=Zm9yLXRlc3RzLW9ubHktbm90LWEtcmVhbC10b2tlbi0";

/** Run with some environment variables changed (getEnv re-parsed), then restore them. */
async function withEnv<T>(changes: Record<string, string>, run: () => Promise<T> | T): Promise<T> {
  const saved = Object.fromEntries(Object.keys(changes).map((k) => [k, process.env[k]]));
  Object.assign(process.env, changes);
  resetEnvForTests();
  try {
    return await run();
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    resetEnvForTests();
  }
}

function flipByte(sealed: string, index: number): string {
  const raw = Buffer.from(sealed, "base64url");
  raw[index] = (raw[index] ?? 0) ^ 0x01;
  return raw.toString("base64url");
}

beforeEach(() => {
  getDb().delete(emailOutbox).run();
  setMailTransportForTests(null);
});
afterEach(async () => {
  await flushMailer();
  setMailTransportForTests(null);
  vi.restoreAllMocks();
});

describe("sealSecrets / openSecrets", () => {
  it("round-trips the secrets", () => {
    const secrets = { link: LINK, other: 'ünïcødé ✓ "quoted" {{x}}' };
    expect(openSecrets(sealSecrets(secrets))).toEqual(secrets);
    expect(openSecrets(sealSecrets({}))).toEqual({});
  });

  it("never shows the secret in the sealed text, and seals the same secret differently each time (random IV)", () => {
    const a = sealSecrets({ link: LINK });
    const b = sealSecrets({ link: LINK });
    expect(a).not.toBe(b);
    for (const sealed of [a, b]) {
      expect(sealed).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(sealed).not.toContain("token");
      expect(Buffer.from(sealed, "base64url").toString("latin1")).not.toContain(LINK);
      expect(Buffer.from(sealed, "base64url").toString("latin1")).not.toContain("fund-ii");
    }
  });

  it.each([
    ["the IV", 0],
    ["the authentication tag", 12],
    ["the first byte of the ciphertext", 28],
  ])("refuses a value with one bit of %s changed", (_part, index) => {
    const sealed = sealSecrets({ link: LINK });
    expect(() => openSecrets(flipByte(sealed, index))).toThrow();
  });

  it("refuses a value with its last ciphertext byte changed, a truncated one and garbage", () => {
    const sealed = sealSecrets({ link: LINK });
    const last = Buffer.from(sealed, "base64url").length - 1;
    expect(() => openSecrets(flipByte(sealed, last))).toThrow();
    expect(() => openSecrets(sealed.slice(0, -4))).toThrow();
    expect(() => openSecrets(sealed.slice(0, 20))).toThrow();
    expect(() => openSecrets("")).toThrow();
    expect(() => openSecrets("not sealed at all")).toThrow();
  });

  it("a value sealed under another SESSION_SECRET cannot be opened", async () => {
    const foreign = await withEnv({ SESSION_SECRET: "another-session-secret-0123456789-abcdefghij" }, () =>
      sealSecrets({ link: LINK }),
    );
    expect(getEnv().SESSION_SECRET).toBe(TEST_SESSION_SECRET);
    expect(() => openSecrets(foreign)).toThrow();
  });
});

describe("fillSecrets", () => {
  it("replaces every {{name}} with its secret", () => {
    expect(fillSecrets("Open {{link}} now. Again: {{link}}", { link: LINK })).toBe(`Open ${LINK} now. Again: ${LINK}`);
    expect(fillSecrets("{{a}}{{b_2}}", { a: "1", b_2: "2" })).toBe("12");
  });

  it("leaves unknown placeholders and other braces as they are", () => {
    expect(fillSecrets("{{link}} and {{unknown}}", { link: "L" })).toBe("L and {{unknown}}");
    expect(fillSecrets("{{ link }} {link} {{link-x}}", { link: "L" })).toBe("{{ link }} {link} {{link-x}}");
    expect(fillSecrets("no placeholders", { link: "L" })).toBe("no placeholders");
  });

  it("does not expand placeholders inside a secret's value (one pass)", () => {
    expect(fillSecrets("{{a}}", { a: "{{b}}", b: "secret-b" })).toBe("{{b}}");
  });

  // Inherited Object.prototype members are not secrets ("{{constructor}}" stays as typed).
  it("does not read inherited properties as secrets", () => {
    expect(fillSecrets("{{constructor}} {{toString}}", {})).toBe("{{constructor}} {{toString}}");
  });
});

describe("deliverDueMail without SMTP", () => {
  function queueLinkMail() {
    queueMail(getDb(), {
      to: "grace@hopper.example",
      subject: "Your link",
      text: "Here it is:\n{{link}}\nBye",
      secrets: { link: LINK },
    });
    const [row] = allOutbox();
    expect(row?.text).toContain("{{link}}");
    expect(row?.secretsEnc).toEqual(expect.any(String));
    expect(row?.secretsEnc).not.toContain(LINK);
    return row!;
  }

  it("in production (NODE_ENV=production) logs the mail without the secret, and erases the sealed value", async () => {
    const row = queueLinkMail();
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    const delivered = await withEnv({ NODE_ENV: "production" }, async () => {
      expect(getEnv().NODE_ENV).toBe("production");
      return deliverDueMail(getDb());
    });
    expect(getEnv().NODE_ENV).toBe("test");
    expect(delivered).toBe(1);

    const output = log.mock.calls.map((args) => args.join(" ")).join("\n");
    expect(output).toContain("grace@hopper.example");
    expect(output).toContain("{{link}}");
    expect(output).not.toContain(LINK);
    expect(output).not.toContain("token=");

    const after = getDb().select().from(emailOutbox).where(eq(emailOutbox.id, row.id)).get();
    expect(after).toMatchObject({ status: "logged", secretsEnc: null, text: row.text });
  });

  it("in development and tests the log is the inbox: the link is shown so a newcomer can follow it; the sealed value is still erased", async () => {
    const row = queueLinkMail();
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    expect(await deliverDueMail(getDb())).toBe(1);
    const output = log.mock.calls.map((args) => args.join(" ")).join("\n");
    expect(output).toContain(LINK);
    expect(getDb().select().from(emailOutbox).where(eq(emailOutbox.id, row.id)).get()).toMatchObject({
      status: "logged",
      secretsEnc: null,
    });
  });

  it("a mail whose secrets were sealed under another SESSION_SECRET is dropped with an error that names no secret", async () => {
    const foreign = await withEnv({ SESSION_SECRET: "another-session-secret-0123456789-abcdefghij" }, () =>
      sealSecrets({ link: LINK }),
    );
    getDb()
      .insert(emailOutbox)
      .values({
        to: "grace@hopper.example",
        subject: "Your link",
        text: "{{link}}",
        secretsEnc: foreign,
        nextAttemptAt: new Date(),
      })
      .run();
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    // Structured logs (request, error and security lines) are on for this test: they are part of what is scanned.
    vi.stubEnv("LOG_LEVEL", "info");
    onTestFinished(() => {
      vi.unstubAllEnvs();
    });
    expect(await deliverDueMail(getDb())).toBe(0);
    const output = [...log.mock.calls, ...error.mock.calls].map((args) => args.join(" ")).join("\n");
    expect(output).toContain("mail secrets unreadable");
    expect(output).not.toContain(LINK);
    const [row] = allOutbox();
    expect(row).toMatchObject({ status: "logged", secretsEnc: null });
    expect(row?.lastError).toMatch(/secrets unreadable/);
    // Never retried.
    expect(await deliverDueMail(getDb(), new Date(Date.now() + 24 * 60 * 60 * 1000))).toBe(0);
  });
});
