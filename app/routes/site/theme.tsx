import { redirect } from "react-router";
import type { Route } from "./+types/theme";
import { getEnv } from "~/modules/config/env.server";
import { safeRedirectPath } from "~/modules/toast/flash.server";
import { parseTheme, themeCookie } from "~/modules/theme/theme";
import { readFormData } from "~/modules/http/form-data.server";

/** The no-JavaScript theme toggle: store the choice in a cookie and go back. */
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
