// Evidence that expires, in the real editor (issue 26): a Verified claim of
// the fixture repository, backed by a shell run the real hook recorded and
// checkpointed by the real CLI, is fresh in the file hover, the line (agent
// blame) hover and the Checkpoints tree; an unsaved edit of its file changes
// nothing, a saved one turns it stale everywhere, with Re-run Verification on
// it; Re-run Verification runs `baton verify --run` in a terminal and the
// claim is fresh again once the new checkpoint lands. Restricted Mode: this
// harness runs with workspace trust off, so here the manifest's side is
// checked; test/restricted/ runs the command in an untrusted workspace.
// The checkpoints, the commit and the file are removed afterwards, so the
// other suites see the fixture as it was.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { BatonApi } from '../../src/vscode/api';
import type { RerunResult } from '../../src/vscode/commands/rerunVerification';
import { ContextValues } from '../../src/vscode/ids';
import { batonApi, checkpointFiles, poll, scopeDir, shown, workspaceDir, type Shown } from './support/baton';
import { CLAIM, COMMAND, REL, TASK, backedClaim, git } from './support/verifiedClaim';

/** The markdown of the hovers of a line that are Baton's (`marker` tells which of its two). */
async function hovers(uri: vscode.Uri, line: number, marker: string): Promise<string[]> {
  const got = (await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, new vscode.Position(line, 1))) ?? [];
  return got
    .flatMap((h) => h.contents)
    .filter((c): c is vscode.MarkdownString => typeof c === 'object' && 'value' in c && !('language' in c))
    .map((m) => m.value)
    .filter((v) => v.includes(marker));
}
const fileHover = (uri: vscode.Uri): Promise<string> => hovers(uri, 0, 'touched this file').then((h) => h[0] ?? '');
const lineHover = (uri: vscode.Uri): Promise<string> => hovers(uri, 1, 'written in this session').then((h) => h[0] ?? '');
/** The hover's newest checkpoint (each detailed one follows a rule; agents' text has its dashes escaped). */
const newest = (md: string): string => md.split('---\n\n')[1] ?? '';
/** Markdown as read: the escapes of agents' text taken out. */
const plain = (md: string): string => md.replace(/\\(.)/g, '$1');

