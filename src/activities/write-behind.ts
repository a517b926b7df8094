/**
 * How long an activity holds a write back for the write it ends with, so that both share one
 * commit (one WAL sync on SQLite) when the work between them is quick. When the work takes longer
 * (a real model call), the held write lands on its own after this, so readers of the thread or of
 * the run's events see it while the work goes on. Either way the activity completes only after
 * both landed: a retry finds them, or writes them again (every such write is keyed).
 */
export const WRITE_BEHIND_MS = 100;
