// `baton import vscode-copilot`: VS Code Copilot Chat's sessions in
// workspaceStorage/<id>/chatSessions/, in the shapes VS Code's source writes
// (vscodeCopilotPast.ts cites them: chatSessionStore.ts, chatModel.ts,
// objectMutationLog.ts). No real Copilot Chat runs on these machines (the test
// VS Code has no model), so the sessions are built here to those types: a
// version 3 `.json`, the newer `.jsonl` change log, the unversioned first shape.
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { Home } from './support/importHome';
import { checkpointFile, importJson, makeHome } from './support/importHome';

const STORAGE = '.config/Code/User/workspaceStorage';
const ID = '3d3f1c9e-2b7a-4c55-9d0e-7a1f6b2c8e41';
const T0 = Date.parse('2026-11-20T09:00:00Z');

const uri = (p: string) => ({ $mid: 1, fsPath: p, external: `file://${p}`, path: p, scheme: 'file' });

function request(n: number, message: string, answer: string, extra: unknown[] = []): Record<string, unknown> {
  return {
    requestId: `request_${n}`,
    message: { text: message, parts: [{ kind: 'text', text: message, range: { start: 0, endExclusive: message.length } }] },
    variableData: { variables: [] },
    timestamp: T0 + n * 60_000,
    response: [...extra, { value: answer, supportThemeIcons: false, supportHtml: false }],
    responseId: `response_${n}`,
    modelId: 'copilot/gpt-5',
  };
}

const terminal = (command: string, exitCode?: number) => ({
  kind: 'toolInvocationSerialized',
  toolId: 'run_in_terminal',
  toolCallId: `call_${command.length}`,
  invocationMessage: 'Running',
  isConfirmed: { type: 1 },
  isComplete: true,
  toolSpecificData: { kind: 'terminal', commandLine: { original: command }, language: 'sh', ...(exitCode === undefined ? {} : { terminalCommandState: { exitCode } }) },
});

function session(requests: unknown[]): Record<string, unknown> {
  return {
    version: 3,
    responderUsername: 'GitHub Copilot',
    initialLocation: 'panel',
    requests,
    sessionId: ID,
    creationDate: T0,
    lastMessageDate: T0 + 10 * 60_000,
    customTitle: 'Cart rounding',
    hasPendingEdits: false,
  };
}

const twoTurns = (): unknown[] => [
  request(1, 'Round the cart total to cents', 'I will look at cart.js first.', [terminal('npm test', 1)]),
  request(2, 'Go on', 'Rounded the total to cents; the tests pass.', [
    { kind: 'textEditGroup', uri: uri('/WORLD/shop/src/cart.js'), edits: [[]], done: true },
    terminal('npm test', 0),
  ]),
];

function workspace(h: Home, hash: string, folder: string): string {
  h.put(`${STORAGE}/${hash}/workspace.json`, JSON.stringify({ folder: `file://${folder}` }));
  return `${STORAGE}/${hash}/chatSessions`;
}

