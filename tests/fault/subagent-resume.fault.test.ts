import { useFaultCluster } from './fault-cluster';
import { ALL_TURNS_USAGE, endPayloads, killAndRecover, stepPayloads, STORED_TURNS, TURNS } from './subagent-resume';

const cluster = useFaultCluster();

test('kill -9 after turn 6 is stored: the next attempt resumes there, 10 model calls in all, usage once per call, one end', async () => {
  const { state, events, callsAfterKill } = await killAndRecover(cluster, true);

  expect(state.status).toBe('completed');
  const resumedSteps = STORED_TURNS * 2; // six assistant turns and their tool results
  expect(state.tasks).toEqual([
    expect.objectContaining({
      status: 'completed',
      attempts: 2,
      resumedSteps,
      usage: { ...ALL_TURNS_USAGE, total_tokens: ALL_TURNS_USAGE.input_tokens + ALL_TURNS_USAGE.output_tokens },
      // Receipts go on from the turns taken over: nine tool calls, r1..r9.
      evidence: expect.objectContaining({ receipts: TURNS - 1 }),
    }),
  ]);
  // Turns 7 to 10 only: the six stored turns were not run again.
  expect(callsAfterKill).toBe(TURNS - STORED_TURNS);

  const ends = endPayloads(events);
  expect(ends).toHaveLength(1);
  expect(ends[0]).toMatchObject({ status: 'completed', attempts: 2, resumed_steps: resumedSteps });
  // The resumed execution's first step says where it took over, and its steps continue the numbering.
  const resumedAt = stepPayloads(events).filter((s) => s.resumed_from !== undefined);
  expect(resumedAt).toEqual([expect.objectContaining({ resumed_from: resumedSteps, message_index: resumedSteps + 1 })]);
  // Every step is in the timeline once: the killed attempt's unflushed rows were written by its successor.
  const indexes = stepPayloads(events).map((s) => s.message_index).sort((a, b) => a - b);
  expect(indexes).toEqual(Array.from({ length: TURNS * 2 - 1 }, (_, i) => i + 1));
  // Restored rows carry the usage after their step: the last taken-over turn's is that of turns 1 to 6.
  const lastTakenOver = stepPayloads(events).find((s) => s.message_index === resumedSteps - 1);
  expect(lastTakenOver?.usage?.output_tokens).toBe((STORED_TURNS * (STORED_TURNS + 1)) / 2);
}, 120_000);
