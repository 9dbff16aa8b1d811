// Doctor's verdict on Codex's hook trust (src/app/health/codexTrust.ts), read
// from the files Codex itself reads: hooks.json and the hooks.state tables of
// ~/.codex/config.toml. The hashes pinned here are the `currentHash` the real
// Codex 0.169.0 listed for these exact hooks (`codex app-server`, hooks/list);
// test/agents/codex.test.ts checks them against the running CLI each time.
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { codexHookHash, codexHookTrust } from '../../src/adapters/agents/codexConfig';
import type { AgentHealthInput } from '../../src/app/agentHealth';
import type { AgentStatus } from '../../src/app/connect';
import { codexTrustProblems } from '../../src/app/health/codexTrust';

const START = '/tmp/cx/home/.baton/bin/baton --vault /tmp/cx/vault hook codex session-start';
const EDIT = '/tmp/cx/home/.baton/bin/baton --vault /tmp/cx/vault hook codex post-tool-use';

describe("Codex's hook trust, as doctor reads it", () => {
  let home: string;
  beforeEach(() => {
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'baton-codex-trust-'));
    fs.mkdirSync(path.join(home, '.codex'));
  });
  afterEach(() => fs.rmSync(home, { recursive: true, force: true }));

  const write = (commandOfStart = START): void =>
    fs.writeFileSync(
      path.join(home, '.codex', 'hooks.json'),
      JSON.stringify({
        hooks: {
          SessionStart: [{ hooks: [{ type: 'command', command: commandOfStart, timeout: 30 }] }],
          PostToolUse: [{ matcher: '^apply_patch$', hooks: [{ type: 'command', command: EDIT, timeout: 10 }] }, { hooks: [{ type: 'command', command: 'echo not ours' }] }],
        },
      }),
    );
  const key = (event: string): string => `${path.join(home, '.codex', 'hooks.json')}:${event}:0:0`;
  const state = (entries: Record<string, string>): void =>
    fs.writeFileSync(
      path.join(home, '.codex', 'config.toml'),
      Object.entries(entries)
        .map(([k, v]) => `[hooks.state.${JSON.stringify(k)}]\n${v}\n`)
        .join('\n'),
    );
  const input = (): AgentHealthInput => ({
    agent: 'codex',
    scope: 'user',
    projectDir: home,
    vault: home,
    home,
    launcher: {} as AgentHealthInput['launcher'],
    seen: [],
    pathEnv: '',
  });
  const connected = { connected: 'yes' } as AgentStatus;

  it("hashes a hook as Codex 0.169.0 does (its hooks/list's currentHash), matcher or none", () => {
    assert.equal(codexHookHash('PostToolUse', '^apply_patch$', { command: EDIT, timeout: 10 }), 'sha256:61f2545291181568ae7aaa041ed0b481d148db99d72525c2276428ac7cbac5c8');
    assert.equal(codexHookHash('SessionStart', undefined, { command: START, timeout: 30 }), 'sha256:4d84838153ddbfde8b7d1e754a12ba4831daf80bde3334a05e7718df72877b35');
  });

  it("never trusted: each of Baton's hooks untrusted, a hook not Baton's left out, and doctor names the /hooks step", () => {
    write();
    assert.deepEqual(
      codexHookTrust({ scope: 'user', home, projectDir: home }).map((v) => [v.event, v.trust]),
      [
        ['SessionStart', 'untrusted'],
        ['PostToolUse', 'untrusted'],
      ],
    );
    const [p, ...rest] = codexTrustProblems(input(), connected);
    assert.equal(rest.length, 0);
    assert.match(p.text, /has not trusted Baton's user-scope hooks \(SessionStart, PostToolUse\)[\s\S]*\/hooks/);
    assert.deepEqual(p.fix, { kind: 'manual' });
  });

  it('trusted as /hooks records it: no problem; a reconnect that changed a command: modified; switched off: disabled', () => {
    write();
    const trusted = (e: string, m: string | undefined, c: string, t: number): string => `trusted_hash = "${codexHookHash(e, m, { command: c, timeout: t })}"`;
    state({ [key('session_start')]: trusted('SessionStart', undefined, START, 30), [key('post_tool_use')]: trusted('PostToolUse', '^apply_patch$', EDIT, 10) });
    assert.deepEqual(codexTrustProblems(input(), connected), []);
    write(START.replace('/tmp/cx/vault', '/tmp/cx/other-vault'));
    const [p] = codexTrustProblems(input(), connected);
    assert.match(p.text, /\(SessionStart\) changed since Codex trusted them[\s\S]*\/hooks/);
    state({ [key('session_start')]: 'enabled = false', [key('post_tool_use')]: trusted('PostToolUse', '^apply_patch$', EDIT, 10) });
    assert.match(codexTrustProblems(input(), connected)[0].text, /turned off in Codex's \/hooks screen/);
  });

  it('says nothing of an agent not connected, or of another agent', () => {
    write();
    assert.deepEqual(codexTrustProblems(input(), { connected: 'no' } as AgentStatus), []);
    assert.deepEqual(codexTrustProblems({ ...input(), agent: 'gemini' }, connected), []);
  });
});
