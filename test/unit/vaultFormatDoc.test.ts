// docs/vault-format.md is the contract: every frontmatter key Baton writes,
// the contract's own and Baton's, is named there, so a new key cannot ship
// without the page saying what it means.
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { renderCheckpoint, renderPlan } from '../../src/adapters/markdown/checkpointFile';
import { makeCheckpoint, makeGit } from './builders';

const DOC = fs.readFileSync(path.resolve(__dirname, '../../docs/vault-format.md'), 'utf8');

/** The top-level keys of a rendered file's frontmatter. */
function keys(text: string): string[] {
  const front = text.slice(4, text.indexOf('\n---\n'));
  return front.split('\n').flatMap((line) => /^([a-z_]+):/.exec(line)?.[1] ?? []);
}

describe('docs/vault-format.md', () => {
  it('names every frontmatter key a checkpoint or a plan is written with', () => {
    // Every key set: the contract's, and the ones Baton's commits and hooks add.
    const cp = makeCheckpoint({
      handoffTo: 'cursor',
      autoClosed: true,
      follows: '20260814-120000-claude',
      git: makeGit({ branch: 'main', commit: 'abc1234', subject: 's', dirty: 2, unreadable: true, worktree: '/w', files: ['a.ts'] }),
      extra: { folded: ['x'], machine: '0123456789abcdef', commits: ['abc1234'], agent_session: 's', transcript: '/t', cwd: '/c', capture: 'extractive', capture_source: 'notes' },
    });
    const written = [...keys(renderCheckpoint(cp)), ...keys(renderPlan({ project: 'kestrel', agent: 'claude', ts: 1_755_000_000, text: 'p' }))];
    assert.ok(written.length >= 25, written.join(', '));
    const missing = [...new Set(written)].filter((k) => !DOC.includes(`\`${k}\``));
    assert.deepEqual(missing, []);
  });
});
