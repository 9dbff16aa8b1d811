// Baton in Restricted Mode, in the real VS Code (issues 26 and 28): the
// harness opens the fixture workspace with workspace trust on and the folder
// never trusted (run.js --restricted). Baton declares limited support, so it
// activates; what runs programs or writes into the repository must not:
// Re-run Verification (it runs a checkpoint's commands in a terminal), Share
// the Thread and Stop Sharing the Thread (Baton's git, files cloud agents run).
// Invoked anyway, each writes nothing, opens no terminal and says why; a stale
// claim's hover offers no Re-run link. The menus' `when` clauses are the
// manifest's, checked in test/integration/verification.test.ts.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { BatonApi } from '../../src/vscode/api';
import type { RerunResult } from '../../src/vscode/commands/rerunVerification';
import { EXTENSION_ID, batonApi, poll, vaultDir, workspaceDir } from '../integration/support/baton';
import { REL, TASK, backedClaim, git } from '../integration/support/verifiedClaim';

/** Everything in the working tree git can tell apart, ignored files too. */
const treeState = (): string => git(['status', '--porcelain', '--ignored', '--untracked-files=all']);

/**
 * Every record of the vault with its size and mtime: a write there shows. Its
 * .baton/ folder is left out: the index cache there is saved when Baton sees
 * fit, and is no record anyone reads.
 */
function vaultState(dir = vaultDir()): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((e) => !(dir === vaultDir() && e.name === '.baton'))
    .flatMap((e) => {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) return vaultState(p);
      const s = fs.statSync(p);
      return [`${path.relative(vaultDir(), p)} ${s.size} ${s.mtimeMs}`];
    })
    .sort();
}

async function fileHover(uri: vscode.Uri): Promise<string> {
  const got = (await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, new vscode.Position(0, 1))) ?? [];
  return (
    got
      .flatMap((h) => h.contents)
      .filter((c): c is vscode.MarkdownString => typeof c === 'object' && 'value' in c && !('language' in c))
      .map((m) => m.value)
      .find((v) => v.includes('touched this file')) ?? ''
  );
}

describe('Restricted Mode (an untrusted workspace)', () => {
  let api: BatonApi;
  let project = '';
  let slug = '';
  let uri: vscode.Uri;

  before(async function () {
    this.timeout(90_000);
    // First: everything below means something only if the folder really is untrusted.
    assert.strictEqual(vscode.workspace.isTrusted, false, 'the harness opened a trusted workspace: was it run with --restricted?');
    api = await batonApi();
    project = api.project ?? '';
    assert.ok(project, 'the fixture workspace has no project');
    // A Verified claim backed by its run (as in test/integration/verification.test.ts), then its file changed on disk: stale.
    await backedClaim(project, 'export const verified = true;\n');
    fs.writeFileSync(path.join(workspaceDir(), REL), 'export const verified = true;\nexport const edited = 1;\n');
    const latest = await poll(
      async () => ((await api.views.checkpoints.getChildren()) ?? []).find((n) => n.kind === 'checkpoint' && n.checkpoint.task === TASK),
      (n) => n !== undefined,
      20_000,
    );
    assert.ok(latest.value?.kind === 'checkpoint', 'the views never showed the checkpoint');
    slug = latest.value.checkpoint.slug;
    uri = vscode.Uri.file(path.join(workspaceDir(), REL));
  });

  it('the workspace is untrusted, and Baton (limited support) is active with its views', () => {
    assert.strictEqual(vscode.workspace.isTrusted, false);
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext?.isActive, 'Baton is not active in Restricted Mode');
    const m = ext.packageJSON as { capabilities: { untrustedWorkspaces: { supported: unknown } } };
    assert.strictEqual(m.capabilities.untrustedWorkspaces.supported, 'limited');
    assert.ok(api.views.projects && api.views.checkpoints, 'no views in the API');
  });

  it('a stale claim is shown stale in the file hover, with no Re-run Verification link', async function () {
    this.timeout(40_000);
    const md = (
      await poll(
        () => fileHover(uri),
        (v) => v.includes('stale'),
        20_000,
      )
    ).value;
    assert.match(md, /stale/, `the hover never showed the claim stale: ${md}`);
    assert.ok(!md.includes('command:baton.rerunVerification'), md);
  });

  /** Runs `command`, then holds that it changed nothing anyone could see. */
  async function changesNothing<T>(command: string, arg: unknown): Promise<T | undefined> {
    const tree = treeState();
    const vault = vaultState();
    const terminals = vscode.window.terminals.length;
    const r = await vscode.commands.executeCommand<T>(command, arg);
    assert.strictEqual(treeState(), tree, `${command} changed the working tree`);
    assert.deepStrictEqual(vaultState(), vault, `${command} wrote in the vault`);
    assert.strictEqual(vscode.window.terminals.length, terminals, `${command} opened a terminal`);
    return r;
  }

  it('Re-run Verification on that stale claim runs nothing, opens no terminal and says trust is needed', async function () {
    this.timeout(20_000);
    const r = await changesNothing<RerunResult>('baton.rerunVerification', { slug });
    assert.strictEqual(r?.terminal, undefined);
    assert.strictEqual(r?.args, undefined);
    assert.match(r?.refused ?? '', /trust this workspace/);
  });

  it('Share the Thread With Cloud Agents writes nothing and returns nothing', async function () {
    this.timeout(20_000);
    assert.strictEqual(await changesNothing('baton.shareThread', { project, folder: workspaceDir() }), undefined);
    assert.ok(!fs.existsSync(path.join(workspaceDir(), 'agent-thread')), 'an agent-thread/ folder appeared');
  });

  it('Stop Sharing the Thread writes nothing and returns nothing', async function () {
    this.timeout(20_000);
    assert.strictEqual(await changesNothing('baton.stopSharingThread', { project, folder: workspaceDir() }), undefined);
  });
});
