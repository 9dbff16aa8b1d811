// The CodeLens and the blame annotation beside it read one "now" and redraw
// on its tick (issue 30.5: a lens that said "2m" beside an annotation saying
// "3m"). A file of the fixture repository written by one checkpointed
// session, so the lens's last checkpoint and the line's are the same one; the
// test moves the clock through the API the way the minute's tick does,
// rather than waiting a minute.
import * as assert from 'assert';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { BatonApi } from '../../src/vscode/api';
import { batonApi, poll, scopeDir, workspaceDir } from './support/baton';
import { cliOk, git } from './support/workspaceGit';

const PROJECT = 'clockdemo';
const REL = 'src/clock/tally.ts';
const DAY = 86400;

/** The lens's title as VS Code resolves it now. */
async function lensTitle(uri: vscode.Uri): Promise<string> {
  const lenses = (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri, 10)) ?? [];
  return lenses.map((l) => l.command?.title ?? '').find((t) => /checkpoint/.test(t)) ?? '';
}

const ageIn = (text: string): string => /· (\d+[smhd]) ago$/.exec(text)?.[1] ?? `(no age in "${text}")`;

describe('one clock for the CodeLens and the blame annotation', () => {
  let api: BatonApi;
  let uri: vscode.Uri;
  let editor: vscode.TextEditor;
  let head = '';
  let written = 0;

  before(async function () {
    this.timeout(60_000);
    api = await batonApi();
    head = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: workspaceDir(), encoding: 'utf8' }).stdout.trim();
    const dir = path.join(workspaceDir(), 'src', 'clock');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, '.baton-project'), `${PROJECT}\n`);
    const file = path.join(workspaceDir(), REL);
    const now = Math.floor(Date.now() / 1000);
    const t1 = now - 2 * DAY;
    fs.writeFileSync(file, ['// tally', 'export const a = 1;', ''].join('\n'));
    git(['add', '-A']);
    git(['commit', '-q', '-m', 'tally by a person'], now - 30 * DAY);
    await cliOk(['note', '--project', PROJECT, '--agent', 'claude', '--at', String(t1), 'tally in cents']);
    fs.writeFileSync(file, ['// tally', 'export const a = 1;', 'export const cents = (x: number) => Math.round(x * 100);', ''].join('\n'));
    git(['commit', '-q', '-am', 'tally in cents'], t1 + 600);
    written = t1 + 1200;
    await cliOk(['checkpoint', '--project', PROJECT, '--agent', 'claude', '--at', String(written), '--task', 'tally in cents', '--file', REL]);
    uri = vscode.Uri.file(file);
    editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
  });

  after(async () => {
    api.clock.tick();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.rmSync(scopeDir(PROJECT), { recursive: true, force: true });
    git(['reset', '-q', '--hard', head]);
    fs.rmSync(path.join(workspaceDir(), 'src', 'clock'), { recursive: true, force: true });
  });

  it('both show the age of the same checkpoint from the same now, and both move on a tick without a cursor move', async () => {
    editor.selections = [new vscode.Selection(2, 0, 2, 0)];
    const first = (
      await poll(
        async () => api.blame.current,
        (c) => c?.line === 2,
        15_000,
      )
    ).value;
    assert.ok(first, 'no annotation on the session’s line');
    const lens = (
      await poll(
        () => lensTitle(uri),
        (t) => t !== '',
        15_000,
      )
    ).value;
    assert.match(lens, /^1 checkpoint · last: tally in cents · claude · \d+[smhd] ago$/);
    api.clock.tick();
    const annotated = (
      await poll(
        async () => api.blame.current?.text ?? '',
        (t) => t !== '',
      )
    ).value;
    assert.strictEqual(ageIn(await lensTitle(uri)), ageIn(annotated), 'the lens and the annotation disagree on one checkpoint’s age');

    // A week on (what minutes of ticks do, at once): the annotation redraws itself, the lenses are told to ask again.
    let asked = 0;
    const listening = api.onDidChangeLenses(() => (asked += 1));
    try {
      const later = written + 9 * DAY;
      api.clock.tick(later);
      const redrawn = (
        await poll(
          async () => api.blame.current?.text ?? '',
          (t) => ageIn(t) === '9d',
        )
      ).value;
      assert.strictEqual(ageIn(redrawn), '9d', `the annotation kept its old age: ${redrawn}`);
      assert.ok(
        (
          await poll(
            async () => asked,
            (n) => n > 0,
          )
        ).value > 0,
        'the lenses were not told to ask again on the tick',
      );
      // Any vault change ticks the real clock (a watcher's late event of the checkpoint above, fresh-clone CI, min
      // flavour: the lens then read 1d): the week's tick is given again before each ask, the lens read right after it.
      const lensAge = (
        await poll(
          async () => {
            api.clock.tick(later);
            return ageIn(await lensTitle(uri));
          },
          (age) => age === '9d',
        )
      ).value;
      assert.strictEqual(lensAge, '9d', 'the lens reads another clock than the tick’s');
    } finally {
      listening.dispose();
    }
  });
});
