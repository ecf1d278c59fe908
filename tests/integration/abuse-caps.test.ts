import bcrypt from "bcrypt";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { accountMessages } from "~/content/accounts";
import { flushMailer } from "~/modules/mail/mail.server";
import { verifyLogin, requestPasswordReset, resetPassword } from "~/modules/lp-users/lp-users.server";
import { submitPitch } from "~/modules/pitches/pitches.server";
import { PitchInput } from "~/modules/pitches/schema";
import { allOutbox, clearTables } from "../helpers/db";
import { validPitch } from "../helpers/fixtures";
import { TEST_FIRM_INBOX } from "../helpers/test-env";
import { FIXTURE_PASSWORD, insertUser, uniqueEmail } from "../helpers/users";

/** Mails and hashes that strangers can trigger are capped, so the site cannot be used against others. */
beforeEach(() => {
  clearTables();
  vi.spyOn(console, "log").mockImplementation(() => {});
});
afterEach(async () => {
  await flushMailer();
  vi.restoreAllMocks();
});

describe("pitch acknowledgements", () => {
  it("go to one address at most 3 times a day, while every pitch is kept and reaches the firm", () => {
    for (let i = 0; i < 5; i++) submitPitch(PitchInput.parse(validPitch({ company: `Company ${i}` })));
    const mails = allOutbox();
    expect(mails.filter((m) => m.to === TEST_FIRM_INBOX)).toHaveLength(5);
    expect(mails.filter((m) => m.to === "ada@analytical.example")).toHaveLength(3);
  });
});

describe("password reset mails", () => {
  it("reach one account at most 3 times an hour, with the same (silent) answer after that", async () => {
    const user = await insertUser({ email: uniqueEmail("reset-cap") });
    for (let i = 0; i < 5; i++) expect(() => requestPasswordReset({ email: user.email })).not.toThrow();
    expect(allOutbox().filter((m) => m.to === user.email)).toHaveLength(3);
  });

  it("a made-up token is refused before any password is hashed", async () => {
    const hash = vi.spyOn(bcrypt, "hash");
    await expect(resetPassword({ token: "made-up-token-value", password: "a new password" })).rejects.toThrow(
      accountMessages.resetInvalid,
    );
    expect(hash).not.toHaveBeenCalled();
  });
});

describe("admin sign-in", () => {
  it.each(["pending", "rejected", "approved"] as const)(
    "tells a non-admin (%s)  with the right password only that it is for administrators",
    async (status) => {
      const user = await insertUser({ email: uniqueEmail(`admin-only-${status}`), status });
      await expect(verifyLogin({ email: user.email, password: FIXTURE_PASSWORD }, { adminOnly: true })).rejects.toThrow(
        accountMessages.adminOnly,
      );
    },
  );

  it("still answers a wrong password with the generic message", async () => {
    const user = await insertUser({ email: uniqueEmail("admin-only-wrong"), status: "pending" });
    await expect(verifyLogin({ email: user.email, password: "wrong password" }, { adminOnly: true })).rejects.toThrow(
      accountMessages.invalidCredentials,
    );
  });
});
