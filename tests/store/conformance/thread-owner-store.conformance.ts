import { isThreadOwnerError, type Stores } from '../../../src/store';
import { ISO_UTC, useStores, type StoresInit } from './fixtures';
import type { StoresLocation } from './persistence.conformance';

/** ThreadOwnerStore contract: the first claim wins for good, a repeat by the owner is a no-op, inputs are validated. */
export function threadOwnerStoreSpec(init: StoresInit): void {
  describe('ThreadOwnerStore', () => {
    const stores = useStores(init);

    it('a thread nobody claimed has no owner', async () => {
      expect(await stores().threads.get('t1')).toBeNull();
    });

    it('the first claim wins; a later claim by another user returns the first owner unchanged', async () => {
      const alice = await stores().threads.claim('t1', 'alice', 'run');
      expect(alice).toEqual({ threadId: 't1', ownerId: 'alice', kind: 'run', claimedAt: expect.stringMatching(ISO_UTC) });
      expect(await stores().threads.claim('t1', 'bob', 'batch')).toEqual(alice);
      expect(await stores().threads.get('t1')).toEqual(alice);
    });

    it('a claim by the owner again is a no-op (kind and time stay those of the first claim)', async () => {
      const first = await stores().threads.claim('t1', 'alice', 'batch');
      expect(await stores().threads.claim('t1', 'alice', 'run')).toEqual(first);
      expect(first.kind).toBe('batch');
    });

    it('threads are apart, and ids are exact (case matters)', async () => {
      await stores().threads.claim('t1', 'alice', 'run');
      expect((await stores().threads.claim('T1', 'bob', 'run')).ownerId).toBe('bob');
      expect((await stores().threads.claim('t1.x', 'carol', 'batch')).ownerId).toBe('carol');
      expect((await stores().threads.get('t1'))?.ownerId).toBe('alice');
    });

    it('concurrent first claims on one store store exactly one owner, and every caller learns it', async () => {
      const claims = await Promise.all(['u1', 'u2', 'u3', 'u4'].map((user) => stores().threads.claim('contested', user, 'run')));
      const owner = claims[0]!;
      expect(claims).toEqual(claims.map(() => owner));
      expect(await stores().threads.get('contested')).toEqual(owner);
    });

    it('refuses an invalid claim naming the field, and stores nothing', async () => {
      const refusal = async (threadId: string, ownerId: string, kind: string): Promise<unknown> =>
        stores()
          .threads.claim(threadId, ownerId, kind as 'run')
          .then(
            () => null,
            (err: unknown) => err,
          );
      const bad = await refusal('../etc', 'alice', 'run');
      expect(isThreadOwnerError(bad, 'invalid')).toBe(true);
      expect(bad).toMatchObject({ threadId: '../etc', message: expect.stringMatching(/^invalid thread claim: threadId: must be 1-128 characters/) });
      expect(await refusal('t1', ' alice', 'run')).toMatchObject({ code: 'invalid', issues: ['ownerId: must have no control characters and no surrounding spaces'] });
      expect(await refusal('t1', '', 'run')).toMatchObject({ code: 'invalid', issues: ['ownerId: must not be empty'] });
      expect(await refusal('t1', 'alice', 'thread')).toMatchObject({ code: 'invalid', issues: [expect.stringMatching(/^kind: /)] });
      expect(await stores().threads.get('t1')).toBeNull();
    });
  });
}

/**
 * Claims through separate connections to one storage location (SQLite: two stores on one file;
 * PostgreSQL: two pools): still exactly one owner, and the claim survives close and reopen.
 */
export function threadOwnerSharingSpec(location: StoresLocation): void {
  describe('ThreadOwnerStore across connections', () => {
    it('concurrent first claims from two connections: one wins, both see it, and it persists', async () => {
      const open = await location();
      const connections: Stores[] = await Promise.all([open(), open()]);
      try {
        for (let round = 0; round < 10; round += 1) {
          const threadId = `race-${round}`;
          const claims = await Promise.all(connections.flatMap((s, i) => [s.threads.claim(threadId, `c${i}-a`, 'run'), s.threads.claim(threadId, `c${i}-b`, 'batch')]));
          const owner = claims[0]!;
          expect(claims).toEqual(claims.map(() => owner));
          for (const s of connections) expect(await s.threads.get(threadId)).toEqual(owner);
        }
      } finally {
        await Promise.all(connections.map((s) => s.close()));
      }
      const reopened = await open();
      try {
        expect((await reopened.threads.get('race-0'))?.threadId).toBe('race-0');
        const owner = (await reopened.threads.get('race-9'))!;
        expect(await reopened.threads.claim('race-9', 'latecomer', 'run')).toEqual(owner);
      } finally {
        await reopened.close();
      }
    });
  });
}
