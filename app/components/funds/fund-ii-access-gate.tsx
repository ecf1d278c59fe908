import { LoaderCircle, TriangleAlert } from "lucide-react";
import { useEffect, useEffectEvent, useRef, useState } from "react";
import { Link, useNavigate, useRevalidator } from "react-router";
import { fundAccessCopy } from "~/content/fund-access";
import { fundAccessMessages } from "~/content/validation";
import { FUND_II_TOKEN_STORAGE_KEY } from "~/modules/fund-access/constants";

/** SPEC.md §9: after a token failure the page goes to /fund-ii/signup after 2 s. */
export const TOKEN_FAILURE_REDIRECT_MS = 2000;
export const FUND_II_SIGNUP_PATH = "/fund-ii/signup";

/**
 * Why the loader refused the page. "required": no token in the URL and no
 * access cookie; "invalid": a token (URL or cookie) that is unknown, replaced
 * or revoked; "failed": the check itself failed; "limited": too many token
 * checks from this client (no redirect: the sign-up would not help).
 */
export type FundIIDenial = {
  reason: "required" | "invalid" | "failed" | "limited";
  message: string;
};

type Shown = { kind: "validating" } | { kind: "denied"; message: string; redirect: boolean };

function readStoredToken(): string | null {
  try {
    return window.localStorage.getItem(FUND_II_TOKEN_STORAGE_KEY);
  } catch {
    return null;
  }
}

/** The browser never keeps the token (docs/decisions/012): every path ends by removing it. */
export function forgetStoredToken() {
  try {
    window.localStorage.removeItem(FUND_II_TOKEN_STORAGE_KEY);
  } catch {
    // Storage unavailable: nothing stored either.
  }
}

/** POST /api/fund-access/validate-token; a valid token comes back as the HttpOnly access cookie. */
async function validateToken(token: string): Promise<"valid" | "invalid" | "failed"> {
  try {
    const response = await fetch("/api/fund-access/validate-token", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ token }),
      credentials: "include",
    });
    if (!response.ok) return "failed";
    const body = (await response.json()) as { valid?: unknown };
    return body.valid === true ? "valid" : "invalid";
  } catch {
    return "failed";
  }
}

/**
 * The Fund II page when the server did not let the visitor in (SPEC.md §2,
 * §4, §8): a red alert, the message followed by '. Redirecting to signup...',
 * then /fund-ii/signup after 2 s — a `<meta http-equiv="refresh">` without
 * JavaScript, a timer with it. With JavaScript and no token anywhere, a token
 * left in the browser's storage by an earlier version of the page is checked
 * first ('Validating access...'): valid, it becomes the access cookie and the
 * page reloads its data; either way it is removed from storage.
 */
export function FundIIAccessGate({ denial }: { denial: FundIIDenial }) {
  const c = fundAccessCopy.fundIIDocuments;
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  // Reads the current revalidator without making the effect below re-run for it (it changes on every render).
  const reload = useEffectEvent(() => void revalidator.revalidate());
  const tried = useRef(false);
  const [local, setLocal] = useState<Shown | null>(null);

  useEffect(() => {
    if (denial.reason !== "required") {
      // Invalid and failed tokens are cleared from storage too (SPEC.md §8).
      if (denial.reason !== "limited") forgetStoredToken();
      setLocal(null);
      return;
    }
    const stored = tried.current ? null : readStoredToken();
    if (!stored) {
      setLocal(null);
      return;
    }
    tried.current = true;
    setLocal({ kind: "validating" });
    void validateToken(stored).then((result) => {
      forgetStoredToken();
      if (result === "valid") {
        // The cookie is set: the loader now lets the visitor in (this gate unmounts).
        reload();
      } else {
        setLocal({
          kind: "denied",
          message: result === "invalid" ? fundAccessMessages.tokenInvalid : fundAccessMessages.validationFailed,
          redirect: true,
        });
      }
    });
    // Once per answer of the loader.
  }, [denial]);

  const shown: Shown = local ?? { kind: "denied", message: denial.message, redirect: denial.reason !== "limited" };
  // The message a timed redirect belongs to (null: none); the timer restarts only when it changes.
  const redirectFor = shown.kind === "denied" && shown.redirect ? shown.message : null;

  useEffect(() => {
    if (redirectFor === null) return;
    const timer = setTimeout(() => void navigate(FUND_II_SIGNUP_PATH, { replace: true }), TOKEN_FAILURE_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [redirectFor, navigate]);

  if (shown.kind === "validating") {
    return (
      <div role="status" className="mt-8 flex items-center gap-3 text-slate-700 dark:text-slate-300">
        <LoaderCircle aria-hidden="true" className="size-5 animate-spin text-brand-700 dark:text-brand-300" />
        <span>{c.validating}</span>
      </div>
    );
  }

  return (
    <div className="mt-8">
      <div
        role="alert"
        data-testid="fund-access-error"
        className="flex items-start gap-3 rounded-md border border-red-300 bg-red-50 px-4 py-3 text-sm font-medium text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200"
      >
        <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
        <p>{shown.redirect ? `${shown.message}${c.redirecting}` : shown.message}</p>
      </div>
      {shown.redirect && local === null ? (
        <noscript>
          <meta httpEquiv="refresh" content={`${TOKEN_FAILURE_REDIRECT_MS / 1000};url=${FUND_II_SIGNUP_PATH}`} />
        </noscript>
      ) : null}
      <p className="mt-4 text-sm">
        <Link
          to={FUND_II_SIGNUP_PATH}
          className="font-medium text-brand-700 underline underline-offset-4 dark:text-brand-300"
        >
          {c.signupLink}
        </Link>
      </p>
    </div>
  );
}
