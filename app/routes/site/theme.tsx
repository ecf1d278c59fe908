import { redirect } from "react-router";
import type { Route } from "./+types/theme";
import { getEnv } from "~/modules/config/env.server";
import { safeRedirectPath } from "~/modules/toast/flash.server";
import { parseTheme, themeCookie } from "~/modules/theme/theme";
import { readFormData } from "~/modules/http/form-data.server";

/**
 * The no-JavaScript theme toggle: store the choice in a cookie and go back.
 * Not through answerForm (issue 23 §2): it is a setting, not a form with an
 * outcome; there is no toast, message or typed value to carry, and the page
 * it goes back to shows the new theme itself.
 */
export async function action({ request }: Route.ActionArgs) {
  const form = await readFormData(request);
  const theme = parseTheme(form.get("theme"));
  return redirect(safeRedirectPath(form.get("redirectTo")), {
    headers: { "Set-Cookie": themeCookie(theme, getEnv().SECURE_COOKIES) },
  });
}

export function loader() {
  return redirect("/");
}
