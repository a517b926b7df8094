/**
 * Errors of the `models` layer. One shape (STYLE §b.4): a stable `name`, a closed `code`, readonly
 * fields, an optional `cause`, and an `isXxx()` predicate to use instead of `instanceof`.
 */

import type { ProviderRequestViolation } from './provider-request-rules';

/** Every failure kind this layer raises. */
export const ModelErrorCode = {
  ScenarioInvalid: 'SCENARIO_INVALID',
  ModelNotConfigured: 'MODEL_NOT_CONFIGURED',
  MissingApiKey: 'MISSING_API_KEY',
  ScriptedProvider: 'SCRIPTED_PROVIDER_ERROR',
} as const;
/** Union of {@link ModelErrorCode} values. */
export type ModelErrorCode = (typeof ModelErrorCode)[keyof typeof ModelErrorCode];

// A registry-wide symbol so the brand survives duplicate copies of this module (jest, bundles).
const BRAND = Symbol.for('deerflow.models.error');

/** Base class of every error raised by `src/models`. Use {@link isModelError} to detect it. */
export abstract class ModelError extends Error {
  abstract readonly code: ModelErrorCode;
  /** Brand checked by the predicates. */
  readonly [BRAND] = true;

  protected constructor(message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
  }
}

/** A scenario file is missing, unreadable, not YAML/JSON, or does not match the scenario schema. */
export class ScenarioInvalidError extends ModelError {
  override readonly name = 'ScenarioInvalidError';
  readonly code = ModelErrorCode.ScenarioInvalid;

  /**
   * @param file - the scenario path as given to the loader
   * @param issues - `field.path: problem` lines (empty when the whole file is at fault)
   */
  constructor(
    readonly file: string,
    readonly issues: readonly string[],
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** A model is referenced by name but not configured, or its config lacks a provider field. */
export class ModelNotConfiguredError extends ModelError {
  override readonly name = 'ModelNotConfiguredError';
  readonly code = ModelErrorCode.ModelNotConfigured;

  constructor(
    readonly modelName: string,
    message: string,
  ) {
    super(message);
  }
}

/** The environment variable that must hold a provider API key is unset or empty. */
export class MissingApiKeyError extends ModelError {
  override readonly name = 'MissingApiKeyError';
  readonly code = ModelErrorCode.MissingApiKey;

  constructor(
    readonly modelName: string,
    readonly envVar: string,
  ) {
    super(`model "${modelName}": API key not found: set the environment variable ${envVar}`);
  }
}

/**
 * A simulated provider failure: a scripted `error` turn, or a request the scripted model rejects
 * as strict providers do ({@link ScriptedProviderError.invalidRequest}). Like provider SDK errors
 * it carries an HTTP `status` when the text starts with one (`"429 rate limited"` → `status: 429`),
 * so retry middleware can classify it the same way as a real provider error.
 */
export class ScriptedProviderError extends ModelError {
  override readonly name = 'ScriptedProviderError';
  readonly code = ModelErrorCode.ScriptedProvider;
  /** HTTP status parsed from the leading three digits of the message, if any. */
  readonly status: number | undefined;
  /** The broken request rule, for a rejected request; undefined for a scripted `error` turn. */
  readonly violation: ProviderRequestViolation | undefined;

  constructor(message: string, options?: { violation?: ProviderRequestViolation }) {
    super(message);
    const m = /^([1-5]\d\d)(?:\s|$|:)/.exec(message);
    this.status = m?.[1] === undefined ? undefined : Number(m[1]);
    this.violation = options?.violation;
  }

  /**
   * The 400 a strict provider answers to a malformed request, e.g.
   * `400 invalid request: messages[3]: assistant tool call 'call_1' has no tool message after it`.
   */
  static invalidRequest(violation: ProviderRequestViolation): ScriptedProviderError {
    return new ScriptedProviderError(`400 invalid request: ${violation.detail}`, { violation });
  }
}

function hasCode(err: unknown, code: ModelErrorCode): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const rec = err as { [BRAND]?: unknown; code?: unknown };
  return rec[BRAND] === true && rec.code === code;
}

/** True for any error raised by `src/models`. */
export function isModelError(err: unknown): err is ModelError {
  return typeof err === 'object' && err !== null && (err as { [BRAND]?: unknown })[BRAND] === true;
}

/** True when `err` is a {@link ScenarioInvalidError}. */
export function isScenarioInvalidError(err: unknown): err is ScenarioInvalidError {
  return hasCode(err, ModelErrorCode.ScenarioInvalid);
}

/** True when `err` is a {@link ModelNotConfiguredError}. */
export function isModelNotConfiguredError(err: unknown): err is ModelNotConfiguredError {
  return hasCode(err, ModelErrorCode.ModelNotConfigured);
}

/** True when `err` is a {@link MissingApiKeyError}. */
export function isMissingApiKeyError(err: unknown): err is MissingApiKeyError {
  return hasCode(err, ModelErrorCode.MissingApiKey);
}

/** True when `err` is a {@link ScriptedProviderError}. */
export function isScriptedProviderError(err: unknown): err is ScriptedProviderError {
  return hasCode(err, ModelErrorCode.ScriptedProvider);
}
