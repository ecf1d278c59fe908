import type { z } from "zod";
import { requestMessages } from "~/content/validation";
import { AppError, type FieldErrors } from "./app-error";

/**
 * The admin pages' intent forms (a pitch's, an entity's): a posted field as
 * text, and a zod parse whose failure is a 400 AppError with a message per
 * field (`form` for the form as a whole), which `formFailure` turns into the
 * form's answer.
 */

/** A posted field's text ('' when it is missing or a file). */
export function formText(formData: FormData, name: string): string {
  const value = formData.get(name);
  return typeof value === "string" ? value : "";
}

export function parseFormInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const fields: FieldErrors = {};
  for (const issue of result.error.issues) (fields[issue.path.map(String).join(".") || "form"] ??= []).push(issue.message);
  throw new AppError("bad_request", result.error.issues[0]?.message ?? requestMessages.invalidRequest, { fields });
}
