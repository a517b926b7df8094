import { useFaultCluster } from './fault-cluster';
import { endPayloads, killAndRecover, stepPayloads, TURNS } from './subagent-resume';

const cluster = useFaultCluster();

test('subagents.resume: false: the attempt after kill -9 starts over (every turn runs again)', async () => {
  const { state, events, callsAfterKill } = await killAndRecover(cluster, false);

  expect(state.status).toBe('completed');
  expect(state.tasks).toEqual([expect.objectContaining({ status: 'completed', attempts: 2 })]);
  expect(state.tasks[0]?.resumedSteps ?? 0).toBe(0);
  expect(callsAfterKill).toBe(TURNS);
  const ends = endPayloads(events);
  expect(ends).toHaveLength(1);
  expect(ends[0]?.resumed_steps).toBeUndefined();
  expect(stepPayloads(events).some((s) => s.resumed_from !== undefined)).toBe(false);
}, 120_000);
