import type { ApiErrorBody } from '../contract/errors.ts';

type ErrorStatus = 400 | 401 | 402 | 403 | 404 | 409 | 413 | 415 | 422 | 429 | 500 | 502 | 503;

/** A failure with its status and code; the error handler turns it into the one error shape. */
export class ApiError extends Error {
  readonly status: ErrorStatus;
  readonly code: string;
  readonly fields: Record<string, string> | undefined;
  readonly retryAfter: number | undefined;
  /** More members of `error` (a 402 `plan_limit` names `limit`, `plan` and `upgradeTo`). */
  readonly extra: Partial<Omit<ApiErrorBody['error'], 'code' | 'message' | 'fields'>> | undefined;

  constructor(
    status: ErrorStatus,
    code: string,
    message: string,
    extra: {
      fields?: Record<string, string>;
      retryAfter?: number;
      extra?: Partial<Omit<ApiErrorBody['error'], 'code' | 'message' | 'fields'>>;
    } = {},
  ) {
    super(message);
    this.status = status;
    this.code = code;
    this.fields = extra.fields;
    this.retryAfter = extra.retryAfter;
    this.extra = extra.extra;
  }

  body(): ApiErrorBody {
    return {
      error: {
        code: this.code,
        message: this.message,
        ...(this.fields ? { fields: this.fields } : {}),
        ...this.extra,
      },
    };
  }
}

/** 400 naming one field. */
export function fieldError(field: string, message: string, code = 'validation'): ApiError {
  return new ApiError(400, code, message, { fields: { [field]: message } });
}

/** 404 with the same words for "absent" and "not yours", so existence does not leak. */
export function notFound(what = 'resource'): ApiError {
  return new ApiError(404, 'not_found', `No such ${what}.`);
}