describe('verified claims: fresh, stale, re-run', () => {
  let api: BatonApi;
  let project = '';
  let head = '';
  let existing: string[] = [];
  let notes = '';
  let uri: vscode.Uri;

  /** The Verified section of the project's latest checkpoint and its items, as the Checkpoints tree draws them. */
  async function verified(): Promise<{ checkpoint: Shown; section: Shown; items: Shown[] }> {
    const tree = api.views.projects;
    const root = (await shown(tree)).find((s) => s.node.kind === 'project' && s.node.continuity.project === project);
    assert.ok(root, `no ${project} in the tree`);
    const checkpoint = (await shown(tree, root.node)).find((s) => s.node.kind === 'checkpoint');
    assert.ok(checkpoint, `no checkpoint under ${project}`);
    const section = (await shown(tree, checkpoint.node)).find((s) => s.label === 'Verified');
    assert.ok(section, `no Verified section under ${checkpoint.label}`);
    return { checkpoint, section, items: await shown(tree, section.node) };
  }
  const tip = (s: Shown): string => (s.item.tooltip instanceof vscode.MarkdownString ? plain(s.item.tooltip.value) : String(s.item.tooltip ?? ''));
  const iconId = (s: Shown): string => (s.item.iconPath instanceof vscode.ThemeIcon ? s.item.iconPath.id : '');

  before(async function () {
    this.timeout(90_000);
    api = await batonApi();
    project = api.project ?? '';
    assert.ok(project, 'the fixture workspace has no project');
    head = git(['rev-parse', 'HEAD']);
    existing = checkpointFiles(project);
    // Every checkpoint folds the scope's long-silent sessions (the fixture's abandoned one too): put the notes back afterwards.
    notes = fs.readFileSync(path.join(scopeDir(project), 'uncommitted.md'), 'utf8');
    await backedClaim(project, 'export const verified = true;\nexport const checkedBy = "a test";\n');
    uri = vscode.Uri.file(path.join(workspaceDir(), REL));
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
  });

  after(async function () {
    this.timeout(30_000);
    await vscode.commands.executeCommand('workbench.action.files.revert');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    for (const t of vscode.window.terminals) if (t.name === 'Baton: Verify') t.dispose();
    for (const f of checkpointFiles(project).filter((f) => !existing.includes(f))) fs.rmSync(path.join(scopeDir(project), f), { force: true });
    if (notes) fs.writeFileSync(path.join(scopeDir(project), 'uncommitted.md'), notes);
    // The note was folded into the checkpoint; the runs are machine-local records nobody else reads.
    git(['reset', '-q', '--hard', head]);
    fs.rmSync(path.join(workspaceDir(), REL), { force: true });
    // The next suites read the project's latest checkpoint: wait until the views no longer show these.
    await poll(
      async () => ((await api.views.checkpoints.getChildren()) ?? []).some((n) => n.kind === 'checkpoint' && n.checkpoint.task === TASK),
      (mine) => !mine,
      10_000,
    );
  });

  it('a claim backed by its run is fresh in the file hover, the line hover and the tree', async function () {
    this.timeout(60_000);
    const md = (
      await poll(
        () => fileHover(uri),
        (v) => v.includes('fresh'),
        20_000,
      )
    ).value;
    assert.match(plain(md), new RegExp(`\\*fresh:\\* verified at [0-9a-f]{7} by ${COMMAND}; its 1 file unchanged since`), md);
    assert.ok(!md.includes('command:baton.rerunVerification'), 'a fresh claim offers no re-run');
    const line = (
      await poll(
        () => lineHover(uri),
        (v) => v.includes('fresh'),
        20_000,
      )
    ).value;
    assert.match(plain(line), new RegExp(`${CLAIM} · \\*fresh:\\* verified at [0-9a-f]{7} by ${COMMAND}`), line);
    // The tree hears of the checkpoint through the vault watcher, debounced: it may come after the hover's index did.
    const { section, items } = (
      await poll(
        () => verified(),
        (v) => v.items[0]?.label === CLAIM,
        20_000,
      )
    ).value;
    assert.deepStrictEqual(
      items.map((i) => [i.label, i.description, iconId(i), i.item.contextValue]),
      [[CLAIM, 'fresh', 'pass', ContextValues.sectionItem]],
    );
    assert.match(tip(items[0]), /fresh: verified at [0-9a-f]{7} by "test -f src\/verified\.ts"; its 1 file\(s\) unchanged since/);
    assert.strictEqual(iconId(section), 'pass');
  });

  it('an unsaved edit of its file changes nothing; saved, the claim is stale in both hovers and the tree, with Re-run Verification', async function () {
    this.timeout(60_000);
    const doc = await vscode.workspace.openTextDocument(uri);
    const edit = new vscode.WorkspaceEdit();
    edit.insert(uri, new vscode.Position(2, 0), 'export const edited = 1;\n');
    assert.ok(await vscode.workspace.applyEdit(edit));
    assert.ok(doc.isDirty);
    assert.match(plain(await fileHover(uri)), /\*fresh:\* verified/, 'unsaved text is no change of the file');
    assert.strictEqual((await verified()).items[0].description, 'fresh');

    // VS Code draws a tree again only when told: the save itself must tell it (no vault change comes).
    const told = api.views.projects.onDidChangeTreeData;
    assert.ok(told, 'the Checkpoints tree has no change event');
    const redrawn = new Promise<void>((resolve) => {
      const sub = told(() => {
        sub.dispose();
        resolve();
      });
    });
    assert.ok(await doc.save());
    await redrawn;
    const md = (
      await poll(
        () => fileHover(uri),
        (v) => v.includes('stale'),
        20_000,
      )
    ).value;
    assert.match(
      plain(md),
      new RegExp(`⚠ \\*\\*stale:\\*\\* verified at [0-9a-f]{7} by ${COMMAND}; 1 of its 1 file changed since \\(src/verified\\.ts\\): re-run before relying on it`),
      md,
    );
    assert.match(md, /\[Re\\-run Verification\]\(command:baton\.rerunVerification\?/, md);
    const line = (
      await poll(
        () => lineHover(uri),
        (v) => v.includes('stale'),
        20_000,
      )
    ).value;
    assert.match(line, /\]\(command:baton\.rerunVerification\?/, line);
    const { checkpoint, section, items } = (
      await poll(
        () => verified(),
        (v) => v.items[0]?.description === 'stale',
        20_000,
      )
    ).value;
    assert.deepStrictEqual(
      items.map((i) => [i.description, iconId(i), i.item.contextValue]),
      [['stale', 'warning', ContextValues.staleClaim]],
    );
    assert.match(tip(items[0]), /1 of its 1 file\(s\) changed since \(src\/verified\.ts\): re-run before relying on it/);
    assert.deepStrictEqual([section.description, iconId(section)], ['1 · 1 stale', 'warning']);
    assert.match(tip(checkpoint), /Verified: 1 of 1 claim stale/);
  });

  it('Re-run Verification runs baton verify --run in a terminal; the new checkpoint lands and the claim is fresh', async function () {
    this.timeout(90_000);
    const { checkpoint } = await verified();
    assert.ok(checkpoint.node.kind === 'checkpoint');
    const slug = checkpoint.node.checkpoint.slug;
    const count = checkpointFiles(project).length;
    const r = await vscode.commands.executeCommand<RerunResult>('baton.rerunVerification', { slug });
    assert.strictEqual(r.refused, undefined, r.refused);
    assert.deepStrictEqual(r.args, ['verify', project, '--run']);
    assert.strictEqual(r.cwd, workspaceDir());
    const landed = await poll(
      () => Promise.resolve(checkpointFiles(project).length),
      (n) => n > count,
      30_000,
    );
    assert.strictEqual(landed.value, count + 1, 'baton verify --run wrote no checkpoint');
    // The newest checkpoint's claim is fresh; the old one's stays stale below it (its run saw the file before the edit), offering no re-run.
    const md = (
      await poll(
        () => fileHover(uri),
        (v) => newest(v).includes('fresh'),
        20_000,
      )
    ).value;
    assert.match(plain(newest(md)), new RegExp(`\\*fresh:\\* verified at [0-9a-f]{7} by ${COMMAND}; its 1 file unchanged since`), md);
    assert.ok(!md.includes('command:baton.rerunVerification'), md);
    const after = (
      await poll(
        () => verified(),
        (v) => v.items[0]?.description === 'fresh',
        20_000,
      )
    ).value;
    assert.ok(after.checkpoint.node.kind === 'checkpoint' && after.checkpoint.node.checkpoint.slug !== slug, 'the latest checkpoint is the new one');
    assert.deepStrictEqual([after.items[0].label, iconId(after.items[0])], [CLAIM, 'pass']);
    // Asked again on the old checkpoint, which is no longer the latest: it says why, and nothing runs.
    const again = await vscode.commands.executeCommand<RerunResult>('baton.rerunVerification', { slug });
    assert.match(again.refused ?? '', /latest checkpoint/);
  });

  it('is not offered in Restricted Mode: its enablement and its menus need a trusted workspace, and the palette never lists it', () => {
    const m = vscode.extensions.getExtension('baton-dev.baton')?.packageJSON as {
      contributes: { commands: { command: string; enablement?: string }[]; menus: Record<string, { command: string; when?: string }[]> };
    };
    assert.strictEqual(m.contributes.commands.find((c) => c.command === 'baton.rerunVerification')?.enablement, 'isWorkspaceTrusted');
    const entries = Object.entries(m.contributes.menus).flatMap(([menu, es]) => es.filter((e) => e.command === 'baton.rerunVerification').map((e) => [menu, e.when ?? '']));
    assert.ok(entries.length >= 2, JSON.stringify(entries));
    for (const [menu, when] of entries) {
      if (menu === 'commandPalette') assert.strictEqual(when, 'false');
      else assert.match(when, /&& isWorkspaceTrusted$/, `${menu}: ${when}`);
    }
  });
});
