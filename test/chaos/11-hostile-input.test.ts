// Scenario 11: what a repository or a person gives Baton to read is hostile
// (issue 29, items 5 to 8). Each repository is a clone of a bare remote where
// the attack is a committed file: agents' settings with a key twice, nested
// 5,000 deep or in Latin-1, a symlink to /dev/zero or to a dotfiles folder.
// The victim runs connect, disconnect and doctor there, and the hooks as the
// agent runs them (the command connect wrote, through /bin/sh with PATH=/usr/bin:/bin
// and the HOME only); a vault cloned from a remote holds a 100,000-letter word.
// Every process must end by itself, exit as the contract says, print no
// stack, and leave the person's bytes as they were. The timeouts below only
// bound a failure (a hung child is killed and the case fails), they
// synchronise nothing. CHAOS_HOSTILE_CLI runs the cases against another build
// (how they were seen failing before the fix).
import { strict as assert } from 'assert';
import { execFileSync, spawn } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CLI, ensureBuilt, log, removeTree, tempRoot } from './support';

const cli = (): string => process.env.CHAOS_HOSTILE_CLI || CLI;
/** A failure bound: each of these ends in about a second when Baton is right. */
const BOUND_MS = 60_000;

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

function spawnBounded(cmd: string, args: string[], o: { cwd: string; env: NodeJS.ProcessEnv; input?: string; timeoutMs?: number }): Promise<Ran> {
  return new Promise((resolve) => {
    // A group of its own: a hook runs as sh → node, and a hung node must go with its shell.
    const child = spawn(cmd, args, { cwd: o.cwd, env: o.env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, o.timeoutMs ?? BOUND_MS);
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    child.stdin.on('error', () => undefined);
    child.stdin.end(o.input ?? '');
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, timedOut });
    });
  });
}

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.email=eve@example.com', '-c', 'user.name=eve', '-c', 'init.defaultBranch=main', ...args], { cwd, stdio: 'pipe', encoding: 'utf8' });

type Planted = string | Buffer | { link: string };

interface World {
  root: string;
  home: string;
  vault: string;
  env: NodeJS.ProcessEnv;
  /** A clone of a bare remote whose one commit holds `files`. */
  hostileClone(name: string, files: Record<string, Planted>): string;
  baton(args: string[], cwd: string, timeoutMs?: number): Promise<Ran>;
  /** Runs Baton's hook command for `agent` `event` as the host would: the command connect wrote, through /bin/sh. */
  hook(agent: string, event: string, payload: unknown, cwd: string, timeoutMs?: number): Promise<Ran>;
}

async function world(): Promise<World> {
  const root = tempRoot('baton-chaos-hostile-');
  const home = path.join(root, 'home');
  const vault = path.join(root, 'vault');
  fs.mkdirSync(home, { recursive: true });
  const env: NodeJS.ProcessEnv = { PATH: '/usr/bin:/bin', HOME: home, BATON_VAULT: vault };
  const baton = (args: string[], cwd: string, timeoutMs?: number): Promise<Ran> => spawnBounded(process.execPath, [cli(), ...args], { cwd, env, timeoutMs });
  // The person connected Cursor for themself: its user-scope hook command is the template of every hook run here.
  const connected = await baton(['connect', 'cursor'], home);
  assert.equal(connected.code, 0, connected.stderr);
  const cursorHooks = JSON.parse(fs.readFileSync(path.join(home, '.cursor', 'hooks.json'), 'utf8')) as { hooks: { sessionStart: { command: string }[] } };
  const template = cursorHooks.hooks.sessionStart[0].command;
  assert.match(template, / hook cursor session-start$/);
  return {
    root,
    home,
    vault,
    env,
    hostileClone(name, files) {
      const work = path.join(root, `${name}-eve`);
      const bare = path.join(root, `${name}.git`);
      fs.mkdirSync(work, { recursive: true });
      git(work, 'init', '-q');
      for (const [rel, what] of Object.entries(files)) {
        const file = path.join(work, rel);
        fs.mkdirSync(path.dirname(file), { recursive: true });
        if (typeof what === 'object' && !Buffer.isBuffer(what)) fs.symlinkSync(what.link, file);
        else fs.writeFileSync(file, what);
      }
      git(work, 'add', '-A');
      git(work, 'commit', '-q', '-m', 'helpful settings');
      git(root, 'clone', '-q', '--bare', work, bare);
      const clone = path.join(root, name);
      git(root, 'clone', '-q', bare, clone);
      return clone;
    },
    baton,
    hook(agent, event, payload, cwd, timeoutMs) {
      const command = template.replace(/ hook cursor session-start$/, ` hook ${agent} ${event}`);
      return spawnBounded('env', ['-i', 'PATH=/usr/bin:/bin', `HOME=${home}`, '/bin/sh', '-c', command], { cwd, env, input: JSON.stringify(payload), timeoutMs });
    },
  };
}

