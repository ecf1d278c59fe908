/**
 * One typed application error, mapped to HTTP statuses at the edge.
 * Domain functions throw it; routes turn it into a JSON answer or a form error.
 */
export type AppErrorCode =
  | "bad_request"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "conflict"
  | "payload_too_large"
  | "unsupported_media_type"
  /** Read and understood, and refused by a domain rule (a P&L import that does not tie out). */
  | "unprocessable"
  | "method_not_allowed"
  | "rate_limited"
  | "insufficient_storage"
  | "service_unavailable";

const STATUS: Record<AppErrorCode, number> = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  unprocessable: 422,
  method_not_allowed: 405,
  rate_limited: 429,
  insufficient_storage: 507,
  service_unavailable: 503,
};

export type FieldErrors = Record<string, string[]>;

export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: AppErrorCode,
    message: string,
    readonly options: {
      fields?: FieldErrors;
      retryAfterSeconds?: number;
      /** The submitted text values, for a form to show again (never secrets). */
      values?: Record<string, string>;
      /** More members of the JSON answer (e.g. `twoFactorRequired: true`). */
      json?: Record<string, boolean | string>;
    } = {},
  ) {
    super(message);
    this.name = "AppError";
    this.status = STATUS[code];
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
