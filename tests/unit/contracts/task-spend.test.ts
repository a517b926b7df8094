import { applyProgress } from '../../../src/contracts';
import { newTaskState } from '../../../src/workflows/new-lead-run-state';

const usage = { input_tokens: 30, output_tokens: 5, total_tokens: 35 };
const evidence = { receipts: 2, verdicts: { verified: 1, failed: 0, unknown: 0, unverified: 1 }, flagged: [] };

describe('applyProgress', () => {
  test('copies usage, model, evidence and where the execution resumed onto the task', () => {
    const task = newTaskState('0.0', 0, 'general-purpose', 'Job');
    applyProgress(task, { steps: 3, usage, modelName: 'scripted', evidence, resumedFrom: 2 });
    expect([task.usage, task.modelName, task.evidence, task.resumedSteps]).toEqual([usage, 'scripted', evidence, 2]);
  });

  test('a report without a model keeps the task\'s; one without usage or evidence clears them; no resume point leaves it', () => {
    const task = { ...newTaskState('0.0', 0, 'general-purpose', 'Job'), usage, modelName: 'earlier', evidence, resumedSteps: 4 };
    applyProgress(task, { steps: 0, usage: null, modelName: null, evidence: null });
    expect([task.usage, task.modelName, task.evidence, task.resumedSteps]).toEqual([null, 'earlier', null, 4]);
  });
});
