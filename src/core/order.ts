import type { Checkpoint } from './model';

/** Newest first by the checkpointed time, then by file name descending: the contract's order. */
export function newestFirst<T extends Pick<Checkpoint, 'ts' | 'session'>>(a: T, b: T): number {
  if (a.ts !== b.ts) return b.ts - a.ts;
  return a.session < b.session ? 1 : a.session > b.session ? -1 : 0;
}
