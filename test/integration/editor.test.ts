// The editor surfaces, asked the way VS Code asks them: the CodeLens and hover
// of a file some checkpoints touched name those checkpoints, an untouched file
// gets neither, the settings turn each off, and a checkpoint's `command:` link
// stays inert text.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { HOVER_COMMANDS } from '../../src/core/hoverText';
import { batonApi, poll, workspaceUri } from './support/baton';

async function batonLenses(uri: vscode.Uri): Promise<vscode.CodeLens[]> {
  await vscode.workspace.openTextDocument(uri);
  const lenses = (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri, 10)) ?? [];
  return lenses.filter((l) => l.command?.command === 'baton.showFileCheckpoints');
}

async function batonHovers(uri: vscode.Uri, line = 0): Promise<vscode.MarkdownString[]> {
  await vscode.workspace.openTextDocument(uri);
  const hovers = (await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, new vscode.Position(line, 1))) ?? [];
  return hovers
    .flatMap((h) => h.contents)
    .filter((c): c is vscode.MarkdownString => c instanceof vscode.MarkdownString || (typeof c === 'object' && 'value' in c && !('language' in c)))
    .filter((m) => m.value.includes('**Baton**'));
}

async function setting(key: string, value: boolean | undefined): Promise<void> {
  await vscode.workspace.getConfiguration('baton').update(key, value, vscode.ConfigurationTarget.Global);
}

describe('editor: CodeLens and hover', () => {
  before(async () => {
    await batonApi();
  });

  it('puts one file-level lens on a touched file, resolved with its checkpoints', async () => {
    const lenses = await batonLenses(workspaceUri('src/checkout.ts'));
    assert.strictEqual(lenses.length, 1);
    assert.strictEqual(lenses[0].range.start.line, 0);
    assert.match(lenses[0].command?.title ?? '', /^2 checkpoints · last: Fix the checkout crash on empty carts · claude · \d+d ago$/);
    assert.strictEqual(String(lenses[0].command?.arguments?.[0]), workspaceUri('src/checkout.ts').toString());
  });

  it('gives an untouched file no lens and no hover', async () => {
    assert.deepStrictEqual(await batonLenses(workspaceUri('src/untouched.ts')), []);
    assert.deepStrictEqual(await batonHovers(workspaceUri('src/untouched.ts')), []);
  });

  it('hovers the first line with the checkpoints: task, agent, handoff, dead ends, decisions, next, links', async () => {
    const [md] = await batonHovers(workspaceUri('src/checkout.ts'));
    assert.ok(md, 'no Baton hover on src/checkout.ts');
    for (const expected of [
      '2 checkpoints touched this file',
      'Fix the checkout crash on empty carts',
      'claude → cursor',
      "Didn't work",
      'retrying the payment call',
      'Decided',
      'add the refund test',
    ]) {
      assert.ok(md.value.includes(expected) || md.value.includes(expected.replace(/ /g, '&nbsp;')), `hover lacks "${expected}":\n${md.value}`);
    }
    assert.match(md.value, /\]\(command:baton\.openCheckpoint\?/);
    assert.match(md.value, /\]\(command:baton\.resume\?/);
    // The fixture workspace was committed after the checkpoints: git says the file changed since.
    assert.match(md.value, /commits after this checkpoint/);
    assert.deepStrictEqual(await batonHovers(workspaceUri('src/checkout.ts'), 3), [], 'only the first line carries the file’s hover');
  });

  it('keeps a checkpoint’s command: links and HTML inert in the hover', async () => {
    const [md] = await batonHovers(workspaceUri('src/greet.ts'));
    assert.ok(md, 'no Baton hover on src/greet.ts');
    assert.notStrictEqual(md.isTrusted, true, 'a hover must never trust every command');
    const enabled = typeof md.isTrusted === 'object' ? md.isTrusted.enabledCommands : [];
    assert.ok(
      enabled.every((c) => (HOVER_COMMANDS as readonly string[]).includes(c)),
      `enabled: ${enabled.join(', ')}`,
    );
    assert.ok(!md.supportHtml, 'HTML stays off');
    const links = [...md.value.matchAll(/\]\(command:([\w.]+)/g)].map((m) => m[1]);
    assert.deepStrictEqual(links, ['baton.openCheckpoint', 'baton.resume'], `only Baton's own two links:\n${md.value}`);
    assert.ok(!md.value.includes('](command:workbench'), md.value);
    assert.ok(!/(^|[^\\])<img/.test(md.value), `HTML is escaped:\n${md.value}`);
    assert.ok(md.value.includes('\\[the flow\\]'), `the agent's link text is escaped:\n${md.value}`);
  });

  it('runs no git for the hover when git is off (the path an untrusted workspace takes)', async () => {
    const uri = workspaceUri('src/checkout.ts');
    try {
      await setting('git.enabled', false);
      const [md] = (
        await poll(
          () => batonHovers(uri),
          (h) => h.length === 1 && !h[0].value.includes('commits after'),
        )
      ).value;
      assert.ok(md && !md.value.includes('commits after'), 'without git the hover claims no later commits');
    } finally {
      await setting('git.enabled', undefined);
    }
  });

  it('turns the lens and the hover off and on with their settings', async () => {
    const uri = workspaceUri('src/checkout.ts');
    try {
      await setting('codeLens.enabled', false);
      await setting('hover.enabled', false);
      assert.strictEqual(
        (
          await poll(
            () => batonLenses(uri),
            (l) => l.length === 0,
          )
        ).value.length,
        0,
      );
      assert.strictEqual(
        (
          await poll(
            () => batonHovers(uri),
            (h) => h.length === 0,
          )
        ).value.length,
        0,
      );
    } finally {
      await setting('codeLens.enabled', undefined);
      await setting('hover.enabled', undefined);
    }
    assert.strictEqual(
      (
        await poll(
          () => batonLenses(uri),
          (l) => l.length === 1,
        )
      ).value.length,
      1,
    );
    assert.strictEqual(
      (
        await poll(
          () => batonHovers(uri),
          (h) => h.length === 1,
        )
      ).value.length,
      1,
    );
  });
});
