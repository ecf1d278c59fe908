import type { HeadersFunction } from "react-router";

/**
 * A page route's `headers` export that keeps Retry-After on a rate-limited
 * answer (React Router passes only cookies from loaders and actions to the
 * page unless a route says otherwise).
 */
export const keepRetryAfter: HeadersFunction = ({ parentHeaders, loaderHeaders, actionHeaders }) => {
  const merged = new Headers(parentHeaders);
  const retryAfter = actionHeaders.get("Retry-After") ?? loaderHeaders.get("Retry-After");
  if (retryAfter) merged.set("Retry-After", retryAfter);
  return merged;
};
