import assert from 'node:assert/strict';
import { BatonError } from '../../src/core/errors';
import { rootProject, safe, safeName, safeScope } from '../../src/core/names';

const utf8 = (s: string): number => Buffer.byteLength(s, 'utf8');

const refusedWith = (fn: () => unknown, phrase: string | RegExp): void => {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof BatonError, 'a BatonError');
    assert.equal(err.kind, 'refused');
    if (typeof phrase === 'string') assert.ok(err.message.includes(phrase), err.message);
    else assert.match(err.message, phrase);
    return true;
  });
};

describe('safe', () => {
  it('lowercases, trims and makes separators one dash', () => {
    assert.equal(safe('  Kestrel One  '), 'kestrel-one');
    assert.equal(safe('kestrel-one'), 'kestrel-one');
    assert.equal(safe('a__b..c//d  e--f'), 'a-b-c-d-e-f');
    assert.equal(safe('-_. a .-_'), 'a');
  });

  it('drops everything that is not a letter, digit or separator, before collapsing runs', () => {
    assert.equal(safe('a - ! - b'), 'a-b');
    assert.equal(safe('fix!!! (v2)'), 'fix-v2');
    assert.equal(safe('rocket🚀ship'), 'rocketship');
    assert.equal(safe('tab\there'), 'tabhere');
    assert.equal(safe('nul\u0000l'), 'null');
  });

  it('keeps letters and digits of any script, and combining marks', () => {
    assert.equal(safe('Кестрел'), 'кестрел');
    assert.equal(safe('東京 プロジェクト'), '東京-プロジェクト');
    assert.equal(safe('हिन्दी परियोजना'), 'हिन्दी-परियोजना');
    assert.equal(safe('café'), 'café');
    assert.equal(safe('٣٤ ۵'), '٣٤-۵');
  });

  it('returns "" when nothing survives', () => {
    for (const s of ['', '   ', '🚀', '!!!', '..', '/', '-_-']) assert.equal(safe(s), '', s);
  });

  it('cuts to 255 bytes without splitting a UTF-8 sequence', () => {
    const ascii = safe('a'.repeat(400));
    assert.equal(ascii.length, 255);
    const cyr = safe('ж'.repeat(200)); // 2 bytes each: 127 fit
    assert.equal(utf8(cyr), 254);
    assert.equal(cyr, 'ж'.repeat(127));
    const cjk = safe('東'.repeat(100)); // 3 bytes each: 85 fit
    assert.equal(utf8(cjk), 255);
    const astral = safe('aa' + '𠀀'.repeat(64)); // 4-byte letters: 2 + 63*4 = 254, a 64th would straddle 255
    assert.equal(astral, 'aa' + '𠀀'.repeat(63));
    assert.equal(utf8(astral), 254);
    assert.equal(Buffer.from(astral, 'utf8').toString('utf8'), astral);
  });

  it('does not end in a dash after the cut', () => {
    const s = safe('a'.repeat(254) + ' b');
    assert.equal(s, 'a'.repeat(254));
  });
});

describe('safeName', () => {
  it('returns the safe form', () => {
    assert.equal(safeName('Claude Code', 'agent'), 'claude-code');
  });

  it('refuses a blank name, saying what is needed', () => {
    refusedWith(() => safeName('   ', 'agent'), /agent is needed/);
    refusedWith(() => safeName('', 'project'), /project is needed/);
  });

  it('refuses a name with no letters or digits, in the contract words', () => {
    for (const s of ['🚀', '!!!', '🚀🚀 🎉', '...']) {
      refusedWith(() => safeName(s, 'project'), 'has no letters or digits to make a filename from');
    }
  });
});

describe('safeScope', () => {
  it('keeps project and worktree', () => {
    assert.equal(safeScope('Kestrel'), 'kestrel');
    assert.equal(safeScope('Kestrel/Feature Branch'), 'kestrel/feature-branch');
  });

  it('never lets a path escape the vault', () => {
    assert.equal(safeScopeOr('..'), 'refused');
    assert.equal(safeScopeOr('../../etc/passwd'), 'etc/passwd');
    assert.equal(safeScopeOr('/etc/passwd'), 'etc/passwd');
    assert.equal(safeScopeOr('./kestrel/./wt'), 'kestrel/wt');
    assert.equal(safeScopeOr('kestrel\\..\\wt'), 'kestrel/wt');
    assert.equal(safeScopeOr('C:\\Users'), 'c/users');
    assert.equal(safeScopeOr('//a///b//'), 'a/b');
  });

  it('refuses a blank scope and one that is only dots and slashes', () => {
    refusedWith(() => safeScope(''), /project is needed/);
    refusedWith(() => safeScope('  '), /project is needed/);
    for (const s of ['..', '../..', '/', '\\', '🚀', '🚀/🎉']) {
      refusedWith(() => safeScope(s), 'has no letters or digits to make a filename from');
    }
  });

  it('agrees with safe on a single part', () => {
    for (const s of ['Кестрел', '東京', 'हिन्दी', 'My Project.v2']) assert.equal(safeScope(s), safe(s));
  });
});

