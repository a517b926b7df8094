import { executionScopeOf, formatZodIssues, SubagentTaskInputSchema, subagentTaskWire, type BatchItemExecution, type LeadTaskExecution } from '../../../src/contracts';

const common = {
  threadId: 'thread-1',
  userId: 'user-1',
  attempt: 2,
  subagentType: 'general-purpose',
  description: 'summarise',
  parentModel: 'scripted',
  maxTurns: 10,
  availableSkills: null,
};
const task: LeadTaskExecution = { kind: 'task', ...common, runId: 'run-1', taskId: '0.1', toolCallId: 'call_a', turn: 0, deadlineSeconds: 60 };
const item: BatchItemExecution = { kind: 'batchItem', ...common, batchId: 'batch-1', key: '007' };

describe('SubagentTaskInputSchema', () => {
  it('reads both tagged shapes as they are', () => {
    expect(SubagentTaskInputSchema.parse(task)).toEqual(task);
    expect(SubagentTaskInputSchema.parse(item)).toEqual(item);
  });

  it('reads the untagged inputs of workflows from before the tagged shape, dropping the item stand-ins', () => {
    const { kind: _task, ...untaggedTask } = task;
    expect(SubagentTaskInputSchema.parse(untaggedTask)).toEqual(task);
    const untaggedItem = { ...common, runId: 'batch-1', taskId: '007', turn: 0, batchItem: { batchId: 'batch-1', key: '007' } };
    expect(SubagentTaskInputSchema.parse(untaggedItem)).toEqual(item);
  });

  it('reads back what workflows send', () => {
    expect(SubagentTaskInputSchema.parse(subagentTaskWire(task))).toEqual(task);
    expect(SubagentTaskInputSchema.parse(subagentTaskWire(item))).toEqual(item);
  });

  it('names the field an input lacks', () => {
    const { key: _key, ...noKey } = item;
    const parsed = SubagentTaskInputSchema.safeParse(noKey);
    expect(parsed.success).toBe(false);
    expect(formatZodIssues(parsed.error?.issues ?? [], 'input')).toMatch(/^key: /);
    const untagged = SubagentTaskInputSchema.safeParse({ ...common, runId: 'batch-1', taskId: '007', turn: 0, batchItem: { batchId: 'batch-1' } });
    expect(formatZodIssues(untagged.error?.issues ?? [], 'input')).toMatch(/^key: /);
    expect(formatZodIssues(SubagentTaskInputSchema.safeParse({ ...task, kind: 'lead' }).error?.issues ?? [], 'input')).toMatch(/^kind: /);
  });
});

describe('subagentTaskWire', () => {
  it('sends a batch item with the fields a worker of the previous release reads, a task as it is', () => {
    expect(subagentTaskWire(task)).toBe(task);
    expect(subagentTaskWire(item)).toEqual({ ...item, runId: 'batch-1', taskId: '007', turn: 0, batchItem: { batchId: 'batch-1', key: '007' } });
  });
});

describe('executionScopeOf', () => {
  it('files a task under its run and task id, an item under its batch id and key', () => {
    expect(executionScopeOf(task)).toEqual({ threadId: 'thread-1', runId: 'run-1', taskId: '0.1' });
    expect(executionScopeOf(item)).toEqual({ threadId: 'thread-1', runId: 'batch-1', taskId: '007' });
  });
});
