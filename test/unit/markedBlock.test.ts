// Baton's marked block in a person's markdown file: in and out again, byte for
// byte, whatever the file's line ends and last line; someone's edit refused.
import { strict as assert } from 'assert';
import { BatonError } from '../../src/core/errors';
import { hasBlock, withBlock, withoutBlock, type MarkedBlock } from '../../src/core/markedBlock';

const BLOCK: MarkedBlock = { begin: '<!-- x:begin -->', end: '<!-- x:end -->', body: ['## X', '', 'see x/'] };

describe('markedBlock', () => {
  const files = ['', '\n', '# A\n', '# A', '# A\n\n', '# A\r\n', '# A\r\nb', 'one line, no end', '\n\n\n'];
  for (const text of files) {
    it(`puts the block in and takes it out of ${JSON.stringify(text)} byte for byte`, () => {
      const on = withBlock(text, BLOCK, 'F.md');
      assert.ok(on.startsWith(text));
      assert.ok(hasBlock(on, BLOCK, 'F.md'));
      assert.equal(withBlock(on, BLOCK, 'F.md'), on, 'twice is once');
      assert.equal(withoutBlock(on, BLOCK, 'F.md'), text);
      const eol = text.includes('\r\n') ? '\r\n' : '\n';
      assert.ok(on.endsWith(`${eol}<!-- x:end -->${eol}`), JSON.stringify(on));
    });
  }

  it('makes a file that did not exist, and takes it away again (unless a person wrote after the block)', () => {
    const made = withBlock(null, BLOCK, 'F.md');
    assert.equal(made, '<!-- x:begin -->\n## X\n\nsee x/\n<!-- x:end -->\n');
    assert.equal(withoutBlock(made, BLOCK, 'F.md'), null);
    assert.equal(withoutBlock(made + '\nmine\n', BLOCK, 'F.md'), '\nmine\n');
  });

  it("keeps a person's lines written after the block", () => {
    const on = withBlock('# A\n', BLOCK, 'F.md') + '\n## Later\n';
    assert.equal(withoutBlock(on, BLOCK, 'F.md'), '# A\n\n## Later\n');
  });

  it('refuses a block edited by hand, a lone marker and a second block, naming the file', () => {
    const on = withBlock('# A\n', BLOCK, 'F.md');
    const broken = [
      on.replace('see x/', 'see y/'),
      on.replace('<!-- x:end -->\n', ''),
      '# A\n<!-- x:end -->\n',
      on + on.slice(4),
      on.replace('\n<!-- x:begin', '\n  <!-- x:begin'),
    ];
    for (const text of broken) {
      for (const act of [() => withBlock(text, BLOCK, 'F.md'), () => withoutBlock(text, BLOCK, 'F.md')]) {
        assert.throws(
          act,
          (e: unknown) => e instanceof BatonError && e.kind === 'refused' && /^F\.md: the block between .* was edited by hand; Baton changed nothing/.test(e.message),
          JSON.stringify(text),
        );
      }
    }
  });
});
