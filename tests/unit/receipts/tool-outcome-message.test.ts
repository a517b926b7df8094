import type { FinishedTask, SubagentEvidence } from '../../../src/contracts';
import { SUBAGENT_EVIDENCE_KWARG, toolOutcomeMessage } from '../../../src/activities/tool-outcome-message';
import type { TaskResultStore } from '../../../src/store';

const results: TaskResultStore = {
  putResult: async () => 'unused',
  getResult: async (ref) => (ref === 'ref-1' ? 'Created notes.txt [r1 bash]. Deleted the cache.' : null),
};

const EVIDENCE: SubagentEvidence = {
  receipts: 1,
  verdicts: { verified: 1, failed: 0, unknown: 0, unverified: 1 },
  flagged: ['UNVERIFIED: "Deleted the cache." cites no receipt'],
};

function task(overrides: Partial<FinishedTask>): FinishedTask {
  return {
    taskId: 'call_1',
    turn: 0,
    subagent: 'general-purpose',
    description: 'Notes',
    status: 'completed',
    stopReason: null,
    modelName: 'scripted',
    usage: null,
    resultSha256: null,
    resultRef: 'ref-1',
    error: null,
    errorCode: null,
    attempts: 1,
    evidence: EVIDENCE,
    extendedSeconds: 0,
    ...overrides,
  };
}

describe('toolOutcomeMessage with a receipt check', () => {
  it('appends the advisory evidence check to a completed result and stamps the structured summary', async () => {
    const message = await toolOutcomeMessage({ kind: 'subagent', toolCallId: 'call_1', task: task({}) }, results);
    expect(message.content).toBe(
      [
        'Task Succeeded. Result: Created notes.txt [r1 bash]. Deleted the cache.',
        '',
        'Evidence check (advisory, 1 tool receipt): 1 verified, 0 failed, 0 unknown, 1 UNVERIFIED.',
        '- UNVERIFIED: "Deleted the cache." cites no receipt',
        'A verified citation shows only that the call happened, not that the claim is correct.',
      ].join('\n'),
    );
    expect(message.status).toBe('success');
    expect(message.additional_kwargs[SUBAGENT_EVIDENCE_KWARG]).toEqual(EVIDENCE);
    expect(message.additional_kwargs['subagent_status']).toBe('completed');
  });

  it('shows a clean check (nothing flagged) only in metadata', async () => {
    const clean = { receipts: 1, verdicts: { verified: 1, failed: 0, unknown: 0, unverified: 0 }, flagged: [] };
    const message = await toolOutcomeMessage({ kind: 'subagent', toolCallId: 'call_1', task: task({ evidence: clean }) }, results);
    expect(message.content).toBe('Task Succeeded. Result: Created notes.txt [r1 bash]. Deleted the cache.');
    expect(message.additional_kwargs[SUBAGENT_EVIDENCE_KWARG]).toEqual(clean);
  });

  it('keeps a failed task text as it was, with the evidence only in metadata', async () => {
    const evidence = { ...EVIDENCE, verdicts: { verified: 0, failed: 0, unknown: 0, unverified: 0 }, flagged: [] };
    const message = await toolOutcomeMessage(
      { kind: 'subagent', toolCallId: 'call_1', task: task({ status: 'failed', resultRef: null, error: 'boom', evidence }) },
      results,
    );
    expect(message.content).toBe('Task failed. Error: boom');
    expect(message.additional_kwargs[SUBAGENT_EVIDENCE_KWARG]).toEqual(evidence);
  });

  it('adds nothing without evidence (receipts off, or a task recorded before receipts)', async () => {
    for (const evidence of [null, undefined]) {
      const message = await toolOutcomeMessage(
        { kind: 'subagent', toolCallId: 'call_1', task: task({ evidence: evidence as unknown as null }) },
        results,
      );
      expect(message.content).toBe('Task Succeeded. Result: Created notes.txt [r1 bash]. Deleted the cache.');
      expect(SUBAGENT_EVIDENCE_KWARG in message.additional_kwargs).toBe(false);
    }
  });
});
