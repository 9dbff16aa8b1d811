// Every Baton view populates from the fixture vault (test/fixtures/vault),
// read through the extension's own tree providers, and no corrupt file in the
// vault breaks any of them. Other suites write to their own projects, so what
// is asserted here about kestrel, lighthouse and the fixture's abandoned
// gemini session holds whichever order mocha runs the files in.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { BatonApi } from '../../src/vscode/api';
import { ContextValues } from '../../src/vscode/ids';
import type { Shown } from './support/baton';
import { batonApi, poll, scopeDir, shown, vaultDir, workspaceUri } from './support/baton';

const KESTREL = ['20261001-090000-claude', '20260920-140000-cursor', '20260915-100000-claude', '20260910-080000-codex'];
const sessionOf = (s: Shown): string => (s.node.kind === 'checkpoint' ? s.node.checkpoint.session : '');

function assertSafeTooltip(s: Shown): void {
  const tip = s.item.tooltip;
  if (tip instanceof vscode.MarkdownString) {
    assert.ok(!tip.isTrusted, `${s.label}: a tooltip needs no commands, so none may be trusted`);
    assert.ok(!tip.supportHtml, `${s.label}: tooltips render no HTML`);
  }
}

describe('views', () => {
  let api: BatonApi;
  before(async () => {
    api = await batonApi();
  });

  it('reads the fixture vault of the kestrel workspace', () => {
    assert.strictEqual(api.vaultRoot, vaultDir());
    assert.strictEqual(api.vaultState, 'ready');
    assert.strictEqual(api.project, 'kestrel');
  });

  it('Projects: every project, the workspace’s own first, expanding to worktrees and recent checkpoints', async () => {
    const roots = await shown(api.views.projects);
    assert.strictEqual(roots[0].label, 'kestrel');
    assert.strictEqual(roots[0].item.contextValue, ContextValues.currentProject);
    assert.match(roots[0].description, /current/);
    assert.match(roots[0].description, /1 abandoned/, 'the fixture’s silent gemini session');
    const lighthouse = roots.find((r) => r.label === 'lighthouse');
    assert.ok(lighthouse, `no lighthouse in ${roots.map((r) => r.label).join(', ')}`);
    assert.strictEqual(lighthouse.item.contextValue, ContextValues.project);
    assert.ok(
      roots.some((r) => r.label === 'orchard'),
      'a project with only working notes is listed too',
    );
    for (const r of roots) {
      assert.ok(r.item.id, `${r.label} has no stable id`);
      assertSafeTooltip(r);
    }

    const kids = await shown(api.views.projects, roots[0].node);
    assert.strictEqual(kids[0].label, 'annual-toggle');
    assert.strictEqual(kids[0].item.contextValue, ContextValues.scope);
    assert.deepStrictEqual(kids.slice(1).map(sessionOf).slice(0, 4), KESTREL);
    const worktree = await shown(api.views.projects, kids[0].node);
    assert.deepStrictEqual(worktree.map(sessionOf), ['20260921-120000-cursor']);
  });

  it('Checkpoints: the project’s history newest first, with handoff and auto-closed, expanding to sections', async () => {
    const list = await shown(api.views.checkpoints);
    assert.deepStrictEqual(list.map(sessionOf).slice(0, 4), KESTREL);
    const [fix, , evil, auto] = list;
    assert.strictEqual(fix.label, 'Fix the checkout crash on empty carts');
    assert.match(fix.description, /^claude → cursor · \d+d ago$/);
    assert.match(auto.description, /auto-closed/);
    assert.strictEqual(fix.item.contextValue, ContextValues.checkpoint);
    assert.strictEqual(fix.item.command?.command, 'baton.openCheckpoint');
    assert.ok(!evil.label.includes('\n'));
    list.forEach(assertSafeTooltip);

    const sections = await shown(api.views.checkpoints, fix.node);
    assert.deepStrictEqual(
      sections.map((s) => `${s.label} ${s.description}`),
      ["Didn't work 2", 'Blockers 1', 'Verified 1', 'Decisions 1', 'Files 2', 'Next add the refund test'],
    );
    const failed = await shown(api.views.checkpoints, sections[0].node);
    assert.deepStrictEqual(
      failed.map((f) => f.label),
      ['retrying the payment call: the crash happens before it', 'guarding in the template: the null comes from the store'],
    );
    const ids = [...list, ...sections, ...failed].map((s) => s.item.id);
    assert.strictEqual(new Set(ids).size, ids.length, 'ids are unique within the view');
  });

  it('Abandoned Sessions: silent sessions across the vault, each with the inline Close context', async () => {
    const list = await shown(api.views.abandoned);
    const gemini = list.find((s) => s.label === 'gemini · kestrel');
    assert.ok(gemini, `no gemini · kestrel in ${list.map((s) => s.label).join(', ')}`);
    assert.match(gemini.description, /^silent \d+d · 1 note$/);
    for (const s of list) assert.strictEqual(s.item.contextValue, ContextValues.abandoned);
    list.forEach(assertSafeTooltip);
  });

  it('Plans: per project, the current one first, each opening its file', async () => {
    const groups = await shown(api.views.plans);
    assert.strictEqual(groups[0].label, 'kestrel');
    assert.ok(groups.some((g) => g.label === 'lighthouse'));
    const plans = await shown(api.views.plans, groups[0].node);
    assert.strictEqual(plans.length, 1);
    assert.match(plans[0].label, /^Fix the checkout crash/);
    assert.strictEqual(plans[0].item.command?.command, 'baton.openPlan');
    const editor = (await vscode.commands.executeCommand(plans[0].item.command.command, ...(plans[0].item.command.arguments ?? []))) as vscode.TextEditor;
    assert.ok(editor.document.uri.fsPath.startsWith(path.join(vaultDir(), 'sessions', 'kestrel', 'plans')));
  });

  it('This File: follows the active editor', async () => {
    await vscode.window.showTextDocument(workspaceUri('src/checkout.ts'));
    const touched = await poll(
      () => shown(api.views.thisFile),
      (l) => l.length === 2,
    );
    assert.deepStrictEqual(
      touched.value.map((t) => (t.node.kind === 'touch' ? t.node.touch.session : '')),
      ['20261001-090000-claude', '20260915-100000-claude'],
    );
    assert.strictEqual(touched.value[0].item.contextValue, ContextValues.touch);

    await vscode.window.showTextDocument(workspaceUri('src/untouched.ts'));
    const none = await poll(
      () => shown(api.views.thisFile),
      (l) => l.length === 0,
    );
    assert.strictEqual(none.value.length, 0);

    // README.md is named bare by kestrel and by lighthouse: only kestrel's counts here.
    await vscode.window.showTextDocument(workspaceUri('README.md'));
    const readme = await poll(
      () => shown(api.views.thisFile),
      (l) => l.length > 0,
    );
    assert.deepStrictEqual(
      readme.value.map((t) => (t.node.kind === 'touch' ? t.node.touch.project : '')),
      ['kestrel'],
    );
  });

  it('a corrupt file in the vault breaks no view', async () => {
    const kestrel = scopeDir('kestrel');
    fs.writeFileSync(path.join(kestrel, '20261120-000000-garbage.md'), Buffer.from([0, 159, 146, 150, 0xff, 0xfe, 10, 0x2d, 0x2d, 0x2d]));
    fs.writeFileSync(path.join(kestrel, '20261121-000000-halfway.md'), '---\ntype: checkpoint\nchecked: [\n');
    fs.mkdirSync(path.join(kestrel, '20261122-000000-folder.md'), { recursive: true });
    fs.writeFileSync(path.join(vaultDir(), 'sessions', 'stray-file.md'), 'not a project folder');
    try {
      await vscode.commands.executeCommand('baton.refresh');
      const views = [api.views.projects, api.views.checkpoints, api.views.abandoned, api.views.plans];
      const counts = await Promise.all(views.map(async (v) => (await shown(v)).length));
      assert.ok(
        counts.every((c) => c > 0),
        `every view still has items: ${counts.join(', ')}`,
      );
      const list = await shown(api.views.checkpoints);
      assert.deepStrictEqual(list.map(sessionOf).slice(0, 4), KESTREL, 'the good checkpoints beside them are all there');
    } finally {
      fs.rmSync(path.join(kestrel, '20261120-000000-garbage.md'), { force: true });
      fs.rmSync(path.join(kestrel, '20261121-000000-halfway.md'), { force: true });
      fs.rmSync(path.join(kestrel, '20261122-000000-folder.md'), { recursive: true, force: true });
      fs.rmSync(path.join(vaultDir(), 'sessions', 'stray-file.md'), { force: true });
    }
  });
});
