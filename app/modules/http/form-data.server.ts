import { data } from "react-router";
import { requestMessages } from "~/content/validation";

/**
 * A page action's form fields. A body that is not a form (another content
 * type, JSON, a broken multipart boundary, a body cut off) answers 400 with a
 * message instead of a 500: request.formData() throws a TypeError for those.
 */
export async function readFormData(request: Request): Promise<FormData> {
  try {
    return await request.formData();
  } catch {
    throw data({ error: requestMessages.formUnreadable }, { status: 400 });
  }
}
