import { ApplicationFailure } from '@temporalio/common';

/** The `ApplicationFailure` `p` rejects with. @throws when `p` resolves, or rejects with anything else */
export async function applicationFailureOf(p: Promise<unknown>): Promise<ApplicationFailure> {
  const err = await p.then(
    () => new Error('expected a failure'),
    (e: unknown) => e,
  );
  if (!(err instanceof ApplicationFailure)) throw err;
  return err;
}
