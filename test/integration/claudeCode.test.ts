// A checkpoint bound to a Claude Code session, in the real VS Code: only such
// items carry the context value its menus match; Resume in Claude Code opens
// a "Claude Code" terminal in the session's folder and types `claude --resume
// <id>`, and refuses an id a shell could misread; Open Transcript opens the
// JSONL read-only. Checkpoints this suite writes go to `claude-ext`, so the
// fixture's kestrel stays as the other suites expect it.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { renderCheckpoint } from '../../src/adapters/markdown/checkpointFile';
import { HOVER_COMMANDS } from '../../src/core/hoverText';
import type { ClaudeResumeResult, TranscriptResult } from '../../src/vscode/commands/claudeCodeCommands';
import { CLAUDE_TERMINAL, Commands, ContextValues, TRANSCRIPT_SCHEME } from '../../src/vscode/ids';
import { makeCheckpoint } from '../unit/builders';
import { batonApi, EXTENSION_ID, poll, scopeDir, shown, vaultDir, workspaceDir, workspaceUri } from './support/baton';

const SCOPE = 'claude-ext';
const FIXTURE = '20260905-170000-claude-code';
const FIXTURE_ID = '5f3c2a9e-8b1d-4c7e-9a2f-6d0b1e4c8a73';
let written = 0;

/** Writes a checkpoint of `claude-ext` with the given frontmatter extras; returns its slug. */
function bound(extra: Record<string, unknown>, agent = 'claude-code'): string {
  const session = `20261101-0000${String(written++).padStart(2, '0')}-${agent}`;
  fs.mkdirSync(scopeDir(SCOPE), { recursive: true });
  fs.writeFileSync(path.join(scopeDir(SCOPE), `${session}.md`), renderCheckpoint(makeCheckpoint({ project: SCOPE, agent, session, task: 'a bound session', extra })));
  return `sessions/${SCOPE}/${session}`;
}

/**
 * Runs a command and returns the terminals it created. `window.terminals`
 * holds a terminal as soon as the extension host created it; the workbench's
 * onDidOpenTerminal follows later (the shell starts first), so a created one
 * is also awaited there, showing it really opened.
 */
async function opening<T>(run: () => Thenable<T>): Promise<{ result: T; terminals: vscode.Terminal[] }> {
  const seen: vscode.Terminal[] = [];
  const sub = vscode.window.onDidOpenTerminal((t) => seen.push(t));
  try {
    const before = new Set(vscode.window.terminals);
    const result = await run();
    const terminals = vscode.window.terminals.filter((t) => !before.has(t));
    if (terminals.length)
      await poll(
        async () => terminals.every((t) => seen.includes(t)),
        (ok) => ok,
        15000,
      );
    return { result, terminals };
  } finally {
    sub.dispose();
  }
}

const cwdOf = (t: vscode.Terminal): string | undefined => {
  const cwd = (t.creationOptions as vscode.TerminalOptions).cwd;
  return typeof cwd === 'string' ? cwd : cwd?.fsPath;
};