describe('baton import vscode-copilot', function () {
  this.timeout(60_000);
  let h: Home;
  beforeEach(() => {
    h = makeHome();
  });
  afterEach(() => fs.rmSync(h.home, { recursive: true, force: true }));

  it('makes a checkpoint of a version 3 session: the first request, the last answer, edits and terminal runs, in the workspace’s project, as copilot', async () => {
    const chats = workspace(h, 'a1b2c3', '/WORLD/shop');
    h.put(`${chats}/${ID}.json`, JSON.stringify(session(twoTurns()), null, 2));
    const r = await importJson(h, 'vscode-copilot');
    assert.deepEqual(r.skipped, []);
    assert.equal(r.imported, 1);
    const [c] = r.checkpoints;
    assert.deepEqual([c.agent, c.project, c.agentSession, c.source], ['copilot', 'shop', ID, `${chats}/${ID}.json`]);
    const text = checkpointFile(h, c);
    assert.match(text, /^agent: copilot$/m);
    assert.match(text, /## Task\n\nRound the cart total to cents\n/);
    assert.match(text, /## State\n\nImported from a past vscode-copilot session[^\n]*\n\nRounded the total to cents; the tests pass\.\n/);
    assert.match(text, /## Files\n\n- src\/cart\.js\n/);
    assert.match(text, /## Commands run\n\n- npm test \(exit 1\)\n- npm test \(exit 0\)\n/);
    assert.match(text, /^checkpointed: 2026-11-20T09:10:00Z$/m);
  });

  it('reads the newer .jsonl change log to the state VS Code would rebuild, and says which entries it could not apply', async () => {
    const chats = workspace(h, 'd4e5f6', '/WORLD/shop');
    const [first, second] = twoTurns() as Record<string, unknown>[];
    const log = [
      { kind: 0, v: session([{ ...first, response: [] }]) },
      // The first answer streamed in (a set), the second turn pushed, then a title deleted.
      { kind: 1, k: ['requests', 0, 'response'], v: first.response },
      { kind: 2, k: ['requests'], v: [second] },
      { kind: 3, k: ['customTitle'] },
      { kind: 9, k: ['requests'], v: [] },
      { kind: 1, k: ['nowhere', 3, 'x'], v: 1 },
    ];
    h.put(`${chats}/${ID}.jsonl`, log.map((e) => JSON.stringify(e)).join('\n') + '\n{"kind":1,"k":["requests",1,"respo');
    const r = await importJson(h, 'vscode-copilot');
    assert.equal(r.imported, 1);
    assert.deepEqual(r.skipped, [
      {
        source: `${chats}/${ID}.jsonl`,
        reason: 'skipped a torn last line, 1 record(s) of unknown type "log entry kind 9", 1 record(s) of unknown type "(a log entry whose path leads nowhere)"; the rest imported',
      },
    ]);
    const text = checkpointFile(h, r.checkpoints[0]);
    assert.match(text, /## Task\n\nRound the cart total to cents\n/);
    assert.match(text, /\n\nRounded the total to cents; the tests pass\.\n/);
    assert.match(text, /## Files\n\n- src\/cart\.js\n/);
    assert.match(text, /## Commands run\n\n- npm test \(exit 1\)\n- npm test \(exit 0\)\n/);
  });

  it('reads the first, unversioned shape (a message as plain text, no lastMessageDate) and a legacy terminal call', async () => {
    const chats = workspace(h, '0ld5e55', '/WORLD/shop');
    const old = {
      requesterUsername: 'me',
      responderUsername: 'GitHub Copilot',
      sessionId: 'old-one',
      creationDate: T0,
      isImported: false,
      requests: [
        {
          message: 'Why is the total off by a cent?',
          response: [
            { value: 'Floating point: round at the end.' },
            { kind: 'toolInvocationSerialized', toolSpecificData: { kind: 'terminal', command: 'node -e 0.1+0.2', language: 'sh' } },
          ],
        },
      ],
    };
    h.put(`${chats}/old-one.json`, JSON.stringify(old));
    const r = await importJson(h, 'vscode-copilot');
    assert.equal(r.imported, 1);
    const text = checkpointFile(h, r.checkpoints[0]);
    assert.match(text, /## Task\n\nWhy is the total off by a cent\?\n/);
    assert.match(text, /\n\nFloating point: round at the end\.\n/);
    assert.match(text, /## Commands run\n\n- node -e 0\.1\+0\.2\n/);
  });

  it('skips a session cut off mid-write and one with nothing asked, saying why; a workspace without a folder names no project', async () => {
    const chats = workspace(h, 'ab12', '/WORLD/shop');
    const whole = JSON.stringify(session(twoTurns()));
    h.put(`${chats}/cut.json`, whole.slice(0, whole.length / 2));
    h.put(`${chats}/empty.json`, JSON.stringify(session([])));
    // A multi-root workspace: its workspace.json names a .code-workspace file, no folder.
    h.put(`${STORAGE}/cd34/workspace.json`, JSON.stringify({ workspace: 'file:///WORLD/all.code-workspace' }));
    h.put(`${STORAGE}/cd34/chatSessions/multi.json`, JSON.stringify({ ...session(twoTurns()), sessionId: 'multi' }));
    const r = await importJson(h, 'vscode-copilot');
    assert.equal(r.imported, 0);
    assert.deepEqual(r.skipped.map((s) => [path.basename(s.source), s.reason]).sort(), [
      ['cut.json', "holds no request of the person's (skipped: a torn last line)"],
      ['empty.json', "holds no request of the person's"],
      ['multi.json', 'it names no folder it ran in'],
    ]);
  });

  it('imported twice, the vault is the same byte for byte; a secret in a request, an answer or a command never reaches it', async () => {
    const token = 'ghp_' + 'Z9y8X7w6V5u4T3s2R1q0P9o8N7m6L5k4J3i2';
    const chats = workspace(h, 'ef56', '/WORLD/shop');
    const turns = [request(1, `Deploy with ${token}`, `Pushed using ${token}.`, [terminal(`GITHUB_TOKEN=${token} git push`, 0)])];
    h.put(`${chats}/${ID}.json`, JSON.stringify(session(turns)));
    assert.equal((await importJson(h, 'vscode-copilot')).imported, 1);
    const before = h.vaultFiles();
    for (const [f, body] of before) assert.ok(!body.includes(token), `${f} holds the token`);
    const again = await importJson(h, 'vscode-copilot');
    assert.equal(again.imported, 0);
    assert.match(again.skipped[0].reason, /^already in the vault/);
    assert.deepEqual(h.vaultFiles(), before);
  });

  it('finds Code - Insiders’ sessions and honours XDG_CONFIG_HOME as VS Code does', async () => {
    h.put(`xdg/Code - Insiders/User/workspaceStorage/99/workspace.json`, JSON.stringify({ folder: 'file:///WORLD/shop' }));
    h.put(`xdg/Code - Insiders/User/workspaceStorage/99/chatSessions/${ID}.json`, JSON.stringify(session(twoTurns())));
    assert.equal((await importJson(h, 'vscode-copilot', '--dry-run')).checkpoints.length, 0, 'not under ~/.config');
    h.env.XDG_CONFIG_HOME = path.join(h.home, 'xdg');
    const r = await importJson(h, 'vscode-copilot', '--dry-run');
    assert.deepEqual(
      r.checkpoints.map((c) => [c.project, c.source]),
      [['shop', `xdg/Code - Insiders/User/workspaceStorage/99/chatSessions/${ID}.json`]],
    );
  });
});
