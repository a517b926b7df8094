import { parseConfigText } from '../../../src/config';
import { problemsOf } from './problems-of';

describe('worker.workflow_stack_trace_limit', () => {
  it("defaults to 4, takes whole frame counts from 0 to 100, and null for V8's own limit", () => {
    expect(parseConfigText('{}', null).worker.workflow_stack_trace_limit).toBe(4);
    expect(parseConfigText('worker:\n  workflow_stack_trace_limit: null\n', null).worker.workflow_stack_trace_limit).toBeNull();
    expect(parseConfigText('worker:\n  workflow_stack_trace_limit: 0\n', null).worker.workflow_stack_trace_limit).toBe(0);
    expect(parseConfigText('worker:\n  workflow_stack_trace_limit: 100\n', null).worker.workflow_stack_trace_limit).toBe(100);
  });

  it.each([
    ['-1', 'worker.workflow_stack_trace_limit: must be >= 0'],
    ['101', 'worker.workflow_stack_trace_limit: must be <= 100'],
    ['4.5', 'worker.workflow_stack_trace_limit: expected integer, got 4.5'],
    ['four', 'worker.workflow_stack_trace_limit: expected integer, got string'],
  ])('refuses %s, naming the key', (value, problem) => {
    expect(problemsOf(`worker:\n  workflow_stack_trace_limit: ${value}\n`)).toEqual([problem]);
  });
});
