import { data, isRouteErrorResponse } from "react-router";

/** What a workspace page says about a record that is not there: its title, a sentence, and the way back to its list. */
export type NotFoundNotice = { title: string; message?: string; back?: { to: string; label: string } };

/**
 * A missing record (issue 23 §2): a loader throws this 404 and the workspace layout's
 * error boundary shows the notice inside the frame, navigation and all
 * (`throw notFound({ title, message, back })`).
 */
export function notFound(notice: NotFoundNotice) {
  return data(notice, { status: 404 });
}

/** A thrown 404's notice, if the error is one (`null` for anything else); a 404 thrown without one gives `{}`. */
export function notFoundNotice(error: unknown): Partial<NotFoundNotice> | null {
  if (!isRouteErrorResponse(error) || error.status !== 404) return null;
  const body: unknown = error.data;
  if (!body || typeof body !== "object") return {};
  const { title, message, back } = body as Record<string, unknown>;
  const link = back && typeof back === "object" ? (back as Record<string, unknown>) : null;
  return {
    title: typeof title === "string" ? title : undefined,
    message: typeof message === "string" ? message : undefined,
    back: link && typeof link.to === "string" && typeof link.label === "string" ? { to: link.to, label: link.label } : undefined,
  };
}
