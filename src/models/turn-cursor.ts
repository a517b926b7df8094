/**
 * Pure position → turn mapping for scripted turn lists with `repeat`.
 * No I/O and no state: the caller owns the position.
 */

/** Anything with the scenario `repeat` field (absent = answer once). */
export interface Repeatable {
  readonly repeat?: number | 'forever' | undefined;
}

/** What a position maps to: a turn (with its index in the list) or the end of the script. */
export type TurnLookup<T> =
  | { readonly kind: 'turn'; readonly turn: T; readonly index: number }
  | { readonly kind: 'exhausted' };

/**
 * Maps a 0-based answer position to the turn that answers it. A turn with `repeat: N` covers N
 * consecutive positions; `repeat: 'forever'` covers every later position, so the list never moves
 * past it.
 * @param turns - the turn list
 * @param position - 0-based count of answers already given
 * @returns the turn, or `{ kind: 'exhausted' }` when the list has run out
 * @throws RangeError when `position` is negative or not an integer
 */
export function turnAt<T extends Repeatable>(turns: readonly T[], position: number): TurnLookup<T> {
  if (!Number.isInteger(position) || position < 0) {
    throw new RangeError(`turn position must be a non-negative integer, got ${position}`);
  }
  let remaining = position;
  for (let index = 0; index < turns.length; index++) {
    const turn = turns[index];
    if (turn === undefined) continue;
    const span = turn.repeat ?? 1;
    if (span === 'forever' || remaining < span) return { kind: 'turn', turn, index };
    remaining -= span;
  }
  return { kind: 'exhausted' };
}
