// Baton: Search… in the real VS Code, on a checkpoint that folded working
// notes: the quick pick's detail keeps the notes apart (` · `) instead of
// gluing them into one run of words.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { CommitResult } from '../../src/core/requests';
import type { SearchPickHandle } from '../../src/vscode/commands/searchCommand';
import { batonApi, poll } from './support/baton';

const SCOPE = 'snippet-ext';

describe('Baton: Search… snippets', () => {
  before(() => batonApi());
  afterEach(() => vscode.commands.executeCommand('workbench.action.closeQuickOpen'));

  it("a checkpoint's folded notes stay apart in the detail", async () => {
    for (const text of ['fake timers did not help', 'msw intercepts fetch', 'the webhook clock is global'])
      await vscode.commands.executeCommand('baton.addNote', { project: SCOPE, text });
    const r = await vscode.commands.executeCommand<CommitResult>('baton.commitCheckpoint', { project: SCOPE, task: 'webhook tests' });
    assert.ok(r && r.folded === 3, 'the three notes folded into the checkpoint');

    const { value: pick } = await poll(
      async () => vscode.commands.executeCommand<SearchPickHandle>('baton.search', { query: 'timers fetch clock', project: SCOPE }),
      (p) => p.items.some((i) => i.hit?.kind === 'checkpoint'),
    );
    const item = pick.items.find((i) => i.hit?.kind === 'checkpoint');
    assert.ok(item?.hit, `a checkpoint among ${JSON.stringify(pick.items.map((i) => i.detail))}`);
    assert.strictEqual(item.hit.field, 'state');
    assert.strictEqual(item.detail, 'State: Recorded during the session: fake timers did not help · msw intercepts fetch · the webhook clock is global');
  });
});
