import { describe, expect, it } from "vitest";
import { hashPassword, verifyPassword } from "~/modules/lp-users/password.server";
import { timingDummy } from "~/modules/lp-users/lp-users.server";
import { atProductionPasswordCost } from "../helpers/test-env";

const costOf = (hash: string) => Number(/^\$2[ab]\$(\d\d)\$/.exec(hash)?.[1]);

describe("the password cost (decision 036)", () => {
  it("hashes at TEST_BCRYPT_COST where it is set (these tests: 4), at 12 where it is not", async () => {
    expect(costOf(await hashPassword("a test password"))).toBe(4);
    const production = await atProductionPasswordCost(() => hashPassword("a test password"));
    expect(costOf(production)).toBe(12);
    // A compare takes the cost written in the hash, whatever the server's setting.
    expect(await verifyPassword("a test password", production)).toBe(true);
  });

  it("the dummy that unknown e-mails are compared with has the cost a real account's hash has", async () => {
    expect(costOf(await timingDummy())).toBe(4);
    expect(costOf(await atProductionPasswordCost(() => timingDummy()))).toBe(12);
  });
});
