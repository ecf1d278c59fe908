import type { z } from "zod";
import { requestMessages } from "~/content/validation";
import { AppError, isAppError, type FieldErrors } from "./app-error";
import { readBodyBytes } from "./body.server";
import { logError } from "../logging/log.server";

/** Largest JSON body the public JSON endpoints accept. */
export const MAX_JSON_BYTES = 16 * 1024;

/** A JSON error answer: `{ error, fields? }` with the error's status (and Retry-After on 429). */
export function jsonError(error: AppError): Response {
  const headers = new Headers({ "Content-Type": "application/json; charset=utf-8" });
  if (error.options.retryAfterSeconds !== undefined) {
    headers.set("Retry-After", String(error.options.retryAfterSeconds));
  }
  const body: { error: string; fields?: FieldErrors } = { ...error.options.json, error: error.message };
  if (error.options.fields) body.fields = error.options.fields;
  return new Response(JSON.stringify(body), { status: error.status, headers });
}

/** 405 for a method the endpoint does not take, naming the one it does (`Allow`). */
export function methodNotAllowed(allow: string): Response {
  return Response.json({ error: requestMessages.methodNotAllowed }, { status: 405, headers: { Allow: allow } });
}

/** Read a JSON body of at most `limit` bytes; bad JSON or a wrong content type is a 4xx AppError. */
export async function readJsonBody(request: Request, limit = MAX_JSON_BYTES): Promise<unknown> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/json\b/i.test(type)) {
    throw new AppError("unsupported_media_type", requestMessages.notJson);
  }
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > limit) throw new AppError("payload_too_large", requestMessages.bodyTooLarge);
  const buffer = await readBodyBytes(request, limit, () => new AppError("payload_too_large", requestMessages.bodyTooLarge));
  try {
    return JSON.parse(new TextDecoder().decode(buffer));
  } catch {
    throw new AppError("bad_request", requestMessages.invalidJson);
  }
}

/** Validate a parsed JSON body with a zod schema; failures become a 400 with field messages. */
export function parseJsonInput<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new AppError("bad_request", requestMessages.notJsonObject);
  }
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const fields: FieldErrors = {};
  for (const issue of result.error.issues) {
    const key = issue.path.map(String).join(".") || "body";
    (fields[key] ??= []).push(issue.message);
  }
  const first = result.error.issues[0]?.message ?? requestMessages.invalidRequest;
  throw new AppError("bad_request", first, { fields });
}

/**
 * Run a JSON endpoint: AppErrors become their JSON answers; anything else is
 * logged and answered as a generic 500 without details.
 */
export async function handleJson(run: () => Promise<Response>): Promise<Response> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof Response) return error;
    if (isAppError(error)) return jsonError(error);
    logError(error);
    return Response.json({ error: requestMessages.serverError }, { status: 500 });
  }
}

