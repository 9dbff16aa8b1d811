// `baton import cursor`: Cursor's chats, rows of its SQLite databases
// (cursorPast.ts cites the shapes). No Cursor runs on these machines, so the
// databases are built here with the real sql.js in Cursor's schema: the
// global `globalStorage/state.vscdb` with `cursorDiskKV` (`composerData:<id>`,
// `bubbleId:<id>:<bubble>`), and a workspace's own `state.vscdb` whose
// ItemTable lists its chats, beside the `workspace.json` naming its folder.
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import initSqlJs from 'sql.js';
import type { SqlJsStatic } from 'sql.js';
import type { Home } from './support/importHome';
import { checkpointFile, importJson, makeHome } from './support/importHome';
import { pastHistory } from '../../src/app/pastHistory';

const USER = '.config/Cursor/User';
const GLOBAL = `${USER}/globalStorage/state.vscdb`;
const ID = '9b1f2c3d-4e5f-4a6b-8c7d-0e1f2a3b4c5d';
const T0 = Date.parse('2026-11-20T09:00:00Z');
// Cursor's own tables: both `(key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)`.
const SCHEMA = 'CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB); CREATE TABLE cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);';

type Obj = Record<string, unknown>;
let SQL: SqlJsStatic;

function database(h: Home, rel: string, rows: { table: 'ItemTable' | 'cursorDiskKV'; key: string; value: unknown }[], schema = SCHEMA): string {
  const db = new SQL.Database();
  try {
    db.exec(schema);
    // Values as Cursor stores them: JSON text (a BLOB column holding text).
    for (const r of rows) db.run(`INSERT INTO ${r.table} (key, value) VALUES (?, ?)`, [r.key, typeof r.value === 'string' ? r.value : JSON.stringify(r.value)]);
    const file = path.join(h.home, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, db.export());
    return file;
  } finally {
    db.close();
  }
}

const bubble = (n: number, type: 1 | 2, text: string, tool?: Obj): Obj => ({
  _v: 3,
  bubbleId: `b${n}`,
  type,
  text,
  createdAt: new Date(T0 + n * 60_000).toISOString(),
  ...(tool ? { toolFormerData: tool } : {}),
});
const terminal = (command: string, status = 'completed'): Obj => ({ tool: 15, name: 'run_terminal_cmd', rawArgs: JSON.stringify({ command, is_background: false }), status });
const edit = (file: string): Obj => ({ tool: 7, name: 'edit_file', params: JSON.stringify({ target_file: file, instructions: 'round' }), status: 'completed' });

/** A chat as Cursor keeps it: the composer's record naming its bubbles in order, and each bubble its own row. */
function chat(id: string, bubbles: Obj[], extra: Obj = {}): { table: 'cursorDiskKV'; key: string; value: unknown }[] {
  return [
    {
      table: 'cursorDiskKV',
      key: `composerData:${id}`,
      value: {
        _v: 10,
        composerId: id,
        createdAt: T0,
        lastUpdatedAt: T0 + 10 * 60_000,
        createdOnBranch: 'main',
        fullConversationHeadersOnly: bubbles.map((b) => ({ bubbleId: b.bubbleId, type: b.type })),
        ...extra,
      },
    },
    ...bubbles.map((b) => ({ table: 'cursorDiskKV' as const, key: `bubbleId:${id}:${String(b.bubbleId)}`, value: b })),
  ];
}

const cartChat = (): Obj[] => [
  bubble(1, 1, 'Round the cart total to cents'),
  bubble(2, 2, 'Running the tests first.', terminal('npm test', 'error')),
  bubble(3, 2, '', edit('/WORLD/shop/src/cart.js')),
  bubble(4, 2, 'Rounded the total to cents; the tests pass.', terminal('npm test')),
];

/** The workspace's own database listing the chat, and the folder it names. */
function workspace(h: Home, hash: string, folder: string, ids: string[]): void {
  h.put(`${USER}/workspaceStorage/${hash}/workspace.json`, JSON.stringify({ folder: `file://${folder}` }));
  database(h, `${USER}/workspaceStorage/${hash}/state.vscdb`, [
    { table: 'ItemTable', key: 'composer.composerData', value: { allComposers: ids.map((composerId) => ({ composerId, type: 'head' })) } },
  ]);
}