describe('names: one spelling per name', () => {
  const composed = 'caf\u00e9';
  const decomposed = 'cafe\u0301';

  it('normalises to NFC, so café typed composed or decomposed is one project, agent and worktree', () => {
    assert.notEqual(composed, decomposed);
    assert.equal(safe(decomposed), composed);
    assert.equal(safeName(decomposed, 'agent'), safeName(composed, 'agent'));
    assert.equal(safeScope(decomposed), safeScope(composed));
    assert.equal(safeScope(`kestrel/${decomposed}`), `kestrel/${composed}`);
    // Hangul typed as jamo is one syllable block per character.
    assert.equal(safe('\u1112\u1161\u11ab'), '\ud55c');
  });

  it('refuses a scope deeper than project/worktree, saying so, instead of cutting it', () => {
    for (const s of ['a/b/c', 'a/b/c/d', 'C:\\Users\\me', 'kestrel/wt/extra', '/srv/kestrel/wt']) {
      refusedWith(() => safeScope(s), /at most two parts.*project\/worktree/);
    }
    // Empty parts and dots still vanish first: these are two parts.
    assert.equal(safeScope('//a///b//'), 'a/b');
    assert.equal(safeScope('a/../b'), 'a/b');
    assert.equal(safeScope('./kestrel/./wt'), 'kestrel/wt');
  });
});

describe('names: a name that is a secret is never written', () => {
  // Built at run time so no scanner takes this file for a leak.
  const body = (n: number): string => Array.from({ length: n }, (_, i) => 'aB3dE5gH7jK9mN1pQ2sT4vW6yZ8'[(i * 7 + 3) % 27]).join('');
  const secretNames = [
    'ghp' + '_' + body(36),
    'sk-proj-' + body(40),
    'AKIA' + 'QWERTYUIOPASDFGH',
    'glpat' + '-' + body(20),
    'xapp' + '-1-A' + body(10) + '-123456-' + body(20).toLowerCase(),
    'hf' + '_' + body(34).replace(/[0-9]/g, 'x'),
    'dckr' + '_pat_' + body(27),
    'feature-' + 'ghp' + '_' + body(36),
    'kestrel/' + 'ghp' + '_' + body(36),
    'PGPASSWORD=' + body(12),
  ];

  it('refuses it as a project, worktree, agent or hand-off, without repeating it', () => {
    for (const name of secretNames) {
      for (const fn of [() => safeScope(name), () => safeName(name, 'agent'), () => safeName(name, 'handoff target')]) {
        assert.throws(
          fn,
          (err: unknown) => {
            assert.ok(err instanceof BatonError && err.kind === 'refused', String(err));
            assert.match(err.message, /looks like a secret/);
            assert.ok(!err.message.toLowerCase().includes(body(20).toLowerCase()), 'the message does not repeat the secret');
            return true;
          },
          name,
        );
      }
      assert.equal(safe(name), '', `safe() drops ${name}`);
    }
  });

  it('leaves ordinary names alone', () => {
    for (const name of [
      'sk-learn-compat-shims-for-tests',
      'risk-assessment-for-the-payment-module-v2',
      'test_password_reset_flow',
      'token-service',
      'kestrel/feature-auth-token',
      'claude-code',
      'hf-transformers',
      'npm-audit',
    ]) {
      assert.ok(safeScope(name).length > 0, name);
      assert.ok(safeName(name, 'agent').length > 0, name);
    }
  });
});

describe('rootProject', () => {
  it('is the first part of a scope', () => {
    assert.equal(rootProject('kestrel/wt'), 'kestrel');
    assert.equal(rootProject('kestrel'), 'kestrel');
  });
});

/** safeScope, or "refused" when it refuses: keeps table rows one line each. */
function safeScopeOr(s: string): string {
  try {
    return safeScope(s);
  } catch {
    return 'refused';
  }
}
