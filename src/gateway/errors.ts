/**
 * Errors of the `gateway` layer. One shape (STYLE §b.4): a stable `name`, a closed `code`, readonly
 * fields, an optional `cause`, and an `isXxx()` predicate to use instead of `instanceof`.
 */

/** Why a request was refused; each code has one HTTP status ({@link HTTP_STATUS}). */
export const GatewayErrorCode = {
  BadRequest: 'bad_request',
  Unauthorized: 'unauthorized',
  /** The request's `Host` or `Origin` header is not allowed (DNS-rebinding / cross-site protection). */
  Forbidden: 'forbidden',
  NotFound: 'not_found',
  Conflict: 'conflict',
  UnsupportedMediaType: 'unsupported_media_type',
  PayloadTooLarge: 'payload_too_large',
  /** The caller holds too many of a limited resource (open SSE streams); retry after `retry-after`. */
  TooManyRequests: 'too_many_requests',
  Internal: 'internal',
} as const;
/** Union of {@link GatewayErrorCode} values. */
export type GatewayErrorCode = (typeof GatewayErrorCode)[keyof typeof GatewayErrorCode];

/** HTTP status of each {@link GatewayErrorCode}. */
export const HTTP_STATUS: Readonly<Record<GatewayErrorCode, number>> = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  unsupported_media_type: 415,
  payload_too_large: 413,
  too_many_requests: 429,
  internal: 500,
};

/** The JSON body of every error response. `field` names the offending input of a 400 (the header of a 403). */
export interface ErrorBody {
  readonly error: { readonly code: GatewayErrorCode; readonly message: string; readonly field?: string };
}

// Registry-wide symbols so the brands survive duplicate copies of this module (jest, bundles).
const BRAND = Symbol.for('deerflow.gateway.error');
const SETUP_BRAND = Symbol.for('deerflow.gateway.setup-error');

/** A request the gateway refuses; rendered as {@link ErrorBody} with {@link HTTP_STATUS}. */
export class GatewayError extends Error {
  override readonly name = 'GatewayError';
  /** Brand checked by {@link isGatewayError}. */
  readonly [BRAND] = true;

  constructor(
    readonly code: GatewayErrorCode,
    message: string,
    /** The body field, path or query parameter or header at fault (400, and the header of a 403). */
    readonly field: string | null = null,
    options?: { cause?: unknown },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
  }

  /** HTTP status of this error. */
  get status(): number {
    return HTTP_STATUS[this.code];
  }

  /** The response body. */
  toBody(): ErrorBody {
    const error = { code: this.code, message: this.message };
    return { error: this.field === null ? error : { ...error, field: this.field } };
  }

  /** 400 naming the field: `<field>: <problem>`. */
  static badRequest(field: string, problem: string): GatewayError {
    return new GatewayError(GatewayErrorCode.BadRequest, `${field}: ${problem}`, field);
  }

  /**
   * 404 for a run that does not exist *or belongs to another user*: the two are indistinguishable
   * on purpose, so a caller cannot probe which run ids exist.
   */
  static runNotFound(threadId: string, runId: string): GatewayError {
    return new GatewayError(GatewayErrorCode.NotFound, `run "${runId}" not found in thread "${threadId}"`);
  }

  /** 404 for a batch that does not exist or belongs to another user (indistinguishable on purpose). */
  static batchNotFound(batchId: string): GatewayError {
    return new GatewayError(GatewayErrorCode.NotFound, `batch "${batchId}" not found`);
  }

  /**
   * 409 for a caller-chosen batch id that is taken: by another batch (the caller's with different
   * content, or another user's) or by another user's thread. The message never says which.
   */
  static batchIdInUse(batchId: string): GatewayError {
    return new GatewayError(GatewayErrorCode.Conflict, `batch_id: "${batchId}" is already in use; choose another or leave batch_id out`);
  }

  /** 429 for a caller who already holds `limit` open event streams. */
  static tooManyStreams(limit: number): GatewayError {
    return new GatewayError(
      GatewayErrorCode.TooManyRequests,
      `at most ${limit} event streams may be open at once per caller; close one (or wait for one to end) and retry`,
    );
  }
}

/** Whether `err` is a {@link GatewayError}. */
export function isGatewayError(err: unknown): err is GatewayError {
  return typeof err === 'object' && err !== null && (err as Record<symbol, unknown>)[BRAND] === true;
}

/** Why the gateway cannot start with this configuration. */
export const GatewaySetupErrorCode = {
  /** A `gateway.tokens[].token_env` variable is unset or empty. */
  MissingToken: 'missing_token',
  /** Two entries resolve to the same token, so a request could not tell which user it is. */
  DuplicateToken: 'duplicate_token',
  /** No tokens are configured and the host is not a loopback address. */
  UnsafeHost: 'unsafe_host',
  /** A `gateway.allowed_origins` entry is not a plain http(s) origin (`scheme://host[:port]`). */
  InvalidOrigin: 'invalid_origin',
} as const;
/** Union of {@link GatewaySetupErrorCode} values. */
export type GatewaySetupErrorCode = (typeof GatewaySetupErrorCode)[keyof typeof GatewaySetupErrorCode];

/** The gateway refuses to start; the message names the config key (`gateway.tokens[1].token_env: ...`). */
export class GatewaySetupError extends Error {
  override readonly name = 'GatewaySetupError';
  /** Brand checked by {@link isGatewaySetupError}. */
  readonly [SETUP_BRAND] = true;

  constructor(
    readonly code: GatewaySetupErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** Whether `err` is a {@link GatewaySetupError}. */
export function isGatewaySetupError(err: unknown): err is GatewaySetupError {
  return typeof err === 'object' && err !== null && (err as Record<symbol, unknown>)[SETUP_BRAND] === true;
}
