import {
  isMissingApiKeyError,
  isModelError,
  isScenarioInvalidError,
  isScriptedProviderError,
  MissingApiKeyError,
  ScenarioInvalidError,
  ScriptedProviderError,
} from '../../../src/models/errors';

describe('model errors', () => {
  it.each([
    ['429 rate limited', 429],
    ['503', 503],
    ['500: upstream down', 500],
    ['4290 not a status', undefined],
    ['rate limited 429', undefined],
    ['999 out of range', undefined],
  ])('parses the status of %p', (message, status) => {
    const err = new ScriptedProviderError(message);
    expect(err.status).toBe(status);
    expect(err.message).toBe(message);
    expect(err.name).toBe('ScriptedProviderError');
    expect(err.code).toBe('SCRIPTED_PROVIDER_ERROR');
  });

  it('words a rejected request as a provider 400 and keeps the violation', () => {
    const violation = { rule: 'orphan_tool_message', index: 2, detail: "messages[2]: tool message without its call (tool_call_id 'c1')" } as const;
    const err = ScriptedProviderError.invalidRequest(violation);
    expect(err.message).toBe("400 invalid request: messages[2]: tool message without its call (tool_call_id 'c1')");
    expect(err.status).toBe(400);
    expect(err.violation).toBe(violation);
    expect(new ScriptedProviderError('429 rate limited').violation).toBeUndefined();
    expect(isScriptedProviderError(err)).toBe(true);
  });

  it('predicates check the brand and code, not the class', () => {
    const scenario = new ScenarioInvalidError('a.yaml', ['lead: bad'], 'scenario a.yaml: lead: bad');
    const key = new MissingApiKeyError('m', 'X_KEY');
    expect([isScenarioInvalidError(scenario), isMissingApiKeyError(scenario), isModelError(scenario)]).toEqual([true, false, true]);
    expect([isMissingApiKeyError(key), isScriptedProviderError(key)]).toEqual([true, false]);
    expect(isModelError(new Error('plain'))).toBe(false);
    expect(isModelError({ code: 'MISSING_API_KEY' })).toBe(false);
    expect(isModelError(null)).toBe(false);
    expect(scenario).toBeInstanceOf(Error);
    expect(scenario.stack).toContain('ScenarioInvalidError');
  });
});
