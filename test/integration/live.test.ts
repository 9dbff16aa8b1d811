// A checkpoint written by the CLI in another process (as an agent's hook
// writes it) reaches the views, the CodeLens and the hover without a manual
// refresh: the vault watcher, not a poll of the vault, brings it in.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { BatonApi } from '../../src/vscode/api';
import { batonApi, poll, runCli, scopeDir, shown, workspaceDir, workspaceUri } from './support/baton';

describe('live updates', () => {
  let api: BatonApi;
  before(async () => {
    api = await batonApi();
    fs.writeFileSync(path.join(workspaceDir(), 'src', 'live.ts'), 'export const live = 1;\n');
  });
  after(() => fs.rmSync(path.join(workspaceDir(), 'src', 'live.ts'), { force: true }));

  it('shows a checkpoint the CLI wrote in another process within seconds', async () => {
    const uri = workspaceUri('src/live.ts');
    await vscode.window.showTextDocument(uri);
    const lensesOf = async (): Promise<vscode.CodeLens[]> =>
      ((await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri, 10)) ?? []).filter(
        (l) => l.command?.command === 'baton.showFileCheckpoints',
      );
    assert.deepStrictEqual(await lensesOf(), [], 'nothing touched src/live.ts yet');

    const cli = await runCli(['checkpoint', '--project', 'livewire', '--agent', 'claude', '--task', 'live from the cli', '--file', 'src/live.ts', '--next', 'watch it arrive']);
    assert.strictEqual(cli.code, 0, cli.stderr);
    const written = Date.now();

    const projects = await poll(
      () => shown(api.views.projects),
      (l) => l.some((p) => p.label === 'livewire'),
      8000,
    );
    assert.ok(
      projects.value.some((p) => p.label === 'livewire'),
      'the new project reached the Projects view',
    );
    const lens = await poll(lensesOf, (l) => l.length === 1, 8000);
    assert.match(lens.value[0]?.command?.title ?? '', /^1 checkpoint · last: live from the cli · claude · \d+s ago$/);
    const thisFile = await poll(
      () => shown(api.views.thisFile),
      (l) => l.length === 1,
      8000,
    );
    assert.strictEqual(thisFile.value[0]?.label, 'live from the cli');
    const hovers = (await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, new vscode.Position(0, 1))) ?? [];
    const md = hovers.flatMap((h) => h.contents).find((c) => typeof c === 'object' && 'value' in c && c.value.includes('**Baton**')) as vscode.MarkdownString | undefined;
    assert.ok(md?.value.includes('live from the cli'), 'the hover names the new checkpoint');
    const elapsed = Date.now() - written;
    console.log(`    (reached views, lens and hover ${elapsed} ms after the CLI exited)`);
    assert.ok(elapsed < 5000, `took ${elapsed} ms`);
  });

  it("hears an agent's first notes in a project folder made the same instant, every time", async () => {
    // A new project's folder and its notes file come in one burst (mkdir, then write): a recursive watcher
    // that watches a new folder only once told of it may miss a file written before it does.
    const ts = Math.floor(Date.now() / 1000) - 8 * 3600;
    const made: string[] = [];
    try {
      for (let i = 0; i < 6; i++) {
        const name = `tidepool-${process.pid}-${i}`;
        made.push(name);
        const notes = path.join(scopeDir(name), 'uncommitted.md');
        fs.mkdirSync(path.dirname(notes), { recursive: true });
        fs.writeFileSync(notes, `- left the tide tables half done <!-- ts=${ts} agent=aider -->\n`);
        const seen = await poll(
          () => shown(api.views.abandoned),
          (l) => l.some((n) => String(n.label ?? '').includes(name) || String(n.description ?? '').includes(name)),
          8000,
        );
        assert.ok(
          seen.value.some((n) => String(n.label ?? '').includes(name) || String(n.description ?? '').includes(name)),
          `the session in ${name} (folder ${i + 1} of 6) reached Abandoned Sessions: ${JSON.stringify(seen.value.map((n) => n.label))}`,
        );
      }
    } finally {
      for (const name of made) fs.rmSync(scopeDir(name), { recursive: true, force: true });
    }
  });

  it('follows working notes and abandoned sessions in the status bar', async () => {
    const note = await runCli(['note', '--project', 'kestrel', '--agent', 'claude', 'status bar note']);
    assert.strictEqual(note.code, 0, note.stderr);
    // Whatever other suites noted in kestrel, the count is the notes file's.
    const notes = fs
      .readFileSync(path.join(scopeDir('kestrel'), 'uncommitted.md'), 'utf8')
      .split('\n')
      .filter((l) => l.includes('<!-- ts=')).length;
    const status = await poll(
      async () => api.statusText,
      (t) => t.includes(`$(note) ${notes}`),
      8000,
    );
    assert.match(status.value, new RegExp(`^\\$\\(history\\) kestrel {2}\\$\\(note\\) ${notes} {2}\\$\\(warning\\) \\d+$`));
  });
});
