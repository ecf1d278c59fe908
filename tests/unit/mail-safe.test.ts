import { describe, expect, it } from "vitest";
import { MAIL_SAFE_NAME_MAX, mailSafeName, oneLine } from "~/content/mail-safe";

/** Issue 21, finding L2: a stranger's name or company as a mail to an unproved address carries it. */
describe("mailSafeName", () => {
  it.each([
    ["Grace Hopper", "Grace Hopper"],
    ["Anne-Marie O'Neil", "Anne-Marie O'Neil"],
    ["J. R. R. Tolkien", "J. R. R. Tolkien"],
    ["J.R.R. Tolkien, Ph.D.", "J.R.R. Tolkien, Ph.D."],
    ["Zoë Ångström", "Zoë Ångström"],
    ["李小龍", "李小龍"],
    ["{{constructor}}", "{{constructor}}"],
    ["King's College (London)", "King's College (London)"],
    ["Version 2.0 GmbH", "Version 2.0 GmbH"],
    ["  Grace \t  Hopper  ", "Grace Hopper"],
  ])("keeps an ordinary name: %j → %j", (input, expected) => {
    expect(mailSafeName(input)).toBe(expected);
  });

  it.each([
    ["Support Team\nYour account is locked: https://evil.example/x", "Support Team Your account is locked:"],
    ["Ada\r\nClick www.evil.example now", "Ada Click now"],
    ["Mallory evil.example/login", "Mallory"],
    ["Eve <mailto:eve@evil.example>", "Eve"],
    ["write to eve@evil.example", "write to"],
    ["Bob\u2028Visit evil\uFF0Eexample/reset", "Bob Visit"],
    ["Bob evil\u3002example", "Bob"],
    ["Trent ev\u200Bil.example/x", "Trent"],
    ["Oscar\tHXXP://EVIL.EXAMPLE/X?y=1", "Oscar"],
    ["Peggy 203.0.113.9/login", "Peggy"],
    ["Victor //evil.example", "Victor"],
    ["Walter javascript:alert(1)", "Walter"],
    ["Carol evil.xn--p1ai", "Carol"],
    ["Dan (evil.example)", "Dan"],
    ["Erin \u202Eelpmaxe.live", "Erin"],
    ["Frank\u0000\u0007\u0085Smith", "Frank Smith"],
    ["https://evil.example", ""],
  ])("drops what could become a link and every line break: %j → %j", (input, expected) => {
    expect(mailSafeName(input)).toBe(expected);
  });

  it(`cuts to ${MAIL_SAFE_NAME_MAX} characters, at a word where it can`, () => {
    const long = "Alexandra ".repeat(20).trim();
    const safe = mailSafeName(long);
    expect(safe.length).toBeLessThanOrEqual(MAIL_SAFE_NAME_MAX);
    expect(safe.endsWith("Alexandra")).toBe(true);
    const word = "x".repeat(200);
    expect(mailSafeName(word)).toBe("x".repeat(MAIL_SAFE_NAME_MAX));
    // Characters, not UTF-16 units: an emoji is never cut in half.
    const emoji = "🦊".repeat(100);
    expect(Array.from(mailSafeName(emoji))).toHaveLength(MAIL_SAFE_NAME_MAX);
  });
});

describe("oneLine", () => {
  it("keeps the text (links too) but on one line", () => {
    expect(oneLine("Support Team\r\nYour account: https://evil.example/x\u2028\u2029end")).toBe(
      "Support Team Your account: https://evil.example/x end",
    );
  });
});
