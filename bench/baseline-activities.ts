/**
 * The baseline's activities. `noop` does nothing and answers at once, so its round trip is pure
 * Temporal (schedule, poll, start, complete, workflow task) with no application work. `agentTask`
 * runs one in-process agent task (the batch benchmark's raw + agent anchor), where a worker has it.
 */
export interface BaselineActivities {
  noop(index: number): Promise<number>;
  agentTask(index: number): Promise<number>;
}

/** The name of a baseline activity. */
export type BaselineActivityName = keyof BaselineActivities;

/** Activity implementations registered on the baseline activity workers; `agentTask` only where one is given. */
export function baselineActivities(agentTask?: BaselineActivities['agentTask']): Partial<BaselineActivities> {
  return { noop: async (index: number) => index, ...(agentTask ? { agentTask } : {}) };
}