describe('Claude Code sessions', () => {
  const opened: vscode.Terminal[] = [];
  before(async () => {
    await batonApi();
  });
  after(() => opened.forEach((t) => t.dispose()));

  it('only a bound checkpoint carries the context value its menus match, in Checkpoints and This File', async () => {
    const api = await batonApi();
    const list = await shown(api.views.checkpoints);
    const values = new Map(list.map((s) => [s.node.kind === 'checkpoint' ? s.node.checkpoint.session : '', s.item.contextValue]));
    assert.strictEqual(values.get(FIXTURE), ContextValues.claudeCheckpoint);
    for (const [session, value] of values) if (session !== FIXTURE) assert.strictEqual(value, ContextValues.checkpoint, session);

    await vscode.window.showTextDocument(workspaceUri('src/refund.ts'));
    const refund = await poll(
      () => shown(api.views.thisFile),
      (l) => l.length === 1 && l[0].node.kind === 'touch' && l[0].node.touch.session === FIXTURE,
    );
    assert.strictEqual(refund.value[0]?.item.contextValue, ContextValues.claudeTouch);
    await vscode.window.showTextDocument(workspaceUri('src/checkout.ts'));
    const checkout = await poll(
      () => shown(api.views.thisFile),
      (l) => l.length === 2,
    );
    assert.deepStrictEqual(
      checkout.value.map((t) => t.item.contextValue),
      [ContextValues.touch, ContextValues.touch],
    );

    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext);
    const m = JSON.parse(fs.readFileSync(path.join(ext.extensionPath, 'package.json'), 'utf8')) as {
      contributes: { menus: Record<string, { command: string; when?: string; group?: string }[]> };
    };
    const items = m.contributes.menus['view/item/context'].filter((e) => e.command === Commands.resumeInClaudeCode || e.command === Commands.openTranscript);
    assert.deepStrictEqual(items.map((e) => `${e.command} ${e.group?.split('@')[0]}`).sort(), [
      'baton.openTranscript 2_claude',
      'baton.resumeInClaudeCode 2_claude',
      'baton.resumeInClaudeCode inline',
    ]);
    for (const e of items) {
      const matched = [...(e.when ?? '').matchAll(/viewItem == ([\w.]+)/g)].map((x) => x[1]).sort();
      assert.deepStrictEqual(matched, [ContextValues.claudeCheckpoint, ContextValues.claudeTouch].sort(), e.when);
    }
  });

  it('Resume in Claude Code opens a "Claude Code" terminal in the session’s folder and types claude --resume <id>', async () => {
    const folder = fs.mkdtempSync(path.join(path.dirname(vaultDir()), 'claude-cwd-'));
    const id = '0b7e2c44-1f7a-4c51-9d3e-2a6b8f9c0d15';
    const slug = bound({ agent_session: id, cwd: folder });
    const { result, terminals } = await opening(() => vscode.commands.executeCommand<ClaudeResumeResult>(Commands.resumeInClaudeCode, { slug }));
    opened.push(...terminals);
    assert.ok(!result.refused, result.refused);
    assert.strictEqual(result.commandLine, `claude --resume ${id}`);
    assert.strictEqual(terminals.length, 1);
    assert.strictEqual(terminals[0].name, CLAUDE_TERMINAL);
    assert.strictEqual(cwdOf(terminals[0]), folder);
  });

  it('from the tree item, a folder not on this machine falls back to the workspace folder', async () => {
    const api = await batonApi();
    const item = (await shown(api.views.checkpoints)).find((s) => s.item.contextValue === ContextValues.claudeCheckpoint);
    assert.ok(item);
    // What the context menu and the inline action pass: the tree node.
    const { result, terminals } = await opening(() => vscode.commands.executeCommand<ClaudeResumeResult>(Commands.resumeInClaudeCode, item.node));
    opened.push(...terminals);
    assert.strictEqual(result.commandLine, `claude --resume ${FIXTURE_ID}`);
    assert.strictEqual(result.cwd, workspaceDir());
    assert.strictEqual(cwdOf(terminals[0]), workspaceDir());
  });

  it('refuses an id a shell or claude could misread, and opens no terminal', async () => {
    const hostile = ['abc; touch /tmp/baton-pwned', '$(rm -rf ~)', '`id`', '--dangerously-skip-permissions', '-x', 'a b', 'a\nb', '../../x', 'x'.repeat(200), 'é'];
    for (const id of hostile) {
      const slug = bound({ agent_session: id });
      const { result, terminals } = await opening(() => vscode.commands.executeCommand<ClaudeResumeResult>(Commands.resumeInClaudeCode, { slug }));
      opened.push(...terminals);
      assert.ok(result.refused, `accepted ${JSON.stringify(id)}`);
      assert.match(result.refused, /only letters, digits/);
      assert.strictEqual(result.commandLine, undefined);
      assert.deepStrictEqual(
        terminals.map((t) => t.name),
        [],
        `a terminal opened for ${JSON.stringify(id)}`,
      );
    }
  });

  it('refuses a checkpoint bound to no Claude Code session, and a path out of the vault', async () => {
    const codex = bound({ agent_session: 'a1b2c3' }, 'codex');
    const r = await vscode.commands.executeCommand<ClaudeResumeResult>(Commands.resumeInClaudeCode, { slug: codex });
    assert.match(r.refused ?? '', /not bound to a Claude Code session/);
    const out = await vscode.commands.executeCommand<ClaudeResumeResult>(Commands.resumeInClaudeCode, { slug: '../../../etc/passwd' });
    assert.match(out.refused ?? '', /no such checkpoint/);
  });

  it('Open Transcript opens the JSONL read-only', async () => {
    const file = path.join(fs.mkdtempSync(path.join(path.dirname(vaultDir()), 'transcript-')), 'session.jsonl');
    const text = '{"type":"user","message":{"role":"user","content":"add the refund endpoint"}}\n{"type":"assistant","message":{"role":"assistant","content":"ok"}}\n';
    fs.writeFileSync(file, text);
    const slug = bound({ agent_session: 'c0ffee-1', transcript: file });
    const r = await vscode.commands.executeCommand<TranscriptResult>(Commands.openTranscript, { slug });
    assert.ok(r.editor, r.refused);
    const doc = r.editor.document;
    assert.strictEqual(doc.uri.scheme, TRANSCRIPT_SCHEME);
    assert.strictEqual(doc.uri.fsPath, file);
    assert.strictEqual(doc.getText(), text);
    assert.strictEqual(vscode.window.activeTextEditor?.document.uri.toString(), doc.uri.toString());
    // A virtual document has no file system behind it: whatever is typed, nothing saves back to the transcript.
    assert.notStrictEqual(vscode.workspace.fs.isWritableFileSystem(TRANSCRIPT_SCHEME), true);
    const edit = new vscode.WorkspaceEdit();
    edit.insert(doc.uri, new vscode.Position(0, 0), 'x');
    await vscode.workspace.applyEdit(edit);
    assert.strictEqual(await doc.save(), false, 'the transcript document saved');
    assert.strictEqual(fs.readFileSync(file, 'utf8'), text);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('Open Transcript says so when the transcript is not here, or is no JSONL', async () => {
    const api = await batonApi();
    const item = (await shown(api.views.checkpoints)).find((s) => s.item.contextValue === ContextValues.claudeCheckpoint);
    assert.ok(item);
    const missing = await vscode.commands.executeCommand<TranscriptResult>(Commands.openTranscript, item.node);
    assert.strictEqual(missing.editor, undefined);
    assert.match(missing.refused ?? '', /not on this machine/);
    const key = bound({ agent_session: 'c0ffee-2', transcript: path.join(workspaceDir(), 'src', 'cart.ts') });
    const notJsonl = await vscode.commands.executeCommand<TranscriptResult>(Commands.openTranscript, { slug: key });
    assert.match(notJsonl.refused ?? '', /\.jsonl/);
  });

  it('the hover of a file a bound checkpoint touched links Resume in Claude Code, by slug only', async () => {
    const uri = workspaceUri('src/refund.ts');
    await vscode.workspace.openTextDocument(uri);
    const baton = async (): Promise<vscode.MarkdownString[]> =>
      ((await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, new vscode.Position(0, 1))) ?? [])
        .flatMap((h) => h.contents)
        .filter((c): c is vscode.MarkdownString => typeof c === 'object' && 'value' in c && !('language' in c))
        .filter((m) => m.value.includes('**Baton**'));
    const [md] = (await poll(baton, (h) => h.length === 1)).value;
    assert.ok(md, 'no Baton hover on src/refund.ts');
    const link = /\]\(command:baton\.resumeInClaudeCode\?([^)]*)\)/.exec(md.value);
    assert.ok(link, md.value);
    assert.deepStrictEqual(JSON.parse(decodeURIComponent(link[1])), [{ slug: `sessions/kestrel/${FIXTURE}` }]);
    const enabled = typeof md.isTrusted === 'object' ? md.isTrusted.enabledCommands : [];
    assert.deepStrictEqual([...enabled].sort(), [...HOVER_COMMANDS].sort());
    assert.ok(!enabled.includes(Commands.openTranscript), 'Open Transcript is not a hover command');
  });
});
