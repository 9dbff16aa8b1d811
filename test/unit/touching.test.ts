import assert from 'node:assert/strict';
import fc from 'fast-check';
import { normalizeTouchPath, pathsMatch, touchKey } from '../../src/core/touching';

const TARGET = 'internal/memory/vaultstore.go';

describe('normalizeTouchPath', () => {
  it('trims spaces, backticks and quotes', () => {
    assert.equal(normalizeTouchPath('  `src/a.ts`  '), 'src/a.ts');
    assert.equal(normalizeTouchPath('"src/a.ts"'), 'src/a.ts');
    assert.equal(normalizeTouchPath("'src/a.ts'"), 'src/a.ts');
  });

  it('turns backslashes into slashes and strips ./ and trailing /', () => {
    assert.equal(normalizeTouchPath('internal\\memory\\vaultstore.go'), TARGET);
    assert.equal(normalizeTouchPath('./././src/'), 'src');
    assert.equal(normalizeTouchPath('.\\src\\'), 'src');
    assert.equal(normalizeTouchPath('src///'), 'src');
  });

  it('cuts at the first space, tab or parenthesis', () => {
    assert.equal(normalizeTouchPath('store.go (rewritten)'), 'store.go');
    assert.equal(normalizeTouchPath('store.go(rewritten)'), 'store.go');
    assert.equal(normalizeTouchPath('store.go\tnew'), 'store.go');
    assert.equal(normalizeTouchPath('`dir/` (new)'), 'dir');
    assert.equal(normalizeTouchPath('./a.ts — added tests'), 'a.ts');
  });

  it('keeps case: paths are case-sensitive', () => {
    assert.equal(normalizeTouchPath('Src/A.ts'), 'Src/A.ts');
    assert.equal(touchKey('Src/A.ts'), 'A.ts');
  });

  it('leaves nothing of blank or separator-only input', () => {
    for (const p of ['', '   ', '``', './', '/', '(x)']) assert.equal(normalizeTouchPath(p), '', JSON.stringify(p));
  });
});

describe('touchKey', () => {
  it('is the last segment of the normalised path', () => {
    assert.equal(touchKey(TARGET), 'vaultstore.go');
    assert.equal(touchKey('vaultstore.go'), 'vaultstore.go');
    assert.equal(touchKey('C:\\repo\\internal\\memory\\vaultstore.go (edited)'), 'vaultstore.go');
    assert.equal(touchKey('src/'), 'src');
  });
});

describe('pathsMatch', () => {
  const matching = [
    TARGET,
    `./${TARGET}`,
    'memory/vaultstore.go',
    'vaultstore.go',
    `/home/me/repo/${TARGET}`,
    'internal\\memory\\vaultstore.go',
    `\`${TARGET}\``,
    `"${TARGET}"`,
    `${TARGET} (rewritten)`,
    '  vaultstore.go  ',
    `../${TARGET}`,
  ];
  for (const p of matching) {
    it(`matches ${JSON.stringify(p)}, both ways round`, () => {
      assert.ok(pathsMatch(TARGET, p));
      assert.ok(pathsMatch(p, TARGET));
    });
  }

  const lookalikes = [
    'store.go',
    'memory/store.go',
    'ternal/memory/vaultstore.go',
    'mory/vaultstore.go',
    'vaultstore.g',
    'aultstore.go',
    'internal/memory',
    'Internal/Memory/VaultStore.go',
    'other/memory/vaultstore.go',
    'internal/memory/vaultstore.go.bak',
    '',
    '   ',
    './',
  ];
  for (const p of lookalikes) {
    it(`does not match ${JSON.stringify(p)}`, () => {
      assert.equal(pathsMatch(TARGET, p), false);
      assert.equal(pathsMatch(p, TARGET), false);
    });
  }

  it('never matches empty with empty', () => {
    assert.equal(pathsMatch('', ''), false);
    assert.equal(pathsMatch('./', '/'), false);
  });

  it('matches only when the touch keys agree (the index relies on it)', () => {
    const segment = fc.constantFrom('a', 'b', 'src', 'x.go', 'store.go', 'vaultstore.go', '.', '..', '');
    const pathArb = fc
      .tuple(fc.array(segment, { maxLength: 5 }), fc.constantFrom('/', '\\'), fc.constantFrom('', './', '/', '`', '"'), fc.constantFrom('', '/', ' (x)', '\\'))
      .map(([segs, sep, pre, post]) => pre + segs.join(sep) + post);
    fc.assert(
      fc.property(pathArb, pathArb, (a, b) => {
        if (pathsMatch(a, b)) assert.equal(touchKey(a), touchKey(b));
        assert.equal(pathsMatch(a, b), pathsMatch(b, a));
      }),
      { numRuns: 3000 },
    );
  });
});
