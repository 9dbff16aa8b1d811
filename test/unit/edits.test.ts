// The pure parts of edit capture: the `edited:` note shape, the fold into
// Files, Codex's patch headers, host detection and repo-relative paths.
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { editedPath, mergeFiles, splitEdits } from '../../src/core/edits';
import { patchedFiles } from '../../src/hooks/applyPatch';
import { detectHost, editedFiles, sessionStartAnswer } from '../../src/hooks/hosts';
import { projectRoots, repoRelative } from '../../src/app/editedPaths';
import { tempDir } from './support/tempVault';

const note = (text: string, agent = 'claude-code', ts = 1) => ({ text, agent, ts, session: '' });

describe('edit capture, the pure parts', () => {
  it('reads only its own note shape', () => {
    assert.equal(editedPath('edited: src/a.ts'), 'src/a.ts');
    for (const t of ['edited:src/a.ts', 'I edited: src/a.ts', 'edited: ', 'Edited: src/a.ts']) assert.equal(editedPath(t), null, t);
  });
  it('folds edits once each after the named files, the rest stays notes', () => {
    const { edits, rest } = splitEdits([note('edited: src/a.ts'), note('a real note'), note('edited: ./src/a.ts'), note('edited: src/b.ts', 'codex')]);
    assert.deepEqual(edits, ['src/a.ts', 'src/b.ts']);
    assert.deepEqual(
      rest.map((n) => n.text),
      ['a real note'],
    );
    assert.deepEqual(mergeFiles(['`src/a.ts` (rewritten)'], edits), ['`src/a.ts` (rewritten)', 'src/b.ts']);
  });
  it("reads a patch's headers only, never its body", () => {
    const patch =
      '*** Begin Patch\n*** Update File: a.ts  \n*** Move to: b.ts\n@@\n-*** Delete File: x\n+*** Add File: y\n *** Update File: z\n*** Delete File: c.ts\r\n*** End Patch';
    assert.deepEqual(patchedFiles(patch), ['a.ts', 'b.ts', 'c.ts']);
  });
  it('tells hosts apart by their payloads, and answers each in its shape', () => {
    assert.equal(detectHost({ cursor_version: '2.0', conversation_id: 'c' }, 'claude-code'), 'cursor');
    assert.equal(detectHost({ sessionId: 's', hookEventName: 'PostToolUse' }, 'claude-code'), 'vscode');
    assert.equal(detectHost({ session_id: 's', hook_event_name: 'PostToolUse' }, 'codex'), 'codex');
    assert.equal(detectHost({ toolName: 'edit', toolArgs: '{}' }, 'copilot'), 'copilot');
    assert.deepEqual(editedFiles({ tool_name: 'Read', tool_input: { file_path: 'a.ts' } }, 'claude-code'), []);
    assert.deepEqual(editedFiles({ toolName: 'create', toolArgs: '{"path":"n.ts"}' }, 'copilot'), ['n.ts']);
    assert.deepEqual(JSON.parse(sessionStartAnswer('copilot', 'x')), { additionalContext: 'x' });
    assert.equal(sessionStartAnswer('claude-code', ''), '');
    assert.deepEqual(JSON.parse(sessionStartAnswer('gemini', 'hi')), { hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'hi' } });
  });
  it("reads Copilot CLI's edit tools as 1.0.102 sends them: apply_patch's toolArgs is the patch text itself", () => {
    // The payloads as the real CLI sent them (test/agents/copilot.test.ts).
    const patch = '*** Begin Patch\n*** Update File: src/cart.js\n@@\n-a\n+b\n*** Add File: src/tax.js\n+x\n*** Delete File: src/old.js\n*** End Patch\n';
    assert.deepEqual(editedFiles({ sessionId: 's', cwd: '/w', toolName: 'apply_patch', toolArgs: patch, toolResult: { resultType: 'success' } }, 'copilot'), [
      'src/cart.js',
      'src/tax.js',
      'src/old.js',
    ]);
    assert.deepEqual(editedFiles({ toolName: 'edit', toolArgs: { path: '/w/src/cart.js', old_str: 'a', new_str: 'b' } }, 'copilot'), ['/w/src/cart.js']);
    assert.deepEqual(editedFiles({ toolName: 'create', toolArgs: { path: '/w/src/tax.js', file_text: '' } }, 'copilot'), ['/w/src/tax.js']);
    // Text that is no patch, and tools that write nothing, name no file.
    assert.deepEqual(editedFiles({ toolName: 'apply_patch', toolArgs: 'not a patch\n*** Add File: x' }, 'copilot'), []);
    assert.deepEqual(editedFiles({ toolName: 'view', toolArgs: { path: '/w/src/cart.js' } }, 'copilot'), []);
  });
  it('makes paths relative to the working tree, through a symlinked root too, and refuses the rest', () => {
    const dir = tempDir('baton-edits-');
    try {
      const repo = path.join(dir, 'repo');
      fs.mkdirSync(path.join(repo, '.git'), { recursive: true });
      fs.mkdirSync(path.join(repo, 'pkg', 'src'), { recursive: true });
      fs.symlinkSync(repo, path.join(dir, 'link'));
      const cwd = path.join(repo, 'pkg');
      const roots = projectRoots(cwd);
      assert.equal(repoRelative('src/x.ts', cwd, roots), 'pkg/src/x.ts');
      assert.equal(repoRelative(path.join(dir, 'link', 'pkg', 'src', 'x.ts'), cwd, roots), 'pkg/src/x.ts');
      assert.equal(repoRelative('..foo/x.ts', cwd, roots), 'pkg/..foo/x.ts');
      for (const bad of ['/etc/passwd', '../../x.ts', path.join(dir, 'other.ts'), '', '\u001b[0m']) assert.equal(repoRelative(bad, cwd, roots), null, bad);
      assert.equal(repoRelative('src/x.ts', '', []), 'src/x.ts');
      assert.equal(repoRelative('../x.ts', '', []), null);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
