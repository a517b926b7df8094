import { resolve } from 'node:path';

import { ChatAnthropic } from '@langchain/anthropic';
import type { Callbacks } from '@langchain/core/callbacks/manager';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { ChatOllama } from '@langchain/ollama';
import { ChatOpenAI } from '@langchain/openai';

import type { ModelConfig } from '../config/schema';
import { MissingApiKeyError, ModelNotConfiguredError } from './errors';
import { loadScenarioCached } from './scenario';
import { ScriptedChatModel, type ModelRole } from './scripted-chat-model';

/** Ollama's endpoint when `base_url` is not configured. */
export const DEFAULT_OLLAMA_BASE_URL = 'http://127.0.0.1:11434';
/** Key passed to OpenAI-compatible local servers, which require a key field but ignore its value. */
export const PLACEHOLDER_API_KEY = 'not-needed';

/** Options of {@link createChatModel}. */
export interface CreateChatModelOptions {
  /** Folder of the config file; a scripted model's `script` is resolved against it. */
  readonly configDir: string;
  /** The conversation the model will answer (only the scripted model uses it). */
  readonly role: ModelRole;
  /** Where API keys are read from. @default process.env */
  readonly env?: NodeJS.ProcessEnv;
  /** LangChain callback handlers attached to the model (tracing, recording). */
  readonly callbacks?: Callbacks;
}

/**
 * Builds the LangChain chat model a config entry describes. Construction makes no network call.
 * - `openai`: `ChatOpenAI`, any OpenAI-compatible endpoint through `base_url`.
 * - `anthropic`: `ChatAnthropic`.
 * - `ollama`: `ChatOllama` (default endpoint {@link DEFAULT_OLLAMA_BASE_URL}).
 * - `scripted`: {@link ScriptedChatModel} replaying `script` (parsed once per file version),
 *   strict like a provider unless `strict: false`.
 * @throws {@link MissingApiKeyError} when a required API key variable is unset
 * @throws {@link ModelNotConfiguredError} when the entry lacks `model` (or `script` for scripted)
 * @throws {@link ScenarioInvalidError} when the scripted model's scenario file is invalid
 */
export function createChatModel(config: ModelConfig, options: CreateChatModelOptions): BaseChatModel {
  const env = options.env ?? process.env;
  const timeout = config.timeout_seconds === undefined ? undefined : config.timeout_seconds * 1000;
  const common = {
    ...(config.temperature === undefined ? {} : { temperature: config.temperature }),
    ...(options.callbacks === undefined ? {} : { callbacks: options.callbacks }),
    maxRetries: config.max_retries,
  };
  switch (config.provider) {
    case 'openai':
      return new ChatOpenAI({
        ...common,
        model: requireField(config, config.model, 'model'),
        apiKey: resolveApiKey(config, 'OPENAI_API_KEY', env, isCustomEndpoint(config.base_url, 'api.openai.com')),
        ...(config.base_url === undefined ? {} : { configuration: { baseURL: config.base_url } }),
        ...(config.max_tokens === undefined ? {} : { maxTokens: config.max_tokens }),
        ...(timeout === undefined ? {} : { timeout }),
      });
    case 'anthropic':
      return new ChatAnthropic({
        ...common,
        model: requireField(config, config.model, 'model'),
        apiKey: resolveApiKey(config, 'ANTHROPIC_API_KEY', env, isCustomEndpoint(config.base_url, 'api.anthropic.com')),
        ...(config.base_url === undefined ? {} : { anthropicApiUrl: config.base_url }),
        ...(config.max_tokens === undefined ? {} : { maxTokens: config.max_tokens }),
        ...(timeout === undefined ? {} : { clientOptions: { timeout } }),
      });
    case 'ollama':
      return new ChatOllama({
        ...common,
        model: requireField(config, config.model, 'model'),
        baseUrl: config.base_url ?? DEFAULT_OLLAMA_BASE_URL,
        ...(config.max_tokens === undefined ? {} : { numPredict: config.max_tokens }),
        // ChatOllama has no timeout option; enforce it on each HTTP request instead.
        ...(timeout === undefined ? {} : { fetch: fetchWithTimeout(timeout) }),
      });
    case 'scripted': {
      const script = resolve(options.configDir, requireField(config, config.script, 'script'));
      return new ScriptedChatModel({
        scenario: loadScenarioCached(script),
        role: options.role,
        modelName: config.name,
        ...(config.strict === undefined ? {} : { strict: config.strict }),
        ...(options.callbacks === undefined ? {} : { callbacks: options.callbacks }),
      });
    }
    default:
      return assertNever(config.provider);
  }
}

/**
 * Short human-readable label of a model entry for logs, e.g. `fast (openai:gpt-4o-mini)` or
 * `demo (scripted)`.
 */
export function modelDisplayName(config: Pick<ModelConfig, 'name' | 'provider' | 'model'>): string {
  return config.model === undefined ? `${config.name} (${config.provider})` : `${config.name} (${config.provider}:${config.model})`;
}

/**
 * The entry named `name` in the configured models.
 * @throws {@link ModelNotConfiguredError} when no entry has that name
 */
export function findModelConfig(models: readonly ModelConfig[], name: string): ModelConfig {
  const found = models.find((m) => m.name === name);
  if (found !== undefined) return found;
  const known = models.map((m) => `"${m.name}"`).join(', ') || 'none';
  throw new ModelNotConfiguredError(name, `model "${name}" is not configured (configured: ${known})`);
}

function requireField(config: ModelConfig, value: string | undefined, field: 'model' | 'script'): string {
  if (value !== undefined && value.length > 0) return value;
  throw new ModelNotConfiguredError(config.name, `model "${config.name}": "${field}" is required for provider "${config.provider}"`);
}

/** True when `baseUrl` is set and points somewhere other than the provider's own host. */
function isCustomEndpoint(baseUrl: string | undefined, providerHost: string): boolean {
  if (baseUrl === undefined) return false;
  try {
    return new URL(baseUrl).hostname !== providerHost;
  } catch {
    return true;
  }
}

/**
 * The key from `api_key_env` (or the provider default variable). A custom endpoint without a
 * configured variable gets a placeholder because local servers ignore the key; an explicitly
 * configured variable that is unset is always an error, since the user said a key is needed.
 */
function resolveApiKey(config: ModelConfig, defaultVar: string, env: NodeJS.ProcessEnv, customEndpoint: boolean): string {
  const envVar = config.api_key_env ?? defaultVar;
  const key = env[envVar];
  if (key !== undefined && key.length > 0) return key;
  if (customEndpoint && config.api_key_env === undefined) return PLACEHOLDER_API_KEY;
  throw new MissingApiKeyError(config.name, envVar);
}

function fetchWithTimeout(ms: number): typeof fetch {
  return (input, init) => {
    const timeoutSignal = AbortSignal.timeout(ms);
    const signal = init?.signal ? AbortSignal.any([init.signal, timeoutSignal]) : timeoutSignal;
    return fetch(input, { ...init, signal });
  };
}

function assertNever(value: never): never {
  throw new Error(`unknown model provider: ${String(value)}`);
}
