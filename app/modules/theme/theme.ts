/** The theme preference: light, dark, or follow the system (SPEC.md §2). */
export const THEMES = ["light", "dark", "system"] as const;
export type Theme = (typeof THEMES)[number];
export const THEME_STORAGE_KEY = "theme";
export const THEME_COOKIE = "theme";

export function parseTheme(value: unknown): Theme {
  return THEMES.includes(value as Theme) ? (value as Theme) : "system";
}

/** Read the theme cookie from a Cookie header. */
export function themeFromCookieHeader(header: string | null): Theme {
  if (!header) return "system";
  const match = /(?:^|;\s*)theme=([a-z]+)/.exec(header);
  return parseTheme(match?.[1]);
}

/** The Set-Cookie value that stores a theme for a year (readable by the page script too). */
export function themeCookie(theme: Theme, secure: boolean): string {
  return `${THEME_COOKIE}=${theme}; Path=/; Max-Age=31536000; SameSite=Lax${secure ? "; Secure" : ""}`;
}
