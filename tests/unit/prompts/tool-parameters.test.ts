import { z } from 'zod';
import { batchTaskToolSpec, taskToolSpec, toolParameters } from '../../../src/prompts';

describe('toolParameters', () => {
  test('converts a key once and hands every caller its own copy', () => {
    let built = 0;
    const schema = () => {
      built += 1;
      return z.object({ q: z.string().describe('the query') });
    };
    const first = toolParameters('test-tool-once', schema);
    (first['properties'] as Record<string, unknown>)['q'] = 'changed by a provider';
    const second = toolParameters('test-tool-once', schema);
    expect(built).toBe(1);
    expect(second).toEqual(z.toJSONSchema(schema()));
    expect(second).not.toBe(first);
  });

  test('a spec follows what its schema text depends on: the subagent names and the item limit', () => {
    const subagentType = (spec: ReturnType<typeof taskToolSpec>) =>
      ((spec.function.parameters['properties'] as Record<string, { description: string }>)['subagent_type'] ?? { description: '' }).description;
    expect(subagentType(taskToolSpec({ subagentNames: ['general-purpose'], receiptsEnabled: false }))).toContain('One of: general-purpose.');
    expect(subagentType(taskToolSpec({ subagentNames: ['general-purpose', 'bash'], receiptsEnabled: false }))).toContain('One of: general-purpose, bash.');
    const items = (maxItems: number) =>
      (batchTaskToolSpec({ subagentNames: ['general-purpose'], maxItems }).function.parameters['properties'] as Record<string, { description: string }>)['items']?.description;
    expect(items(10)).toBe('The items, 1 to 10.');
    expect(items(500)).toBe('The items, 1 to 500.');
  });
});
