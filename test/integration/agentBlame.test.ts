// Agent blame in the real editor: a file of the fixture repository with
// backdated commits, two sessions checkpointed by the real CLI in a project of
// its own (removed afterwards, so the other suites see the fixture vault as
// it was). The annotation shows on an attributed line and on no other, the
// hover answers on a middle line of a block, the toggle draws the blocks.
import * as assert from 'assert';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { BatonApi } from '../../src/vscode/api';
import { batonApi, poll, scopeDir, workspaceDir } from './support/baton';
import { cliOk, git } from './support/workspaceGit';

const PROJECT = 'blamedemo';
const DAY = 86400;

async function blameHovers(uri: vscode.Uri, line: number): Promise<vscode.MarkdownString[]> {
  const hovers = (await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, new vscode.Position(line, 1))) ?? [];
  return hovers
    .flatMap((h) => h.contents)
    .filter((c): c is vscode.MarkdownString => typeof c === 'object' && 'value' in c && !('language' in c))
    .filter((m) => m.value.includes('written in this session'));
}

describe('agent blame in the editor', () => {
  let api: BatonApi;
  const rel = 'src/blame/cart.ts';
  let uri: vscode.Uri;
  let editor: vscode.TextEditor;

  let head = '';

  before(async function () {
    this.timeout(60_000);
    api = await batonApi();
    head = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: workspaceDir(), encoding: 'utf8' }).stdout.trim();
    const dir = path.join(workspaceDir(), 'src', 'blame');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, '.baton-project'), `${PROJECT}\n`);
    const file = path.join(workspaceDir(), rel);
    const now = Math.floor(Date.now() / 1000);
    const t1 = now - 2 * DAY - 3 * 3600;
    fs.writeFileSync(file, ['// cart', 'export const rate = 0.2;', 'a3', 'a4', 'a5', 'a6', 'a7', ''].join('\n'));
    git(['add', '-A']);
    git(['commit', '-q', '-m', 'cart by a person'], now - 30 * DAY);
    await cliOk(['note', '--project', PROJECT, '--agent', 'claude', '--at', String(t1), 'totals in cents']);
    fs.writeFileSync(
      file,
      [
        '// cart',
        'export const rate = 0.2;',
        'export const cents = (x: number) => Math.round(x * 100);',
        'export function total(xs: number[]) {',
        '  return xs.reduce((a, b) => a + cents(b), 0);',
        'a6',
        'a7',
        '',
      ].join('\n'),
    );
    git(['commit', '-q', '-am', 'totals in cents'], t1 + 3600);
    await cliOk([
      'checkpoint',
      '--project',
      PROJECT,
      '--agent',
      'claude',
      '--at',
      String(t1 + 7200),
      '--task',
      'cart totals',
      '--failed',
      'floats for money: 0.1 + 0.2 [x](command:workbench.action.terminal.new)',
      '--decided',
      'integer cents',
      '--next',
      'round tax per line',
    ]);
    await cliOk(['note', '--project', PROJECT, '--agent', 'cursor', '--at', String(t1 + 3 * 3600), 'tax']);
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('a6', 'export const tax = (c: number) => Math.round(c * rate);'));
    git(['commit', '-q', '-am', 'tax'], t1 + 4 * 3600);
    await cliOk(['checkpoint', '--project', PROJECT, '--agent', 'cursor', '--at', String(t1 + 5 * 3600), '--task', 'tax rounding']);
    uri = vscode.Uri.file(file);
    editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
  });

  after(async () => {
    if (editor.document.isDirty) await vscode.commands.executeCommand('workbench.action.files.revert');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.rmSync(scopeDir(PROJECT), { recursive: true, force: true });
    // The other suites read the fixture repository's HEAD (its subject, its files): put it back.
    git(['reset', '-q', '--hard', head]);
    fs.rmSync(path.join(workspaceDir(), 'src', 'blame'), { recursive: true, force: true });
  });

  const at = (line: number, more: vscode.Selection[] = []): void => {
    editor.selections = [new vscode.Selection(line, 0, line, 0), ...more];
  };
  const current = () => Promise.resolve(api.blame.current);

  it('annotates an attributed line after its end, faded text naming the session, and no other line', async () => {
    at(3);
    const shown = (await poll(current, (c) => c?.line === 3, 15_000)).value;
    assert.ok(shown, 'no annotation on line 4');
    assert.strictEqual(shown.uri, uri.toString());
    assert.strictEqual(shown.text, 'claude · cart totals · 2d ago');
    assert.match(api.blame.statusText, /^\$\(hubot\) claude · cart totals$/);
    at(0);
    assert.strictEqual((await poll(current, (c) => c === undefined)).value, undefined, 'a line from before any session has none');
    assert.strictEqual(api.blame.statusText, '');
    at(5);
    assert.match((await poll(current, (c) => c?.line === 5)).value?.text ?? '', /^cursor · tax rounding · \d+d ago$/);
    at(6);
    assert.strictEqual((await poll(current, (c) => c === undefined)).value, undefined, 'a line of nobody');
  });

  it("hovers a middle line of a block with its checkpoint, agent text escaped, only Baton's links", async () => {
    const [md] = (
      await poll(
        () => blameHovers(uri, 3),
        (h) => h.length === 1,
        15_000,
      )
    ).value;
    assert.ok(md, 'no agent blame hover on line 4');
    for (const s of ['lines 3–5 written in this session', 'cart totals', "Didn't work", 'floats for money', 'Decided', 'integer cents', 'round tax per line']) {
      assert.ok(md.value.includes(s), `hover lacks "${s}":\n${md.value}`);
    }
    const links = [...md.value.matchAll(/\]\(command:([\w.]+)/g)].map((m) => m[1]);
    assert.deepStrictEqual(links, ['baton.openCheckpoint', 'baton.resume'], md.value);
    assert.ok(md.value.includes('\\[x\\]\\(command\\:workbench'), `the agent's link is escaped text:\n${md.value}`);
    assert.deepStrictEqual(await blameHovers(uri, 0), [], 'no agent blame hover on a line of nobody');
  });

  it("answers Copilot's baton_why for a line: the session, its task, what it ruled out and decided, its next step", async function () {
    if (typeof (vscode.lm as Partial<typeof vscode.lm> | undefined)?.invokeTool !== 'function') this.skip();
    const r = await vscode.lm.invokeTool('baton_why', { input: { file: rel, line: 4 }, toolInvocationToken: undefined });
    const text = r.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
    assert.match(text, /^src\/blame\/cart\.ts line 4: written in 1 session\./, text);
    assert.match(text, /^lines 3-5: claude, 2d ago, sessions\/blamedemo\/[\d-]+claude, commit [0-9a-f]{12}$/m, text);
    for (const quoted of ['  > cart totals', "Didn't work (ruled out):\n  > - floats for money", 'Decided:\n  > - integer cents', 'Next:\n  > round tax per line']) {
      assert.ok(text.includes(quoted), `lacks ${JSON.stringify(quoted)}:\n${text}`);
    }
  });

  it('toggles the whole-file view: a block per session, the agent and task beside each, one colour each', async () => {
    assert.strictEqual(api.blame.blocksOf(uri), undefined);
    await vscode.commands.executeCommand('baton.toggleAgentBlame');
    const blocks =
      (
        await poll(
          () => Promise.resolve(api.blame.blocksOf(uri)),
          (b) => (b?.length ?? 0) === 2,
          15_000,
        )
      ).value ?? [];
    assert.deepStrictEqual(
      blocks.map((b) => [b.start, b.end, b.text.replace(/\u00a0+$/, ''), b.colour]),
      [
        [3, 5, 'claude · cart totals', 0],
        [6, 6, 'cursor · tax rounding', 1],
      ],
    );
    await vscode.commands.executeCommand('baton.toggleAgentBlame');
    assert.strictEqual(api.blame.blocksOf(uri), undefined);
  });

  it('turns the annotation and the hover off with their own settings', async () => {
    const config = vscode.workspace.getConfiguration('baton');
    try {
      await config.update('blame.currentLine.enabled', false, vscode.ConfigurationTarget.Global);
      await config.update('blame.hover.enabled', false, vscode.ConfigurationTarget.Global);
      at(3);
      assert.strictEqual(
        (
          await poll(
            () => blameHovers(uri, 3),
            (h) => h.length === 0,
          )
        ).value.length,
        0,
      );
      // The status bar keeps naming the session: it has a setting of its own.
      assert.match(
        (
          await poll(
            () => Promise.resolve(api.blame.statusText),
            (t) => t !== '',
          )
        ).value,
        /claude · cart totals/,
      );
    } finally {
      await config.update('blame.currentLine.enabled', undefined, vscode.ConfigurationTarget.Global);
      await config.update('blame.hover.enabled', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('hides the annotation with several selections and while typing, and brings it back on the shifted line', async () => {
    at(3);
    assert.strictEqual((await poll(current, (c) => c?.line === 3)).value?.line, 3);
    at(3, [new vscode.Selection(4, 0, 4, 0)]);
    assert.strictEqual((await poll(current, (c) => c === undefined)).value, undefined, 'none with several selections');
    at(3);
    assert.strictEqual((await poll(current, (c) => c?.line === 3)).value?.line, 3);
    await editor.edit((e) => e.insert(new vscode.Position(0, 0), '// typed, not saved\n'));
    assert.strictEqual(api.blame.current, undefined, 'hidden at once on typing');
    at(4);
    const back = (await poll(current, (c) => c?.line === 4, 15_000)).value;
    assert.strictEqual(back?.text, 'claude · cart totals · 2d ago', 'the unsaved text is blamed: the line moved down one');
    at(0);
    assert.strictEqual((await poll(current, (c) => c === undefined)).value, undefined, "the typed line is nobody's");
    // Last of the suite, so no other test sees the typed line; taken out again and saved as committed.
    await editor.edit((e) => e.delete(new vscode.Range(0, 0, 1, 0)));
    await editor.document.save();
  });
});
