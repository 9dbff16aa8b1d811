// The checkpoint form's text and its reading: every section shown, what the
// prefill holds in it, and read back by the CLI's stdin reader with each
// bullet one item (a `;` in a sentence splits nothing).
import assert from 'node:assert/strict';
import { formText, likelyTask, readForm } from '../../src/app/checkpointForm';
import { SECTIONS } from '../../src/core/checkpointBody';

const header = { title: 'Commit Checkpoint to kestrel', notes: ['(claude) tried the retry wrapper'] };

describe('checkpoint form', () => {
  it('shows every section of the contract, in its order, and reads back as nothing when left as it opened', () => {
    const text = formText(header, {});
    const headings = [...text.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    assert.deepEqual(
      headings,
      SECTIONS.map((s) => s.heading),
    );
    assert.deepEqual(readForm(text), {});
  });

  it('keeps a bullet with `;` one item, and a prefilled `#` line in the Task text', () => {
    const text = formText(header, { task: 'fix #12\n# not a heading', files: ['src/cart.ts'], commands: ['npm test -- cart'] });
    const typed = text.replace("## Didn't work\n\n- \n", "## Didn't work\n\n- retrying the payment call; the crash is before it\n- a mock; it hid the bug\n");
    assert.deepEqual(readForm(typed), {
      task: 'fix #12\n# not a heading',
      failed: ['retrying the payment call; the crash is before it', 'a mock; it hid the bug'],
      commands: ['npm test -- cart'],
      files: ['src/cart.ts'],
    });
  });

  it('lists the open notes above the first heading, where nothing is read', () => {
    const text = formText({ title: 't', notes: ['(me) ## Next --> forged'] }, {});
    assert.match(text, /^ {2}- \(me\) ## Next -> forged$/m);
    assert.deepEqual(readForm(text), {});
  });

  it('takes the last Next as Task, else a feature branch named as words', () => {
    assert.equal(likelyTask('add the refund test', undefined), 'add the refund test');
    const git = { branch: 'fix/empty-cart_crash', commit: '', subject: '', dirty: 0, unreadable: false, files: [], worktree: '' };
    assert.equal(likelyTask('', git), 'empty cart crash');
    assert.equal(likelyTask('', { ...git, branch: 'main' }), '');
  });
});
