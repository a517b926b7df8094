import { taskPromptOf } from '../../../src/activities/task-prompt';

const args = (extra: Record<string, unknown>) => ({ args: { subagent_type: 'general-purpose', description: 'Look it up', ...extra } });

test("a task call's prompt and criteria; arguments that do not validate give none", () => {
  expect(taskPromptOf(args({ prompt: 'first' }))).toEqual({ prompt: 'first', acceptanceCriteria: undefined });
  expect(taskPromptOf(args({ prompt: 'second', acceptance_criteria: ['cites a source'] }))).toEqual({ prompt: 'second', acceptanceCriteria: ['cites a source'] });
  expect(taskPromptOf(args({ prompt: 42 }))).toBeNull();
  expect(taskPromptOf(args({}))).toBeNull();
  expect(taskPromptOf(args({ prompt: 'ok', unknown_field: true }))).toBeNull();
});
