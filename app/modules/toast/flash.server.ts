import { createCookieSessionStorage, redirect, type SessionStorage } from "react-router";
import { getEnv } from "../config/env.server";
import { FormFlash, Toast, type ToastInput } from "./toast";

/**
 * Flash messages: a short-lived signed cookie that carries a toast (and a form
 * outcome) to the next page, so results show without JavaScript too.
 */
type FlashData = Record<string, never>;
type FlashFlashData = { toast: Toast; form: FormFlash };
let storage: SessionStorage<FlashData, FlashFlashData> | undefined;

export function flashCookieName() {
  return getEnv().SECURE_COOKIES ? "__Host-lr_flash" : "lr_flash";
}

function flashStorage() {
  if (!storage) {
    const env = getEnv();
    storage = createCookieSessionStorage<FlashData, FlashFlashData>({
      cookie: {
        name: flashCookieName(),
        httpOnly: true,
        sameSite: "lax",
        path: "/",
        secure: env.SECURE_COOKIES,
        secrets: [env.SESSION_SECRET],
        maxAge: 60,
      },
    });
  }
  return storage;
}

export type Flash = { toast: Toast | null; form: FormFlash | null };

/** Read and consume the flash; returns the Set-Cookie header that clears it (or null). */
export async function readFlash(request: Request): Promise<{ flash: Flash; setCookie: string | null }> {
  const cookie = request.headers.get("Cookie");
  if (!cookie || !cookie.includes(flashCookieName())) {
    return { flash: { toast: null, form: null }, setCookie: null };
  }
  const session = await flashStorage().getSession(cookie);
  const toast = Toast.safeParse(session.get("toast"));
  const form = FormFlash.safeParse(session.get("form"));
  return {
    flash: { toast: toast.success ? toast.data : null, form: form.success ? form.data : null },
    setCookie: await flashStorage().destroySession(session),
  };
}

/** Redirect, carrying a toast and optionally a form outcome to the next page. */
export async function redirectWithFlash(
  to: string,
  flash: { toast?: ToastInput; form?: FormFlash },
  init: ResponseInit = {},
): Promise<Response> {
  const session = await flashStorage().getSession();
  if (flash.toast) session.flash("toast", Toast.parse(flash.toast));
  if (flash.form) session.flash("form", flash.form);
  const headers = new Headers(init.headers);
  headers.append("Set-Cookie", await flashStorage().commitSession(session));
  return redirect(to, { ...init, headers });
}

/** A same-site path to go back to: only local absolute paths, never `//host` or a URL. */
export function safeRedirectPath(value: unknown, fallback = "/"): string {
  if (typeof value !== "string" || !value.startsWith("/") || value.startsWith("//") || value.includes("\\")) {
    return fallback;
  }
  try {
    const url = new URL(value, "http://local.invalid");
    if (url.origin !== "http://local.invalid") return fallback;
    // Normalising can turn "/.//evil.example" into "//evil.example": check again.
    const local = url.pathname + url.search + url.hash;
    return local.startsWith("//") ? fallback : local;
  } catch {
    return fallback;
  }
}
