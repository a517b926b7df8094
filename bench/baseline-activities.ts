/**
 * The baseline's activity: does nothing and answers at once, so its round trip is pure Temporal
 * (schedule, poll, start, complete, workflow task) with no application work.
 */
export interface BaselineActivities {
  noop(index: number): Promise<number>;
}

/** Activity implementations registered on the baseline activity workers. */
export const baselineActivities: BaselineActivities = {
  noop: async (index: number) => index,
};
