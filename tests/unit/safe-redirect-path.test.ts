import { describe, expect, it } from "vitest";
import { safeRedirectPath } from "~/modules/toast/flash.server";

describe("safeRedirectPath", () => {
  it.each([
    ["/", "/"],
    ["/portfolio", "/portfolio"],
    ["/portfolio?sector=Space", "/portfolio?sector=Space"],
    ["/process#pitch", "/process#pitch"],
    ["/a/../team", "/team"],
  ])("keeps the local path %j as %j", (value, expected) => {
    expect(safeRedirectPath(value)).toBe(expected);
  });

  it.each([
    ["a protocol-relative URL", "//evil.example"],
    ["a protocol-relative URL with a path", "//evil.example/process"],
    ["an absolute https URL", "https://evil.example"],
    ["an absolute http URL", "http://evil.example/x"],
    ["a javascript: URL", "javascript:alert(1)"],
    ["a backslash trick", "/\\evil.example"],
    ["a backslash-only trick", "\\\\evil.example"],
    ["a tab trick", "/\t/evil.example"],
    ["a relative path", "portfolio"],
    ["an empty string", ""],
  ])("refuses %s (%j) and uses the fallback", (_label, value) => {
    expect(safeRedirectPath(value, "/fallback")).toBe("/fallback");
  });

  it.each([[undefined], [null], [42], [["/portfolio"]], [{ path: "/" }]])("refuses the non-string %j", (value) => {
    expect(safeRedirectPath(value, "/newsletter")).toBe("/newsletter");
  });

  it("defaults the fallback to /", () => {
    expect(safeRedirectPath("https://evil.example")).toBe("/");
  });

  // Dot segments are resolved by the URL parser, so "/.//host" normalises to "//host",
  // which a browser follows as a protocol-relative URL to another site.
  it.each(["/.//evil.example", "/..//evil.example", "/%2e//evil.example", "/a/..//evil.example"])(
    "never returns a protocol-relative path, even after normalising %j",
    (value) => {
      const result = safeRedirectPath(value, "/fallback");
      expect(result.startsWith("//")).toBe(false);
      expect(new URL(result, "https://www.lumenridge.example").host).toBe("www.lumenridge.example");
    },
  );
});
