// Import Past Sessions in the real editor (issue 27): the walkthrough's first
// step offers it; run over a fixture history (the real CLIs' transcripts in a
// home folder of the test's own, never the machine's), its pick answered as a
// person would, each session becomes a checkpoint the Checkpoints view lists,
// the views filling while it runs; Cancel stops it between sessions and the
// next import writes the rest; a machine with no history is told where Baton looked.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import type { ImportOutcome } from '../../src/vscode/commands/importCommand';
import type { BatonApi } from '../../src/vscode/api';
import { Commands } from '../../src/vscode/ids';
import { PAST_PROJECTS, PAST_TASKS, writeManySessions, writePastHistory } from '../support/pastHistory';
import { batonApi, checkpointFiles, poll, shown } from './support/baton';
import { accept, drive } from './support/quickPicks';

interface Manifest {
  contributes: { walkthroughs: { steps: { id: string; description: string }[] }[] };
}

const BULK = 'import-bulk';

const tempHome = (): string => fs.mkdtempSync(path.join(os.tmpdir(), 'baton-past-home-'));

async function projectLabels(api: BatonApi): Promise<string[]> {
  return (await shown(api.views.projects)).map((r) => r.label);
}

describe('import past sessions', function () {
  this.timeout(120_000);
  let api: BatonApi;
  const homes: string[] = [];
  before(async () => {
    api = await batonApi();
  });
  after(async () => {
    for (const h of homes) fs.rmSync(h, { recursive: true, force: true });
    // The vault is shared with the suites after: the projects made here go again, and the views with them.
    const made = [...Object.values(PAST_PROJECTS), BULK];
    for (const p of made) fs.rmSync(path.join(api.vaultRoot, 'sessions', p), { recursive: true, force: true });
    await vscode.commands.executeCommand(Commands.refresh);
    await poll(
      () => projectLabels(api),
      (l) => !made.some((p) => l.includes(p)),
    );
  });
  const home = (): string => {
    const h = tempHome();
    homes.push(h);
    return h;
  };

  it('is offered by the walkthrough’s first step and the palette; over a history it imports each session, and the Checkpoints view lists them', async () => {
    const ext = vscode.extensions.getExtension('baton-dev.baton');
    assert.ok(ext);
    const [first] = (ext.packageJSON as Manifest).contributes.walkthroughs[0].steps;
    assert.strictEqual(first.id, 'chooseVault');
    assert.match(first.description, /\[Import Past Sessions\]\(command:baton\.importPastSessions\)/);
    assert.ok((await vscode.commands.getCommands(true)).includes(Commands.importPastSessions));

    const h = home();
    writePastHistory(h);
    // The step's command, its pick (every agent found, each checked) accepted as Enter would.
    const ran = await drive<ImportOutcome>(Commands.importPastSessions, [accept], { home: h });
    assert.ok(ran, 'the pick was answered');
    const { found, report } = ran;
    assert.deepStrictEqual(
      found.map((f) => [f.agent, f.sessions]),
      [
        ['claude-code', 1],
        ['codex', 1],
        ['gemini', 1],
        ['copilot', 1],
      ],
    );
    assert.ok(report);
    assert.deepStrictEqual(report.skipped, []);
    assert.strictEqual(report.imported, 4);
    assert.strictEqual(report.cancelled, undefined);

    // The Checkpoints view: every imported project, each open on its imported checkpoint.
    const { value: labels } = await poll(
      () => projectLabels(api),
      (l) => Object.values(PAST_PROJECTS).every((p) => l.includes(p)),
      15000,
    );
    for (const p of Object.values(PAST_PROJECTS)) assert.ok(labels.includes(p), `${p} not in ${labels.join(', ')}`);
    for (const [agent, project] of Object.entries(PAST_PROJECTS) as [keyof typeof PAST_PROJECTS, string][]) {
      const root = (await shown(api.views.projects)).find((r) => r.label === project);
      assert.ok(root, project);
      const kids = await shown(api.views.projects, root.node);
      const cp = kids.find((k) => k.node.kind === 'checkpoint');
      assert.ok(cp, `${project} lists no checkpoint: ${kids.map((k) => k.label).join(', ')}`);
      assert.strictEqual(cp.label, PAST_TASKS[agent], project);
      assert.match(cp.description, new RegExp(`^${agent}\\b`), project);
      assert.strictEqual(checkpointFiles(project).length, 1, project);
    }

    // Again: nothing twice.
    const again = await vscode.commands.executeCommand<ImportOutcome>(Commands.importPastSessions, { home: h, agents: ['claude-code', 'codex', 'gemini', 'copilot'] });
    assert.strictEqual(again?.report?.imported, 0);
    assert.strictEqual(again?.report?.skipped.length, 4);
    assert.strictEqual(again?.said, 'Baton imported 0 sessions, 4 skipped (the log says why).');
    for (const s of again?.report?.skipped ?? []) assert.match(s.reason, /^already in the vault/);
    for (const p of Object.values(PAST_PROJECTS)) assert.strictEqual(checkpointFiles(p).length, 1, p);
  });

  it('fills the views while it runs; cancelled, it stops between sessions, and the next import writes the rest', async () => {
    const h = home();
    const project = BULK;
    const total = 60;
    writeManySessions(h, project, total);
    const cancel = new vscode.CancellationTokenSource();
    let seenWhileRunning = false;
    // Cancel as a person would, on seeing the first imported session in the view.
    const listening = api.onDidRefresh(() => {
      void projectLabels(api).then((l) => {
        if (!cancel.token.isCancellationRequested && l.includes(project)) {
          seenWhileRunning = true;
          cancel.cancel();
        }
      });
    });
    let first: ImportOutcome | undefined;
    try {
      first = await vscode.commands.executeCommand<ImportOutcome>(Commands.importPastSessions, { home: h, agents: ['claude-code'], token: cancel.token });
    } finally {
      listening.dispose();
    }
    assert.ok(seenWhileRunning, 'the project showed in the view before the import ended');
    const r = first?.report;
    assert.ok(r?.cancelled, `not cancelled: ${JSON.stringify(r && { imported: r.imported, skipped: r.skipped.length })}`);
    assert.ok(r.imported >= 1 && r.imported < total, `imported ${r.imported} of ${total}`);
    assert.strictEqual(r.cancelled.left, total - r.imported);
    // What it wrote is whole: one complete checkpoint per session it says it imported, no more.
    const files = checkpointFiles(project);
    assert.strictEqual(files.length, r.imported);
    for (const f of files) assert.match(fs.readFileSync(path.join(api.vaultRoot, 'sessions', project, f), 'utf8'), /## Task\n\n[^\n]+\n[\s\S]*## State\n/);

    const rest = await vscode.commands.executeCommand<ImportOutcome>(Commands.importPastSessions, { home: h, agents: ['claude-code'] });
    assert.strictEqual(rest?.report?.imported, total - r.imported);
    assert.strictEqual(rest?.report?.skipped.length, r.imported);
    assert.strictEqual(checkpointFiles(project).length, total);
  });

  it('with no history on the machine says so, and writes nothing', async () => {
    const h = home();
    const before = fs.readdirSync(path.join(api.vaultRoot, 'sessions')).sort();
    const none = await vscode.commands.executeCommand<ImportOutcome>(Commands.importPastSessions, { home: h });
    assert.deepStrictEqual(none?.found, []);
    assert.strictEqual(none?.report, undefined);
    assert.strictEqual(
      none?.said,
      'Baton found no past agent sessions on this machine. It looked in ~/.claude/projects, ~/.codex/sessions, ~/.gemini/tmp, ~/.copilot/session-state, ~/.config/Code/User/workspaceStorage and ~/.config/Cursor/User/globalStorage.',
    );
    assert.deepStrictEqual(fs.readdirSync(path.join(api.vaultRoot, 'sessions')).sort(), before);
  });
});
