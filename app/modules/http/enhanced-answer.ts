import type { ToastInput } from "../toast/toast";

/**
 * The one answer a page action gives an enhanced (JavaScript) form post
 * (`answerForm`, form-answer.server.ts): success or error, the toast to show,
 * and the page's own fields. Shared with the components that read it.
 */
export type EnhancedAnswer<Extra extends object = object> = {
  status: "success" | "error";
  toast: ToastInput | null;
} & Extra;
