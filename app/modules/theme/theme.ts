/** The theme preference: light, dark, or follow the system (SPEC.md §2). */
export const THEMES = ["light", "dark", "system"] as const;
export type Theme = (typeof THEMES)[number];
export const THEME_STORAGE_KEY = "theme";
export const THEME_COOKIE = "theme";

export function parseTheme(value: unknown): Theme {
  return THEMES.includes(value as Theme) ? (value as Theme) : "system";
}

/**
 * Read the theme cookie from a Cookie header: the first `theme` pair, its
 * whole value (trimmed) exactly `light`, `dark` or `system`; anything else is
 * "system". The one parse: the root loader renders with it and the public page
 * cache (server/page-cache.ts) keys with it, so a page is never cached under a
 * theme it was not rendered in.
 */
export function themeFromCookieHeader(header: string | null | undefined): Theme {
  if (!header) return "system";
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq === -1 || part.slice(0, eq).trim() !== THEME_COOKIE) continue;
    return parseTheme(part.slice(eq + 1).trim());
  }
  return "system";
}

/** The Set-Cookie value that stores a theme for a year (readable by the page script too). */
export function themeCookie(theme: Theme, secure: boolean): string {
  return `${THEME_COOKIE}=${theme}; Path=/; Max-Age=31536000; SameSite=Lax${secure ? "; Secure" : ""}`;
}
