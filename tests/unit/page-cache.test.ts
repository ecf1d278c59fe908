import { describe, expect, it } from "vitest";
import { themeFromCookieHeader } from "~/modules/theme/theme";
import { PageCache } from "../../server/page-cache";
import { incoming } from "../helpers/incoming";

const cache = new PageCache();
const keyFor = (url: string, { method = "GET", cookie }: { method?: string; cookie?: string } = {}) =>
  cache.keyFor(incoming({ method, url, headers: cookie === undefined ? {} : { cookie } }));

describe("PageCache.keyFor", () => {
  it.each(["/", "/portfolio", "/contact", "/team", "/newsletter", "/privacy-policy", "/robots.txt"])(
    "caches the public page %s",
    (url) => {
      expect(keyFor(url)).not.toBeNull();
    },
  );

  it("renders /process afresh: its pitch form carries a signed render time (decision 026)", () => {
    expect(keyFor("/process")).toBeNull();
  });

  it("uses the same key for GET and HEAD", () => {
    expect(keyFor("/team", { method: "HEAD" })).toBe(keyFor("/team"));
  });

  it.each(["POST", "PUT", "DELETE", "OPTIONS"])("never caches %s", (method) => {
    expect(keyFor("/", { method })).toBeNull();
  });

  it.each(["/lp/dashboard", "/admin/dashboard", "/fund-ii/documents", "/api/newsletter", "/portfolio/", "/nope"])(
    "does not cache the unlisted path %s",
    (url) => {
      expect(keyFor(url)).toBeNull();
    },
  );

  it("keys /portfolio by its sector filter", () => {
    const space = keyFor("/portfolio?sector=Space");
    const ai = keyFor("/portfolio?sector=AI");
    expect(space).not.toBeNull();
    expect(ai).not.toBeNull();
    expect(space).not.toBe(ai);
    expect(space).not.toBe(keyFor("/portfolio"));
  });

  it.each(["/portfolio?utm_source=x", "/portfolio?sector=AI&page=2", "/?sector=AI", "/process?x=1", "/fund-ii?token=abc"])(
    "bypasses the cache for other query parameters (%s)",
    (url) => {
      expect(keyFor(url)).toBeNull();
    },
  );

  it("keys by theme cookie: light, dark, or system for anything else", () => {
    const light = keyFor("/", { cookie: "theme=light" });
    const dark = keyFor("/", { cookie: "theme=dark" });
    const none = keyFor("/");
    expect(new Set([light, dark, none]).size).toBe(3);
    expect(keyFor("/", { cookie: "theme=purple" })).toBe(none);
  });

  it.each(["lr_flash=abc", "theme=dark; lr_session=xyz", "__Host-lr_flash=1", "other"])(
    "bypasses the cache for any cookie other than theme (%s)",
    (cookie) => {
      expect(keyFor("/", { cookie })).toBeNull();
    },
  );
});

describe("PageCache.keyFor and the page's theme agree (one parse of the theme cookie)", () => {
  // What the root loader renders for the same Cookie header.
  const rendered = (cookie: string) => themeFromCookieHeader(cookie);
  const keyTheme = (cookie: string) => keyFor("/", { cookie })?.split("|")[1] ?? null;

  it.each([
    "theme=dark.",
    "theme=dark%00",
    "theme=darkish",
    "theme=light-",
    "theme=Dark",
    "theme=dark x",
    'theme="dark"',
    "theme=",
    "theme",
    "theme=purple",
    "theme=light; theme=dark",
    "theme=dark;theme=light",
    " theme=dark ",
    "theme=system",
  ])("%j is cached only under the theme it renders as (or not at all)", (cookie) => {
    const key = keyTheme(cookie);
    if (key !== null) expect(key).toBe(rendered(cookie));
  });

  it("a trailing dot does not make a page cached as 'system' render dark", () => {
    const key = keyTheme("theme=dark.");
    expect(key === null || key === rendered("theme=dark.")).toBe(true);
    expect([null, "system"]).toContain(key);
    expect(rendered("theme=dark.")).toBe("system");
  });

  it("light and dark still have their own keys and render as themselves", () => {
    expect(keyTheme("theme=dark")).toBe("dark");
    expect(rendered("theme=dark")).toBe("dark");
    expect(keyTheme("theme=light")).toBe("light");
    expect(rendered("theme=light")).toBe("light");
  });
});