/** Ended by itself, with no JavaScript stack printed. */
function calm(r: Ran, what: string): void {
  assert.ok(!r.timedOut, `${what} was still running after ${BOUND_MS / 1000} s (killed)`);
  assert.doesNotMatch(r.stderr, /\n\s+at /, `${what} printed a stack:\n${r.stderr.slice(0, 800)}`);
}

const OURS = 'baton hook cursor session-start';

describe('chaos 11: hostile input from a repository or an agent', function () {
  this.timeout(10 * 60_000);
  let w: World;
  before(async () => {
    ensureBuilt();
    w = await world();
  });
  after(() => w && removeTree(w.root));

  it('a settings file with "hooks" twice: disconnect, doctor and connect end, refuse with a message and change no byte', async () => {
    const text = `{\n  "version": 1,\n  "hooks": { "stop": [{ "command": "echo mine" }] },\n  "hooks": { "sessionStart": [{ "command": "${OURS}" }] }\n}\n`;
    const repo = w.hostileClone('dup-keys', { '.cursor/hooks.json': text });
    const file = path.join(repo, '.cursor', 'hooks.json');
    for (const args of [['disconnect', 'cursor', '--scope', 'project'], ['connect', 'cursor', '--scope', 'project'], ['doctor']]) {
      const r = await w.baton(args, repo);
      calm(r, args.join(' '));
      if (args[0] !== 'doctor') {
        assert.equal(r.code, 1, `${args.join(' ')}: ${r.stdout}${r.stderr}`);
        assert.match(r.stderr, /"hooks" twice/);
      } else assert.match(r.stdout, /"hooks" twice/);
      assert.equal(fs.readFileSync(file, 'utf8'), text, `${args.join(' ')} changed the file`);
    }
  });

  for (const [what, rel, payload] of [
    [
      'Cursor running a Claude hook',
      '.cursor/hooks.json',
      (repo: string) => ({ cursor_version: '1.7.0', conversation_id: 'c1', workspace_roots: [repo], hook_event_name: 'sessionStart' }),
    ],
    [
      "VS Code's agent running a Claude hook",
      '.github/hooks/x.json',
      (repo: string) => ({ hookEventName: 'SessionStart', sessionId: 's1', timestamp: '2026-09-01T10:00:00Z', cwd: repo, transcript_path: '', source: 'startup' }),
    ],
  ] as const) {
    it(`a committed symlink to /dev/zero as ${rel}: the session-start hook (${what}) and doctor end at once`, async () => {
      const repo = w.hostileClone(`zero-${rel.replace(/\W/g, '-')}`, { [rel]: { link: '/dev/zero' }, 'README.md': 'hi\n' });
      const r = await w.hook('claude-code', 'session-start', payload(repo), repo);
      calm(r, 'session-start');
      assert.equal(r.code, 0, r.stderr);
      const d = await w.baton(['doctor'], repo);
      calm(d, 'doctor');
    });
  }

  it('a committed symlink to /dev/zero as .claude/settings.json: doctor ends and names the file', async () => {
    const repo = w.hostileClone('zero-claude', { '.claude/settings.json': { link: '/dev/zero' } });
    const d = await w.baton(['doctor'], repo);
    calm(d, 'doctor');
    assert.match(d.stdout, /settings\.json is a device, not a regular file/);
  });

  it('a FIFO as transcript_path: the pre-compact hook exits 0 at once', async () => {
    const repo = w.hostileClone('fifo', { 'README.md': 'hi\n' });
    const fifo = path.join(repo, 'transcript.jsonl');
    execFileSync('mkfifo', [fifo]);
    const r = await w.hook('claude-code', 'pre-compact', { session_id: 's-fifo', transcript_path: fifo, cwd: repo, hook_event_name: 'PreCompact', trigger: 'manual' }, repo);
    calm(r, 'pre-compact');
    assert.equal(r.code, 0, r.stderr);
  });

  it('a patch naming 100,000 files: the edit hook records each once and ends', async () => {
    const repo = w.hostileClone('patch', { 'README.md': 'hi\n' });
    const n = 100_000;
    let patch = '*** Begin Patch\n';
    for (let i = 0; i < n; i++) patch += `*** Add File: gen/f${i}.ts\n+x\n`;
    patch += '*** End Patch\n';
    const r = await w.hook(
      'codex',
      'post-tool-use',
      { session_id: 's-patch', cwd: repo, hook_event_name: 'PostToolUse', tool_name: 'apply_patch', tool_input: { command: patch } },
      repo,
      150_000,
    );
    assert.ok(!r.timedOut, 'the edit hook was still running after 150 s (killed)');
    assert.equal(r.code, 0, r.stderr);
    // Every one whole (one append for all of them: the line as a note of its own would be), each once.
    const notes = fs.readFileSync(path.join(w.vault, 'sessions', 'patch', 'uncommitted.md'), 'utf8');
    const named = [...notes.matchAll(/^- edited: (gen\/f[0-9]+\.ts) (?:<!-- [^\n]*?-->)? ?<!-- ts=[0-9]+ agent=codex[^\n]*-->$/gm)].map((m) => m[1]);
    assert.equal(named.length, n);
    assert.equal(new Set(named).size, n);
  });

  it('a settings file that is a symlink (a dotfiles repository): connect edits the target and keeps the link', async () => {
    const mine = '{\n  "version": 1,\n  "hooks": {}\n}\n';
    const repo = w.hostileClone('dotfiles', { 'dotfiles/cursor-hooks.json': mine, '.cursor/hooks.json': { link: '../dotfiles/cursor-hooks.json' } });
    const link = path.join(repo, '.cursor', 'hooks.json');
    const r = await w.baton(['connect', 'cursor', '--scope', 'project'], repo);
    calm(r, 'connect');
    assert.equal(r.code, 0, r.stderr);
    assert.ok(fs.lstatSync(link).isSymbolicLink(), 'the link became a regular file');
    assert.match(fs.readFileSync(path.join(repo, 'dotfiles', 'cursor-hooks.json'), 'utf8'), /hook cursor session-start/);
    const d = await w.baton(['disconnect', 'cursor', '--scope', 'project'], repo);
    assert.equal(d.code, 0, d.stderr);
    assert.ok(fs.lstatSync(link).isSymbolicLink(), 'disconnect replaced the link');
    assert.equal(fs.readFileSync(path.join(repo, 'dotfiles', 'cursor-hooks.json'), 'utf8'), mine);
  });

  it('a Latin-1 byte in a settings file: connect and disconnect leave every byte (or refuse, saying so)', async () => {
    const bytes = Buffer.concat([Buffer.from('{\n  "version": 1,\n  "owner": "caf'), Buffer.from([0xe9]), Buffer.from('",\n  "hooks": {}\n}\n')]);
    const repo = w.hostileClone('latin1', { '.cursor/hooks.json': bytes });
    const file = path.join(repo, '.cursor', 'hooks.json');
    const c = await w.baton(['connect', 'cursor', '--scope', 'project'], repo);
    calm(c, 'connect');
    if (c.code !== 0) assert.match(c.stderr, /not UTF-8 \(byte 0xE9 at offset 33\)/);
    const d = await w.baton(['disconnect', 'cursor', '--scope', 'project'], repo);
    calm(d, 'disconnect');
    assert.ok(fs.readFileSync(file).equals(bytes), `the file came back as ${JSON.stringify(fs.readFileSync(file, 'utf8'))}`);
  });

  it('a settings file nesting 5,000 arrays: connect refuses with a message, no stack', async () => {
    const text = `{ "version": 1, "deep": ${'['.repeat(5000)}${']'.repeat(5000)} }\n`;
    const repo = w.hostileClone('deep', { '.cursor/hooks.json': text });
    const r = await w.baton(['connect', 'cursor', '--scope', 'project'], repo);
    calm(r, 'connect');
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stderr, /nests 5001 levels deep/);
    assert.equal(fs.readFileSync(path.join(repo, '.cursor', 'hooks.json'), 'utf8'), text);
  });

  describe('a 100,000-letter word in a vault cloned from a remote', () => {
    const word = 'ACGT'.repeat(25_000);
    let vaultEnv: NodeJS.ProcessEnv;
    let vault: string;
    before(() => {
      const checkpoint = [
        '---',
        'project: genome',
        'agent: eve',
        'timestamp: 2026-09-01T10:00:00Z',
        'session: 20260901-100000-eve',
        '---',
        '',
        '## Task',
        `sequence the read ${word} again`,
        '',
        '## State',
        'halfway',
        '',
      ].join('\n');
      vault = w.hostileClone('team-vault', { 'sessions/genome/20260901-100000-eve.md': checkpoint });
      vaultEnv = { ...w.env, BATON_VAULT: vault };
    });

    it('index and search end, and the word is found', async () => {
      for (const args of [['index'], ['search', 'sequence'], ['search', word]]) {
        const r = await spawnBounded(process.execPath, [cli(), ...args], { cwd: vault, env: vaultEnv });
        calm(r, args[0]);
        assert.equal(r.code, 0, r.stderr);
        if (args[0] === 'search') assert.match(r.stdout, /1 match/, `${args[0]} ${args[1].slice(0, 20)}: ${r.stdout.slice(0, 300)}`);
      }
    });

    it('the MCP server answers a 1 MB query and a small one beside it', async () => {
      const client = new Client({ name: 'chaos', version: '1' });
      await client.connect(new StdioClientTransport({ command: process.execPath, args: [cli(), 'mcp'], cwd: vault, env: vaultEnv as Record<string, string>, stderr: 'pipe' }));
      try {
        // Each huge query is sent first and a small search right behind it: both must be answered (the times are
        // logged, not asserted; the issue measured a 1 MB query spinning for over 11 minutes, every request behind it waiting).
        const huge: [string, string][] = [
          ['a 1 MB word', 'ACGT'.repeat(250_000)],
          ['the 100,000-letter word', word],
          ['1 MB of distinct words', Array.from({ length: 120_000 }, (_, i) => `w${i.toString(36)}`).join(' ')],
        ];
        const first = Date.now();
        await client.callTool({ name: 'search', arguments: { query: 'halfway' } }, undefined, { timeout: BOUND_MS });
        const times = [`first search (it builds the index) ${Date.now() - first} ms`];
        for (const [what, query] of huge) {
          const started = Date.now();
          const answered: string[] = [];
          const big = client
            .callTool({ name: 'search', arguments: { query } }, undefined, { timeout: BOUND_MS })
            .finally(() => answered.push(`${what} ${Date.now() - started} ms`));
          const small = client
            .callTool({ name: 'search', arguments: { query: 'halfway' } }, undefined, { timeout: BOUND_MS })
            .finally(() => answered.push(`small ${Date.now() - started} ms`));
          const [b, s] = await Promise.all([big, small]);
          assert.ok(!b.isError && !s.isError, `${what}: ${JSON.stringify([b, s]).slice(0, 400)}`);
          assert.match(JSON.stringify(s.content), /1 match/);
          times.push(answered.join(', '));
        }
        log(`chaos 11 MCP: ${times.join('; ')}`);
      } finally {
        await client.close();
      }
    });
  });
});
