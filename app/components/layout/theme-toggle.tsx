import { Moon, Sun } from "lucide-react";
import { useLocation } from "react-router";
import { THEME_STORAGE_KEY, type Theme } from "~/modules/theme/theme";

function applyTheme(theme: Exclude<Theme, "system">) {
  const root = document.documentElement;
  root.classList.toggle("dark", theme === "dark");
  root.classList.toggle("light", theme === "light");
  try {
    localStorage.setItem(THEME_STORAGE_KEY, theme);
  } catch {
    /* storage may be unavailable (private mode); the cookie still holds it */
  }
  const secure = location.protocol === "https:" ? "; Secure" : "";
  document.cookie = `theme=${theme}; Path=/; Max-Age=31536000; SameSite=Lax${secure}`;
}

/**
 * Light/dark toggle. Without JavaScript it is a form that posts to /theme,
 * which sets the cookie and comes back; CSS shows the button that applies.
 * With JavaScript the switch happens in place (class, localStorage, cookie).
 */
export function ThemeToggle() {
  const location = useLocation();
  const redirectTo = location.pathname + location.search;
  const buttonClass =
    "items-center justify-center rounded-md p-2 text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800";
  return (
    <form
      method="post"
      action="/theme"
      onSubmit={(event) => {
        const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
        const value = submitter?.value;
        if (value === "light" || value === "dark") {
          event.preventDefault();
          applyTheme(value);
        }
      }}
    >
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <button
        type="submit"
        name="theme"
        value="dark"
        className={`inline-flex dark:hidden ${buttonClass}`}
        aria-label="Switch to dark theme"
        data-testid="theme-toggle"
      >
        <Moon aria-hidden="true" className="size-5" />
      </button>
      <button
        type="submit"
        name="theme"
        value="light"
        className={`hidden dark:inline-flex ${buttonClass}`}
        aria-label="Switch to light theme"
        data-testid="theme-toggle"
      >
        <Sun aria-hidden="true" className="size-5" />
      </button>
    </form>
  );
}