describe('baton import cursor', function () {
  this.timeout(60_000);
  let h: Home;
  before(async () => {
    SQL = await initSqlJs();
  });
  beforeEach(() => {
    h = makeHome();
  });
  afterEach(() => fs.rmSync(h.home, { recursive: true, force: true }));

  it('makes a checkpoint of a chat: the first request, the last answer, edits and terminal runs, the branch, in the workspace’s project, as cursor', async () => {
    workspace(h, 'a1b2', '/WORLD/shop', [ID]);
    database(h, GLOBAL, chat(ID, cartChat()));
    const r = await importJson(h, 'cursor');
    assert.deepEqual(r.skipped, []);
    assert.equal(r.imported, 1);
    const [c] = r.checkpoints;
    assert.deepEqual([c.agent, c.project, c.agentSession, c.source], ['cursor', 'shop', ID, `${GLOBAL}#${ID}`]);
    const text = checkpointFile(h, c);
    assert.match(text, /^agent: cursor$/m);
    assert.match(text, /## Task\n\nRound the cart total to cents\n/);
    assert.match(text, /\n\nRounded the total to cents; the tests pass\.\n/);
    assert.match(text, /## Files\n\n- src\/cart\.js\n/);
    assert.match(text, /## Commands run\n\n- npm test \(failed\)\n- npm test\n/);
    assert.match(text, /^branch: main$/m);
    assert.match(text, /^checkpointed: 2026-11-20T09:10:00Z$/m);
  });

  it('the editor’s look before an import counts Cursor’s chats from the database, and names where it looked', async () => {
    database(h, GLOBAL, [...chat(ID, cartChat()), ...chat('other', cartChat()), ...chat('blank', [])]);
    const r = await pastHistory(h.home, { HOME: h.home }, ['cursor']);
    // A chat opened and never used holds nothing: not a session.
    assert.deepEqual(
      r.found.map((a) => [a.agent, a.sessions, a.folder]),
      [['cursor', 2, path.join(h.home, USER, 'globalStorage')]],
    );
  });

  it('reads the older shape, the bubbles inline in `conversation`; a bubble its header names but the table lacks is said, the rest imported', async () => {
    workspace(h, 'c3d4', '/WORLD/shop', ['old', 'holey']);
    const inline = [bubble(1, 1, 'Why is the total off by a cent?'), bubble(2, 2, 'Floating point: round at the end.')];
    const [holeyHead, ...holeyBubbles] = chat('holey', cartChat());
    database(h, GLOBAL, [
      { table: 'cursorDiskKV', key: 'composerData:old', value: { composerId: 'old', createdAt: T0, lastUpdatedAt: T0 + 120_000, conversation: inline } },
      holeyHead,
      ...holeyBubbles.filter((b) => !b.key.endsWith(':b3')),
    ]);
    const r = await importJson(h, 'cursor');
    assert.equal(r.imported, 2);
    const old = checkpointFile(h, r.checkpoints.find((c) => c.agentSession === 'old') ?? r.checkpoints[0]);
    assert.match(old, /## Task\n\nWhy is the total off by a cent\?\n/);
    assert.match(old, /\n\nFloating point: round at the end\.\n/);
    assert.deepEqual(
      r.skipped.map((s) => [s.source, s.reason]),
      [[`${GLOBAL}#holey`, 'skipped 1 record(s) of unknown type "(a bubble missing or no JSON)"; the rest imported']],
    );
  });

  it('a database that is no SQLite, one without Cursor’s table, a record that is no JSON: each said, none stops the rest', async () => {
    h.put(GLOBAL, 'not a database at all, but a person’s notes\n'.repeat(200));
    let r = await importJson(h, 'cursor', 'claude-code');
    assert.equal(r.imported, 0);
    assert.deepEqual(r.skipped.length, 1);
    assert.equal(r.skipped[0].source, GLOBAL);
    assert.match(r.skipped[0].reason, /^could not be read \(/);

    database(h, GLOBAL, [], 'CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);');
    r = await importJson(h, 'cursor');
    assert.deepEqual(
      r.skipped.map((s) => s.reason),
      ['holds no cursorDiskKV table: no Cursor chats Baton knows how to read'],
    );

    workspace(h, 'e5f6', '/WORLD/shop', [ID]);
    database(h, GLOBAL, [...chat(ID, cartChat()), { table: 'cursorDiskKV', key: 'composerData:torn', value: '{"composerId":"torn","fullConv' }]);
    r = await importJson(h, 'cursor');
    assert.equal(r.imported, 1);
    assert.deepEqual(
      r.skipped.map((s) => [s.source, s.reason]),
      [[`${GLOBAL}#torn`, 'its record is no JSON object: skipped']],
    );
  });

  it('a database Cursor holds open is read from a copy of its bytes: the file is left exactly as it was', async () => {
    workspace(h, 'a7b8', '/WORLD/shop', [ID]);
    const file = database(h, GLOBAL, chat(ID, cartChat()));
    // Cursor keeps its write-ahead log beside the database while it runs.
    fs.writeFileSync(`${file}-wal`, '');
    const before = fs.readFileSync(file);
    const stat = fs.statSync(file);
    assert.equal((await importJson(h, 'cursor')).imported, 1);
    assert.deepEqual(fs.readFileSync(file), before);
    assert.equal(fs.statSync(file).mtimeMs, stat.mtimeMs);
    assert.deepEqual(fs.readdirSync(path.dirname(file)).sort(), ['state.vscdb', 'state.vscdb-wal']);
  });

  it('imported twice, the vault is the same byte for byte; a secret in a request, an answer or a command never reaches it', async () => {
    const token = 'ghp_' + 'Z9y8X7w6V5u4T3s2R1q0P9o8N7m6L5k4J3i2';
    workspace(h, 'c9d0', '/WORLD/shop', [ID]);
    database(h, GLOBAL, chat(ID, [bubble(1, 1, `Deploy with ${token}`), bubble(2, 2, `Pushed using ${token}.`, terminal(`GITHUB_TOKEN=${token} git push`))]));
    assert.equal((await importJson(h, 'cursor')).imported, 1);
    const before = h.vaultFiles();
    for (const [f, body] of before) assert.ok(!body.includes(token), `${f} holds the token`);
    const again = await importJson(h, 'cursor');
    assert.equal(again.imported, 0);
    assert.match(again.skipped[0].reason, /^already in the vault/);
    assert.deepEqual(h.vaultFiles(), before);
  });
});
