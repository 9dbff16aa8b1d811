// Baton: Search… in the real VS Code: the quick pick's items for a query
// (kind icon, task, project, agent, age, the snippet in the detail where the
// workbench highlights the typed words), and choosing one opens the
// checkpoint at the section that matched.
import * as assert from 'assert';
import * as path from 'path';
import * as vscode from 'vscode';
import type { SearchPickHandle } from '../../src/vscode/commands/searchCommand';
import { batonApi, vaultDir } from './support/baton';

const settle = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('Baton: Search…', () => {
  before(() => batonApi());
  afterEach(() => vscode.commands.executeCommand('workbench.action.closeQuickOpen'));

  it('lists stemmed hits best first with their kind’s icon, and opens the chosen one at its section', async () => {
    const pick = await vscode.commands.executeCommand<SearchPickHandle>('baton.search', { query: 'retry payment' });
    assert.ok(pick && pick.items.length > 0, 'items');
    assert.strictEqual(pick.matchOnDetail, true, 'the workbench highlights the typed words in the detail');
    const [first] = pick.items;
    assert.strictEqual(first.label, '$(history)', 'a checkpoint’s icon, and no label text the workbench could re-sort by');
    assert.strictEqual(first.alwaysShow, true);
    assert.match(first.description ?? '', /^.+ · kestrel · claude · \d+[smhd] ago$/);
    assert.match(first.detail ?? '', /^Didn't work: .*retrying the payment call/);
    assert.ok(first.hit && first.hit.marks.length >= 2, 'the engine marked both words');

    await settle(300);
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    let editor = vscode.window.activeTextEditor;
    for (let i = 0; i < 30 && !editor?.document.uri.fsPath.endsWith('.md'); i++) {
      await settle(100);
      editor = vscode.window.activeTextEditor;
    }
    assert.ok(editor, 'an editor opened');
    assert.strictEqual(editor.document.uri.fsPath, path.join(vaultDir(), `${first.hit.slug}.md`));
    const line = editor.document.lineAt(editor.selection.active.line).text;
    assert.match(line, /retrying the payment call/, 'at the matching line of Didn’t work');
  });

  it('finds notes and plans with their own icons, and says so when nothing matches', async () => {
    const carts = await vscode.commands.executeCommand<SearchPickHandle>('baton.search', { query: 'cart', project: 'kestrel' });
    const icons = new Map(carts.items.map((i) => [i.hit?.kind, i.label]));
    assert.deepStrictEqual([icons.get('checkpoint'), icons.get('note'), icons.get('plan')], ['$(history)', '$(note)', '$(checklist)']);
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    const none = await vscode.commands.executeCommand<SearchPickHandle>('baton.search', { query: 'zebrafish' });
    assert.deepStrictEqual(
      none.items.map((i) => [i.label, i.description]),
      [['$(info)', 'Nothing in the vault matches']],
    );
  });
});
