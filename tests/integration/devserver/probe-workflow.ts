/** A workflow of one activity, for the dispatch-latency test (bundled on its own). */
import { proxyActivities } from '@temporalio/workflow';

export interface ProbeActivities {
  echo(value: number): Promise<number>;
}

const { echo } = proxyActivities<ProbeActivities>({ startToCloseTimeout: '10 seconds' });

export async function probeWorkflow(value: number): Promise<number> {
  return echo(value);
}
