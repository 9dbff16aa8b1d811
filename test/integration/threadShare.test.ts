// Baton: Share the Thread With Cloud Agents… in the real editor (issue 28):
// the workspace's repository (the harness's git fixture, project kestrel of
// the fixture vault) gets agent-thread/, the instruction block and the
// session-start hooks, each file's diff open behind the go-ahead before
// anything is written; Cancel writes nothing; Stop Sharing the Thread… takes
// it all out again, the repository as it was; with git turned off for Baton
// (as in Restricted Mode) nothing runs and nothing is written.
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { ThreadOutcome } from '../../src/app/repoThread';
import { batonApi, poll, settle, workspaceDir } from './support/baton';
import { CONNECT_SCHEME } from '../../src/vscode/ids';
import { accept, drive, previewTabs } from './support/quickPicks';

const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('baton');
/** The repository's state as git sees it, untracked files listed one by one. */
const status = (): string => execFileSync('git', ['status', '--porcelain', '--untracked-files=all'], { cwd: workspaceDir(), encoding: 'utf8' });
const close = (): Thenable<unknown> => vscode.commands.executeCommand('workbench.action.closeQuickOpen');

/** The files enable writes into the fixture repository (it has no CLAUDE.md nor Copilot instructions), and disable takes out. */
const THREAD_FILES = [
  'agent-thread/README.md',
  'agent-thread/HANDOVER.md',
  'agent-thread/session-start.md',
  'agent-thread/session-start.json',
  'AGENTS.md',
  '.github/hooks/agent-thread.json',
  '.claude/settings.json',
];

const previewTitles = (): string[] =>
  vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .filter((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.scheme === CONNECT_SCHEME)
    .map((t) => t.label);

/**
 * Waits for a preview of each of the plan's files (the go-ahead is asked
 * right after the last), notes their titles, then answers the go-ahead with
 * `answer`, as acceptGoAhead does for Connect.
 */
function atGoAhead(titles: string[], answer: () => Thenable<unknown>): () => Promise<void> {
  return async () => {
    await poll(
      async () => previewTabs().length,
      (n) => n >= THREAD_FILES.length,
      15000,
    );
    titles.push(...previewTitles());
    await settle(500);
    await answer();
  };
}

describe('share the thread with cloud agents', function () {
  this.timeout(60_000);
  let start: string;
  before(async () => {
    await batonApi();
    start = status();
  });
  after(() => {
    // Whatever a failed test left: the repository goes back to the fixture's.
    execFileSync('git', ['checkout', '-q', '--', '.'], { cwd: workspaceDir() });
    execFileSync('git', ['clean', '-qfd', '--', 'agent-thread', 'AGENTS.md', '.github', '.claude'], { cwd: workspaceDir() });
  });

  it('Cancel at the go-ahead, with the diffs open, writes nothing and closes them', async () => {
    const titles: string[] = [];
    const r = await drive<ThreadOutcome>('baton.shareThread', [atGoAhead(titles, close)]);
    assert.strictEqual(r, undefined);
    assert.ok(
      titles.some((t) => t.includes('HANDOVER.md')),
      titles.join(' | '),
    );
    assert.strictEqual(status(), start);
    const gone = await poll(
      async () => previewTabs().length,
      (n) => n === 0,
      3000,
    );
    assert.strictEqual(gone.value, 0);
  });

  it('from the palette: each file’s diff shown, then the folder, the instructions and the hooks written into the repository', async () => {
    const titles: string[] = [];
    const r = await drive<ThreadOutcome>('baton.shareThread', [atGoAhead(titles, accept)]);
    assert.ok(r, 'the go-ahead was taken');
    assert.strictEqual(r.folder, 'agent-thread');
    assert.deepStrictEqual([...r.written].sort(), [...THREAD_FILES].sort());
    for (const f of THREAD_FILES) {
      assert.ok(r.written.includes(f), `${f} written: ${r.written.join(', ')}`);
      assert.ok(fs.existsSync(path.join(workspaceDir(), f)), f);
      assert.ok(
        titles.some((t) => t.startsWith(`${path.join(workspaceDir(), f)} (created`)),
        `a diff of ${f} before writing: ${titles.join(' | ')}`,
      );
    }
    // The shared hand-over is the workspace project's, and names no folder of this machine.
    const handover = fs.readFileSync(path.join(workspaceDir(), 'agent-thread', 'HANDOVER.md'), 'utf8');
    assert.match(handover, /^# Hand-over — kestrel/);
    assert.ok(!handover.includes(workspaceDir()), 'no absolute path');
    // Again: nothing left to change.
    const again = await vscode.commands.executeCommand<ThreadOutcome>('baton.shareThread');
    assert.deepStrictEqual(again?.written, []);
  });

  it('Stop Sharing the Thread… shows what it takes out, then leaves the repository as it was', async () => {
    const titles: string[] = [];
    const r = await drive<ThreadOutcome>('baton.stopSharingThread', [atGoAhead(titles, accept)]);
    assert.ok(r);
    assert.ok(r.removed.includes('agent-thread/HANDOVER.md'), r.removed.join(', '));
    assert.ok(titles.length >= r.removed.length, titles.join(' | '));
    assert.strictEqual(status(), start);
  });

  it('with git turned off for Baton (as in Restricted Mode) it runs nothing and writes nothing', async () => {
    await config().update('git.enabled', false, vscode.ConfigurationTarget.Global);
    try {
      const r = await vscode.commands.executeCommand<ThreadOutcome>('baton.shareThread');
      assert.strictEqual(r, undefined);
      assert.strictEqual(previewTabs().length, 0);
      assert.strictEqual(status(), start);
    } finally {
      await config().update('git.enabled', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});
