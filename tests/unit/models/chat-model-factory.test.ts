import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

import { ChatAnthropic } from '@langchain/anthropic';
import { AIMessage, HumanMessage } from '@langchain/core/messages';
import { ChatOllama } from '@langchain/ollama';
import { ChatOpenAI } from '@langchain/openai';

import { ModelConfigSchema, type ModelConfig } from '../../../src/config/schema';
import {
  createChatModel,
  findModelConfig,
  isMissingApiKeyError,
  isModelError,
  isModelNotConfiguredError,
  isScenarioInvalidError,
  modelDisplayName,
  ScriptedChatModel,
  type CreateChatModelOptions,
} from '../../../src/models';

const FIXTURES = join(__dirname, '../../fixtures');
const opts = (env: NodeJS.ProcessEnv = {}): CreateChatModelOptions => ({ configDir: FIXTURES, role: { kind: 'lead' }, env });
const cfg = (input: Record<string, unknown>): ModelConfig => ModelConfigSchema.parse(input);

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error('expected a throw');
}

describe('createChatModel', () => {
  it('builds ChatOpenAI for an OpenAI-compatible endpoint with a placeholder key', () => {
    const m = createChatModel(
      cfg({ name: 'local', provider: 'openai', model: 'qwen2.5', base_url: 'http://127.0.0.1:8000/v1', temperature: 0.2, max_tokens: 256, timeout_seconds: 30, max_retries: 2 }),
      opts(),
    );
    expect(m).toBeInstanceOf(ChatOpenAI);
    const openai = m as ChatOpenAI;
    expect(openai.model).toBe('qwen2.5');
    expect(openai.clientConfig.baseURL).toBe('http://127.0.0.1:8000/v1');
    expect(openai.apiKey).toBe('not-needed');
    expect(openai.temperature).toBe(0.2);
    expect(openai.maxTokens).toBe(256);
    expect(openai.timeout).toBe(30_000);
    expect(Reflect.get(openai.caller, 'maxRetries')).toBe(2);
  });

  it('reads the OpenAI key from OPENAI_API_KEY or api_key_env', () => {
    const byDefault = createChatModel(cfg({ name: 'o', provider: 'openai', model: 'gpt-4o-mini' }), opts({ OPENAI_API_KEY: 'sk-a' }));
    expect((byDefault as ChatOpenAI).apiKey).toBe('sk-a');
    expect((byDefault as ChatOpenAI).clientConfig.baseURL).toBeUndefined();
    const custom = createChatModel(cfg({ name: 'o', provider: 'openai', model: 'm', api_key_env: 'MY_KEY' }), opts({ MY_KEY: 'sk-b' }));
    expect((custom as ChatOpenAI).apiKey).toBe('sk-b');
  });

  it('throws a MissingApiKeyError naming the variable for the default endpoint without a key', () => {
    const err = thrown(() => createChatModel(cfg({ name: 'o', provider: 'openai', model: 'gpt-4o-mini' }), opts({ OPENAI_API_KEY: '' })));
    expect(isMissingApiKeyError(err)).toBe(true);
    expect(isModelError(err)).toBe(true);
    expect(err).toMatchObject({ name: 'MissingApiKeyError', code: 'MISSING_API_KEY', envVar: 'OPENAI_API_KEY', modelName: 'o' });
    expect((err as Error).message).toContain('OPENAI_API_KEY');
  });

  it('throws when an explicitly configured api_key_env is unset, even for a custom endpoint', () => {
    const err = thrown(() =>
      createChatModel(cfg({ name: 'v', provider: 'openai', model: 'm', base_url: 'http://localhost:8000/v1', api_key_env: 'VLLM_KEY' }), opts()),
    );
    expect(err).toMatchObject({ code: 'MISSING_API_KEY', envVar: 'VLLM_KEY' });
  });

  it('builds ChatAnthropic with its key, base URL, timeout and max tokens', () => {
    const m = createChatModel(
      cfg({ name: 'c', provider: 'anthropic', model: 'claude-sonnet-4-5', base_url: 'https://proxy.example/anthropic', max_tokens: 1000, timeout_seconds: 60 }),
      opts({ ANTHROPIC_API_KEY: 'sk-ant' }),
    );
    expect(m).toBeInstanceOf(ChatAnthropic);
    const anthropic = m as ChatAnthropic;
    expect(anthropic.model).toBe('claude-sonnet-4-5');
    expect(anthropic.apiKey).toBe('sk-ant');
    expect(anthropic.apiUrl).toBe('https://proxy.example/anthropic');
    expect(anthropic.maxTokens).toBe(1000);
    expect(anthropic.clientOptions.timeout).toBe(60_000);
    const err = thrown(() => createChatModel(cfg({ name: 'c', provider: 'anthropic', model: 'claude' }), opts()));
    expect(err).toMatchObject({ code: 'MISSING_API_KEY', envVar: 'ANTHROPIC_API_KEY' });
  });

  it('builds ChatOllama with the default or configured base URL', () => {
    const byDefault = createChatModel(cfg({ name: 'l', provider: 'ollama', model: 'llama3.2' }), opts());
    expect(byDefault).toBeInstanceOf(ChatOllama);
    expect((byDefault as ChatOllama).model).toBe('llama3.2');
    expect((byDefault as ChatOllama).baseUrl).toBe('http://127.0.0.1:11434');
    const custom = createChatModel(
      cfg({ name: 'l', provider: 'ollama', model: 'qwen3', base_url: 'http://gpu-box:11434', max_tokens: 64, temperature: 0 }),
      opts(),
    );
    expect((custom as ChatOllama).baseUrl).toBe('http://gpu-box:11434');
    expect((custom as ChatOllama).numPredict).toBe(64);
    expect((custom as ChatOllama).temperature).toBe(0);
  });

  it('enforces timeout_seconds on Ollama requests, which ChatOllama has no option for', async () => {
    const hung = createServer(() => undefined);
    await new Promise<void>((r) => hung.listen(0, '127.0.0.1', r));
    try {
      const { port } = hung.address() as AddressInfo;
      const m = createChatModel(cfg({ name: 'l', provider: 'ollama', model: 'x', base_url: `http://127.0.0.1:${port}`, timeout_seconds: 1 }), opts());
      const started = Date.now();
      await expect(m.invoke([new HumanMessage('hi')])).rejects.toMatchObject({ name: 'TimeoutError' });
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      hung.closeAllConnections();
      hung.close();
    }
  });

  it('builds a ScriptedChatModel from a script path relative to the config folder', async () => {
    const config = cfg({ name: 'demo', provider: 'scripted', script: './scenarios/demo.yaml' });
    const lead = createChatModel(config, opts());
    expect(lead).toBeInstanceOf(ScriptedChatModel);
    const first = await lead.invoke([new HumanMessage('go')]);
    expect(first.response_metadata).toMatchObject({ model_name: 'demo', finish_reason: 'tool_calls' });
    const subagent = createChatModel(config, { configDir: FIXTURES, role: { kind: 'subagent', taskPrompt: 'Find X now' } });
    expect((await subagent.invoke([new HumanMessage('Find X now')])).tool_calls?.[0]?.name).toBe('bash');
  });

  it('passes strict: false through to the scripted model (strict when absent)', async () => {
    const strict = createChatModel(cfg({ name: 'demo', provider: 'scripted', script: './scenarios/demo.yaml' }), opts());
    const lenient = createChatModel(cfg({ name: 'demo', provider: 'scripted', script: './scenarios/demo.yaml', strict: false }), opts());
    expect([(strict as ScriptedChatModel).strict, (lenient as ScriptedChatModel).strict]).toEqual([true, false]);
    const dangling = [new HumanMessage('go'), new AIMessage({ content: '', tool_calls: [{ type: 'tool_call', id: 'c1', name: 'bash', args: {} }] })];
    await expect(strict.invoke(dangling)).rejects.toMatchObject({ status: 400 });
    await expect(lenient.invoke(dangling)).resolves.toBeInstanceOf(AIMessage);
  });

  it('surfaces an invalid or missing scenario file as ScenarioInvalidError', () => {
    const err = thrown(() => createChatModel(cfg({ name: 'demo', provider: 'scripted', script: 'scenarios/nope.yaml' }), opts()));
    expect(isScenarioInvalidError(err)).toBe(true);
    expect((err as Error).message).toContain('nope.yaml');
  });

  it('throws ModelNotConfiguredError for an entry without a model id', () => {
    const broken: ModelConfig = { name: 'x', provider: 'openai', max_retries: 0 };
    expect(isModelNotConfiguredError(thrown(() => createChatModel(broken, opts({ OPENAI_API_KEY: 'k' }))))).toBe(true);
  });
});

describe('modelDisplayName and findModelConfig', () => {
  it('labels models', () => {
    expect(modelDisplayName(cfg({ name: 'fast', provider: 'openai', model: 'gpt-4o-mini' }))).toBe('fast (openai:gpt-4o-mini)');
    expect(modelDisplayName(cfg({ name: 'demo', provider: 'scripted', script: 'x.yaml' }))).toBe('demo (scripted)');
  });

  it('finds a configured model by name or throws ModelNotConfiguredError', () => {
    const models = [cfg({ name: 'demo', provider: 'scripted', script: 'x.yaml' })];
    expect(findModelConfig(models, 'demo').name).toBe('demo');
    const err = thrown(() => findModelConfig(models, 'gpt'));
    expect(err).toMatchObject({ name: 'ModelNotConfiguredError', code: 'MODEL_NOT_CONFIGURED', modelName: 'gpt' });
    expect((err as Error).message).toBe('model "gpt" is not configured (configured: "demo")');
  });
});
