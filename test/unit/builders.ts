// Test data through small builders, not copied blobs: a test states only the
// fields it is about, and a new model field is added in one place.
import type { Checkpoint, GitState } from '../../src/core/model';
import { emptyFields, emptyGit } from '../../src/core/model';

/** A git state with the given fields over an empty one. */
export function makeGit(overrides: Partial<GitState> = {}): GitState {
  return { ...emptyGit(), ...overrides };
}

/**
 * A checkpoint of project `kestrel` by `claude`, with every field present
 * (empty text "", empty list []). `git` is merged over an empty git state, so
 * `{ git: { branch: 'main' } as GitState }` need not spell out the rest; the
 * slug follows project and session unless given.
 */
export function makeCheckpoint(overrides: Partial<Checkpoint> = {}): Checkpoint {
  const session = overrides.session ?? '20260814-143207-claude';
  const project = overrides.project ?? 'kestrel';
  return {
    ...emptyFields(),
    agent: 'claude',
    handoffTo: '',
    autoClosed: false,
    ts: Date.UTC(2026, 7, 14, 14, 32, 7) / 1000,
    follows: '',
    extra: {},
    ...overrides,
    session,
    project,
    git: makeGit(overrides.git),
    slug: overrides.slug ?? `sessions/${project}/${session}`,
  };
}
