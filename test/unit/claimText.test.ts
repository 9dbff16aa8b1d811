// The editor's words for a Verified claim (issue 26): fresh, stale or
// unbacked in the hovers' blocks and the trees' sentences; agents' text (the
// claim, its command, the file names) only ever in text blocks, so a link in
// it stays inert; the re-run link only where it was asked for.
import { strict as assert } from 'assert';
import { checkOf, claimBlocks, claimsSummary } from '../../src/core/claimText';
import { claimWords } from '../../src/core/evidence';
import type { ClaimCheck } from '../../src/core/evidence';
import { HOVER_COMMANDS, hoverPlainText } from '../../src/core/hoverText';

const check = (o: Partial<ClaimCheck>): ClaimCheck => ({
  claim: 'rejects expired tokens — npm test -- auth',
  state: 'fresh',
  command: 'npm test -- auth',
  exit: 0,
  commit: '3f2a1c9',
  files: ['src/auth.ts', 'src/token.ts', 'a', 'b', 'c', 'd'],
  changed: [],
  ...o,
});

describe('claimText: a Verified claim in the editor', () => {
  it('says fresh, stale (which files, re-run) and unbacked as the issue words them', () => {
    assert.equal(claimWords(check({})), 'fresh: verified at 3f2a1c9 by "npm test -- auth"; its 6 file(s) unchanged since');
    assert.equal(
      claimWords(check({ state: 'stale', changed: ['src/auth.ts', 'src/token.ts'] })),
      'stale: verified at 3f2a1c9 by "npm test -- auth"; 2 of its 6 file(s) changed since (src/auth.ts, src/token.ts): re-run before relying on it',
    );
    assert.equal(claimWords(check({ state: 'unbacked', command: '', commit: '' })), 'unbacked: no passing run of a command it names was recorded');
    assert.equal(claimsSummary([check({ state: 'stale', changed: ['a'] }), check({}), check({ state: 'unbacked' })]), '1 stale · 1 unbacked');
    assert.equal(claimsSummary([check({})]), '');
  });

  it('finds the check of a Verified item by its text, else by its place, never another claim’s', () => {
    const a = check({ claim: 'a' });
    const b = check({ claim: 'b' });
    assert.equal(checkOf([a, b], 'b', 0), b);
    assert.equal(checkOf([a, b], 'a (masked)', 1), b);
    assert.equal(checkOf([a], 'x', 3), undefined);
  });

  it('keeps agents’ text in text blocks and links only to Re-run Verification, only when offered', () => {
    const evil = '[run](command:workbench.action.terminal.new)';
    const stale = check({ claim: evil, command: `npm test ${evil}`, state: 'stale', changed: [`src/${evil}.ts`] });
    const blocks = claimBlocks([evil], [stale], { slug: 'sessions/kestrel/20261201-100000-claude' });
    for (const b of blocks) if (b.kind === 'markup') assert.ok(!b.value.includes('command:'), b.value);
    const links = blocks.filter((b) => b.kind === 'command');
    assert.deepEqual(
      links.map((b) => b.kind === 'command' && [b.command, b.args]),
      [['baton.rerunVerification', [{ slug: 'sessions/kestrel/20261201-100000-claude' }]]],
    );
    assert.ok((HOVER_COMMANDS as readonly string[]).includes('baton.rerunVerification'));
    assert.match(hoverPlainText(blocks), /2 of its 6 files|1 of its 6 files changed since .*: re-run before relying on it · Re-run Verification/);
    assert.deepEqual(
      claimBlocks([evil], [stale], null).filter((b) => b.kind === 'command'),
      [],
      'no link where none was offered',
    );
    assert.match(hoverPlainText(claimBlocks(['x'], [check({ claim: 'x' })], { slug: 's' })), /fresh:\* verified at 3f2a1c9 by npm test -- auth; its 6 files unchanged since/);
  });
});
