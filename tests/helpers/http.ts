import type { UNSAFE_DataWithResponseInit as DataWithResponseInit } from "react-router";
import { expect } from "vitest";
import { TEST_CLIENT_ADDRESS } from "./test-env";

const ORIGIN = "http://localhost:3000";

/** A JSON POST as a client would send it. `body` is serialised unless it is already a string. */
export function jsonRequest(
  path: string,
  body: unknown,
  { contentType = "application/json", headers = {} }: { contentType?: string; headers?: Record<string, string> } = {},
): Request {
  return new Request(ORIGIN + path, {
    method: "POST",
    headers: { "Content-Type": contentType, ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

/** A classic HTML form post (application/x-www-form-urlencoded). */
export function formRequest(path: string, fields: Record<string, string>): Request {
  return new Request(ORIGIN + path, { method: "POST", body: new URLSearchParams(fields) });
}

type ActionLike<R> = (args: never) => Promise<R> | R;

/**
 * The route pattern React Router hands a loader or action (`api/documents/:id/view`: the
 * route paths joined, no leading or trailing slash), each parameter's value put back as `:name`.
 */
export function routePattern(request: Request, params: Record<string, string>): string {
  const segments = new URL(request.url).pathname.replace(/^\/+|\/+$/g, "").split("/");
  return segments.map((segment) => Object.entries(params).find(([, value]) => value === segment)?.[0]).map((name, i) => (name ? `:${name}` : segments[i])).join("/");
}

/** Call a route module's action (or loader) the way React Router does, with our load context. */
export async function callRoute<R>(fn: ActionLike<R>, request: Request, clientAddress = TEST_CLIENT_ADDRESS): Promise<R> {
  const args = { request, params: {}, pattern: routePattern(request, {}), context: { clientAddress } };
  return fn(args as never);
}

/** The `data(...)` answer of a page action (fails the test when it answered something else). */
export function expectData<T>(result: unknown): { data: T; status: number | undefined } {
  // react-router's data() returns a DataWithResponseInit (not exported as a value): { type, data, init }.
  expect(result).not.toBeInstanceOf(Response);
  expect(result).toMatchObject({ type: "DataWithResponseInit" });
  const answer = result as DataWithResponseInit<T>;
  return { data: answer.data, status: answer.init?.status };
}

/** A redirect Response: its status, Location and the `name=value` part of its Set-Cookie. */
export function expectRedirect(result: unknown): { status: number; location: string; cookie: string | null } {
  expect(result).toBeInstanceOf(Response);
  const response = result as Response;
  const setCookie = response.headers.get("Set-Cookie");
  return {
    status: response.status,
    location: response.headers.get("Location") ?? "",
    cookie: setCookie ? (setCookie.split(";")[0] ?? null) : null,
  };
}

/** A follow-up GET that carries a cookie (the browser following a redirect). */
export function requestWithCookie(path: string, cookie: string): Request {
  return new Request(ORIGIN + path, { headers: { Cookie: cookie } });
}
