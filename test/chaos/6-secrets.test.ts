// Scenario 6: secrets never reach the vault. A corpus of realistic tokens and
// keys goes into every checkpoint field (flags and markdown on stdin), notes,
// plans, the git state a checkpoint records (commit subject, branch, changed
// file names), the MCP tools and every agent hook payload (the transcript a
// pre-compact capture quotes, an approved plan, a session-end reason, the
// session id and paths). Then every byte of every file under the vault,
// `.baton/` included, is searched for each secret. Ordinary test names, module
// paths and hashes must come through untouched.
import { strict as assert } from 'assert';
import { execFileSync, spawn } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { CLI, ensureBuilt, log, pool, removeTree, run, tempRoot, walk, type RunResult } from './support';

// The distinctive part of each secret is what is searched for (case-insensitively,
// and with `_`/`-` ignored, since names pass through `safe`).
interface Secret {
  what: string;
  text: string;
  core: string;
}
const S = (what: string, text: string, core: string): Secret => ({ what, text, core });
const PEM = '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAHbn88HxjSI6bWHtP3fS2qHx6kwXoIIXGvOoNZYW2\nMPZOM75WBBR4QMW2WXFOq7BFUmLxK9sQ3v\n-----END RSA PRIVATE KEY-----';
// Each secret has a body of its own (no two share a searched part).
export const SECRETS: Secret[] = [
  S('GitHub classic token', 'ghp_u8jzPde0IgxLd6GncfBAepfJBd0Kh8oOOL8d', 'u8jzPde0IgxLd6GncfBA'),
  S('GitHub fine-grained token', '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TBGzvAmwufU', 'L7DxtpYlSXpfKtHF4vUC'),
  S('GitHub OAuth token', 'gho_8DwkNhFdnXsiVpzz63FfkCzJr4i0B3JrTAwR', '8DwkNhFdnXsiVpzz63Ff'),
  S('OpenAI project key', 'sk-proj-D53X83RZJzzzzgEOzdmenCkhvMdgaKjIg8xNbe3nYJQWX4HH', 'D53X83RZJzzzzgEOzdme'),
  S('Anthropic key', 'sk-ant-api03-goEmvnEN5N1aE6PwZPf1Qh6yYTWmE4lBYOvfZ8Uz-3ZFKKIBJAA', 'goEmvnEN5N1aE6PwZPf1'),
  S('AWS access key id', 'AKIA8J76B2LAJLJ4H9DU', 'AKIA8J76B2LAJLJ4H9DU'),
  S('AWS secret in an assignment', 'aws_secret_access_key = V7iB3m03nbqnsGpWLuqIA1id6Vw5DQL05HA064Gi', 'V7iB3m03nbqnsGpWLuqI'),
  S('Slack bot token', 'xoxb-2950481736-4071629385017-YXg4JdpmrcXgGCJbW56eCuNG', 'YXg4JdpmrcXgGCJbW56e'),
  S('npm token', 'npm_SufrdZSlB5er8bOfZqfM2oeq3hDavJA76rNi', 'SufrdZSlB5er8bOfZqfM'),
  S('Google API key', 'AIzaSybUGJmGEp7CgQ0PBQFI14zGtSnovm14TUO', 'bUGJmGEp7CgQ0PBQFI14'),
  S('JSON web token', 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI5dkp1cGM5NHRud2xhdnlmIn0.9vJupc94tnwlavyfErGPmpGXafq0fjzL', 'eyJzdWIiOiI5dkp1cGM5NHRud2xh'),
  S('private key block', PEM, 'Hbn88HxjSI6bWHtP3fS2'),
  S('password assignment', 'DB_PASSWORD=iOx9gy1CJdObOIRp', 'iOx9gy1CJdObOIRp'),
  S('quoted JSON api key', '"api_key": "rRgSnRFsTHsDDDXh5Jmtf7"', 'rRgSnRFsTHsDDDXh5Jmt'),
  S('bearer header', 'Authorization: Bearer tUjAwyuh1vauWv1zh87mTa5Vsqxe.zy3Lex7B', 'tUjAwyuh1vauWv1zh87m'),
  S('password in a URL', 'postgres://app:7UACNWiP3sFd67Ji@db.internal:5432/app', '7UACNWiP3sFd67Ji'),
  S('exported token', 'export GITHUB_TOKEN=xqZKm4bV3AyAVHnyrvWdFrK9xiRGHOY32nfr', 'xqZKm4bV3AyAVHnyrvWd'),
  // Issue 12, item 9: shapes that used to leak. Vendor prefixes are split so
  // this file is never itself taken for a leak by a scanner.
  S('glued env password', 'PGPASSWORD=Lq4vT9xWm2RzK7bN psql -h db', 'Lq4vT9xWm2RzK7bN'),
  S('.npmrc auth token', '//registry.npmjs.org/:_authToken=Hc8Pq2Lw5Vx9Kz3Mn7Tb', 'Hc8Pq2Lw5Vx9Kz3Mn7Tb'),
  S('redis URL password', 'redis://:Ud7Ke2Wq9Zm4Xp6Rt@cache:6379/0', 'Ud7Ke2Wq9Zm4Xp6Rt'),
  S('mongodb URL password', 'mongodb+srv://app:Gf3Ny8Pb5Jc2Vh7Lq@cluster0.mongodb.net/db', 'Gf3Ny8Pb5Jc2Vh7Lq'),
  S('--password flag', 'mysqladmin --password Wz6Tr3Ky8Pn1Bd5Fm status', 'Wz6Tr3Ky8Pn1Bd5Fm'),
  S('mysql -p glued', 'mysql -u root -pQm9Xc4Hv7Ls2Jd6Ra app', 'Qm9Xc4Hv7Ls2Jd6Ra'),
  S('curl -u user:pass', 'curl -u deploy:Nb5Yk8Wf2Tq7Mz3Gc https://x', 'Nb5Yk8Wf2Tq7Mz3Gc'),
  S('sshpass -p', 'sshpass -p Rv2Hm6Xd9Kp4Ws8Lt ssh deploy@h', 'Rv2Hm6Xd9Kp4Ws8Lt'),
  S('Slack app token', 'xapp' + '-1-A0B1C2D3E4F-4012345678901-9f8e7d6c5b4a39281706f5e4d3c2b1a0', '9f8e7d6c5b4a39281706'),
  S('Slack webhook URL', 'https://hooks.slack.com/services/' + 'T0AB12CD34/B0EF56GH78/Zt7Qw3Er9Ty5Ui1Op8As4Df2', 'Zt7Qw3Er9Ty5Ui1Op8As'),
  S('Google OAuth token', 'ya29' + '.a0Kp7Vb3Nx9Qm2Wz5Lr8Td4Hc6Jf1Yg', 'Kp7Vb3Nx9Qm2Wz5Lr8Td'),
  S('GitLab token', 'glpat' + '-Jx4Mv8Qb2Wn6Tz9Kp3Ld', 'Jx4Mv8Qb2Wn6Tz9Kp3Ld'),
  S('Hugging Face token', 'hf' + '_QvXmTrPzWkLbNcYdJsHgFeRaUiOyBnMqZx', 'QvXmTrPzWkLbNcYdJsHg'),
  S('Docker PAT', 'dckr' + '_pat_Yb3Kw7Pm1Xq5Tn9Vz2Lc8Hd4Rf', 'Yb3Kw7Pm1Xq5Tn9Vz2Lc'),
  S('Stripe live key', 'sk' + '_live_51Hq8Zt3Wm6Kp2Xv9Nb4Lc7Jd', '51Hq8Zt3Wm6Kp2Xv9Nb4'),
  S('Stripe webhook secret', 'whsec' + '_Pq6Tz2Wm8Kx4Nv9Lb3Hc7Jd1Yf5Rg0Sa', 'Pq6Tz2Wm8Kx4Nv9Lb3Hc'),
  S(
    'Azure AccountKey',
    'DefaultEndpointsProtocol=https;AccountName=kestrel;AccountKey=Xk9Wm3Pq7Tz2Lv6Nb8Hc4Jd1Yf5Rg0Sa2Xk9Wm3Pq7Tz2Lv6Nb8Hc4Jd1Yf5Rg0Sa2Xk9Wm3Pq7Tz2Lv6Nb8Hc4Jd1Y==;EndpointSuffix=core.windows.net',
    'Xk9Wm3Pq7Tz2Lv6Nb8Hc',
  ),
  S(
    'Discord webhook URL',
    'https://discord.com/api/webhooks/' + '1234567890123456789/Mv3Kq8Xz2Wp6Tn9Lb4Hc7Jd1Yf5Rg0SaMv3Kq8Xz2Wp6Tn9Lb4Hc7Jd1Yf5Rg0SaMv3Kq8',
    'Mv3Kq8Xz2Wp6Tn9Lb4Hc',
  ),
];

// What is not a secret must come through verbatim.
const ORDINARY = [
  'test_password_reset_flow',
  'password reset tests pass',
  'npm test -- auth',
  'src/auth/token_refresh.ts',
  'internal/secrets/vault.go',
  'sk-learn-compat-shims-for-tests',
  '3f786850e387550fdab836ed7e6dc881de23001b',
  'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  '550e8400-e29b-41d4-a716-446655440000',
  'token: use JWT for sessions',
  'passwordField',
];

const squash = (s: string): string => s.toLowerCase().replace(/[-_\s]/g, '');

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, GIT_AUTHOR_NAME: 'c', GIT_AUTHOR_EMAIL: 'c@x', GIT_COMMITTER_NAME: 'c', GIT_COMMITTER_EMAIL: 'c@x' },
  });
}

/** A minimal MCP client over stdio: initialize, then each call in turn. */
async function mcpSession(vault: string, cwd: string, calls: { name: string; arguments: Record<string, unknown> }[]): Promise<unknown[]> {
  const child = spawn(process.execPath, [CLI, 'mcp'], {
    cwd,
    env: { ...process.env, BATON_VAULT: vault, BATON_PROJECT: 'kestrel', BATON_AGENT: '' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let buf = '';
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const waiting = new Map<number, (v: unknown) => void>();
  child.stdout.on('data', (d) => {
    buf += d;
    let nl;
    while ((nl = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      try {
        const msg = JSON.parse(line) as { id?: number };
        if (typeof msg.id === 'number') waiting.get(msg.id)?.(msg);
      } catch {
        // not ours
      }
    }
  });
  let id = 0;
  const request = (method: string, params: unknown): Promise<unknown> =>
    new Promise((resolve, reject) => {
      const my = ++id;
      const timer = setTimeout(() => reject(new Error(`MCP ${method} timed out; stderr: ${stderr.slice(0, 500)}; stdout: ${buf.slice(0, 300)}`)), 30_000);
      waiting.set(my, (v) => {
        clearTimeout(timer);
        resolve(v);
      });
      child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id: my, method, params }) + '\n');
    });
  await request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'chaos', version: '0' } });
  child.stdin.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
  const out: unknown[] = [];
  for (const call of calls) out.push(await request('tools/call', call));
  child.stdin.end();
  await new Promise((r) => child.on('close', r));
  return out;
}

/**
 * Every secret found anywhere under the vault: in any byte of any file (read
 * as UTF-8 and as Latin-1, so no encoding hides one) and in the name of any
 * file or folder, `.baton/` included.
 */
function leaksIn(vault: string, secrets: Secret[] = SECRETS): string[] {
  const leaks: string[] = [];
  for (const e of walk(vault)) {
    for (const s of secrets) if (squash(e.rel).includes(squash(s.core))) leaks.push(`${s.what} in the name ${e.rel}`);
    if (e.dir) continue;
    const bytes = fs.readFileSync(path.join(vault, e.rel));
    const text = squash(bytes.toString('latin1')) + '\n' + squash(bytes.toString('utf8'));
    for (const s of secrets) {
      if (!text.includes(squash(s.core))) continue;
      const line =
        bytes
          .toString('utf8')
          .split('\n')
          .find((l) => squash(l).includes(squash(s.core))) ?? '(binary)';
      leaks.push(`${s.what} in ${e.rel}: ${line.slice(0, 120)}`);
    }
  }
  return [...new Set(leaks)];
}

describe('chaos 6: secrets never reach a vault file', function () {
  this.timeout(10 * 60_000);
  let root: string;
  let vault: string;
  let repo: string;

  before(() => ensureBuilt());
  beforeEach(() => {
    root = tempRoot('baton-chaos6-');
    vault = path.join(root, 'vault');
    repo = path.join(root, 'kestrel');
    fs.mkdirSync(repo);
  });
  afterEach(() => removeTree(root));

  it('masks every secret in every field, note, plan, git state, MCP call and hook payload', async () => {
    const started = Date.now();
    const all = SECRETS.map((s) => s.text).join(' and ');
    const oneLine = SECRETS.filter((s) => !s.text.includes('\n'))
      .map((s) => s.text)
      .join(' and ');
    const ordinary = ORDINARY.join(' ; ');

    // A repository whose commit subject, branch and changed file name carry secrets.
    git(repo, 'init', '-q', '-b', 'main');
    fs.writeFileSync(path.join(repo, 'a.txt'), 'a');
    git(repo, 'add', '.');
    git(repo, 'commit', '-q', '-m', `rotate ${SECRETS[0].text} and ${SECRETS[5].text}`);
    git(repo, 'checkout', '-q', '-b', `fix/${SECRETS[2].text}`);
    fs.mkdirSync(path.join(repo, 'secrets'));
    fs.writeFileSync(path.join(repo, 'secrets', `${SECRETS[8].text}.txt`), 'x');
    git(repo, 'add', 'secrets');
    const env = { BATON_PROJECT: 'kestrel' };
    const ok = async (args: string[], input?: string, extraEnv: NodeJS.ProcessEnv = {}): Promise<string> => {
      const r = await run(args, { vault, cwd: repo, input, env: { ...env, ...extraEnv } });
      assert.equal(r.code, 0, `${args.slice(0, 2).join(' ')}: ${r.stderr}`);
      return r.stdout + r.stderr;
    };

    // ---- the CLI: notes, every checkpoint flag, markdown on stdin, a hand-off, a plan
    const noteOut = await ok(['note', '-a', 'claude', `tried ${all}; ${ordinary}`]);
    assert.match(noteOut, /Masked \d+ secret/, 'the writer is told secrets were masked');
    for (const s of SECRETS) await ok(['note', '-a', 'cursor', `pasted ${s.what}: ${s.text}`]);
    const flags = ['task', 'intent', 'state', 'next'].flatMap((f) => [`--${f}`, `${f} ${all} ${ordinary}`]);
    const lists = ['decided', 'failed', 'verified', 'blocker', 'ran', 'question', 'file'].flatMap((f) => [`--${f}`, `${f} ${oneLine} ${ordinary}`]);
    const cpOut = await ok(['checkpoint', '-a', 'claude', ...flags, ...lists]);
    assert.match(cpOut, /masked \d+ secret/);
    const body = ['Task', 'Intent', 'State', 'Decisions', "Didn't work", 'Verified', 'Blockers', 'Commands run', 'Open questions', 'Files', 'Next']
      .map((h) =>
        /^(Task|Intent|State|Next)$/.test(h)
          ? `## ${h}\n\n${h} ${all}\n${ordinary}\n`
          : `## ${h}\n\n${SECRETS.filter((s) => !s.text.includes('\n'))
              .map((s) => `- ${h}: ${s.text}`)
              .join('\n')}\n- ${ordinary}\n`,
      )
      .join('\n');
    await ok(['checkpoint', '-a', 'codex'], body);
    await ok(['handoff', '-a', 'claude', '--to', 'cursor', '--task', `hand-off ${all}`, '--next', `${ordinary}`]);
    await ok(['plan', '-a', 'claude'], `# Plan\n\n1. use ${all}\n2. ${ordinary}\n`);

    // ---- MCP tools
    const calls = [
      { name: 'note_progress', arguments: { text: `mcp note ${all}` } },
      { name: 'checkpoint', arguments: { task: `mcp task ${all}`, state: all, failed: SECRETS.map((s) => s.text), files: [`src/${SECRETS[0].text}.ts`] } },
      { name: 'checkpoint', arguments: { to: 'claude', task: `mcp hand-off ${all}`, next: all } },
    ];
    const replies = await mcpSession(vault, repo, calls);
    assert.equal(replies.length, calls.length);
    for (const r of replies) assert.ok(!JSON.stringify(r).includes('"isError":true'), `an MCP call failed: ${JSON.stringify(r).slice(0, 400)}`);

    // ---- agent hooks: what they carry (a transcript, an approved plan, a reason, ids and paths)
    const transcript = path.join(repo, 'transcript.jsonl');
    const said = (text: string): string => JSON.stringify({ type: 'user', message: { role: 'user', content: text } });
    fs.writeFileSync(transcript, [said(`please deploy with ${all}`), said(`also ${oneLine}`), said(`my password=iOx9gy1CJdObOIRp ok`)].join('\n') + '\n');
    const hookEnv = { BATON_PROJECT: 'kestrel' };
    const payload = (extra: Record<string, unknown>): string => JSON.stringify({ session_id: SECRETS[0].text, transcript_path: transcript, cwd: repo, ...extra });
    for (const [event, extra] of [
      ['session-start', { source: 'startup' }],
      ['post-tool-use', { tool_name: 'ExitPlanMode', tool_input: { plan: `approved plan ${all}` } }],
      ['pre-compact', { trigger: 'auto' }],
      ['session-end', { reason: `logout ${oneLine}` }],
    ] as [string, Record<string, unknown>][]) {
      const r = await run(['hook', 'claude-code', event], { vault, cwd: repo, input: payload(extra), env: hookEnv });
      assert.equal(r.code, 0, `hook ${event}: ${r.stderr}`);
    }
    await ok(['index']);

    // ---- search every byte of every file under the vault
    const files = walk(vault)
      .filter((e) => !e.dir)
      .map((e) => e.rel);
    assert.ok(
      files.some((f) => f.startsWith(path.join('sessions', 'kestrel', 'plans'))),
      'plans were written',
    );
    assert.ok(files.filter((f) => /[0-9]{8}-.*\.md$/.test(f)).length >= 5, 'checkpoints were written (CLI, stdin, hand-off, MCP, pre-compact)');
    const leaks = leaksIn(vault);

    // ---- what is not a secret is kept verbatim
    const cpFiles = files.filter((f) => /[0-9]{8}-[0-9]{6}-claude\.md$/.test(f)).map((f) => fs.readFileSync(path.join(vault, f), 'utf8'));
    const notes = fs.existsSync(path.join(vault, 'sessions', 'kestrel', 'uncommitted.md'))
      ? fs.readFileSync(path.join(vault, 'sessions', 'kestrel', 'uncommitted.md'), 'utf8')
      : '';
    const everything = [...cpFiles, notes].join('\n');
    const masked = ORDINARY.filter((o) => !everything.includes(o));
    assert.deepEqual(
      { leaks, ordinaryMasked: masked },
      { leaks: [], ordinaryMasked: [] },
      'no secret reached any vault file, and test names, module paths and hashes were not masked',
    );
    log(`${SECRETS.length} secrets × every entry point, ${files.length} files searched, ${((Date.now() - started) / 1000).toFixed(1)}s`);
  });
  it('refuses every secret as a name: project, worktree, agent, hand-off, plan agent, folder, marker, env, MCP and hooks', async () => {
    const started = Date.now();
    const all = SECRETS.filter((s) => !s.text.includes('\n'));
    // CHAOS_NAMES shrinks a local run to that many secrets, spread over the corpus; CI tries them all.
    const limit = Math.min(all.length, Number(process.env.CHAOS_NAMES ?? all.length));
    const oneLine = all.filter((_, i) => limit >= all.length || Math.floor((i * limit) / all.length) !== Math.floor(((i - 1) * limit) / all.length));
    // Ordinary work first, so the vault has every kind of file the names could have reached.
    const base = await run(['checkpoint', '--project=kestrel', '--agent=claude', '--task', 'baseline'], { vault, cwd: repo });
    assert.equal(base.code, 0, base.stderr);
    const SECRET_NAME = /looks like a secret/;
    const problems: string[] = [];
    const tasks: (() => Promise<void>)[] = [];
    const expectRefused = (what: string, args: string[], opts: { cwd?: string; input?: string; env?: NodeJS.ProcessEnv } = {}): void => {
      tasks.push(async () => {
        const r: RunResult = await run(args, { vault, cwd: opts.cwd ?? repo, input: opts.input, env: opts.env });
        if (r.code !== 1 || !SECRET_NAME.test(r.stderr)) problems.push(`${what}: exit ${r.code} ${r.stderr.trim().slice(0, 200)}`);
      });
    };
    const hook = (what: string, cwd: string, env: NodeJS.ProcessEnv = {}): void => {
      tasks.push(async () => {
        for (const event of ['session-start', 'pre-compact']) {
          const input = JSON.stringify({ session_id: 'sess-1', cwd, transcript_path: path.join(cwd, 'none.jsonl'), reason: 'logout' });
          const r = await run(['hook', 'claude-code', event], { vault, cwd, input, env });
          if (r.code !== 0) problems.push(`${what} hook ${event}: a hook must exit 0, got ${r.code}`);
        }
      });
    };
    oneLine.forEach((s, i) => {
      const w = `${s.what}`;
      expectRefused(`${w} as project`, ['note', `--project=${s.text}`, '--agent=claude', `note ${i}`]);
      expectRefused(`${w} as worktree`, ['note', `--project=kestrel/${s.text}`, '--agent=claude', `note ${i}`]);
      expectRefused(`${w} glued in a project`, ['note', `--project=feature-${s.text}`, '--agent=claude', `note ${i}`]);
      expectRefused(`${w} as agent`, ['note', '--project=kestrel', `--agent=${s.text}`, `note ${i}`]);
      expectRefused(`${w} as BATON_AGENT`, ['note', '--project=kestrel', `note ${i}`], { env: { BATON_AGENT: s.text } });
      expectRefused(`${w} as BATON_PROJECT`, ['note', '--agent=claude', `note ${i}`], { env: { BATON_PROJECT: s.text } });
      expectRefused(`${w} as checkpoint agent`, ['checkpoint', '--project=kestrel', `--agent=${s.text}`, '--task', `t ${i}`]);
      expectRefused(`${w} as hand-off target`, ['handoff', '--project=kestrel', '--agent=claude', '--to', s.text, '--task', `t ${i}`]);
      expectRefused(`${w} as --handoff`, ['checkpoint', '--project=kestrel', '--agent=claude', `--handoff=${s.text}`, '--task', `t ${i}`]);
      expectRefused(`${w} as plan agent`, ['plan', '--project=kestrel', `--agent=${s.text}`], { input: `plan ${i}` });
      // A folder named by the secret (where a file name can be one), and a marker naming it.
      if (!s.text.includes('/') && Buffer.byteLength(s.text) < 200) {
        const dir = path.join(root, `f${i}`, s.text);
        fs.mkdirSync(dir, { recursive: true });
        expectRefused(`${w} as a folder name`, ['note', '--agent=claude', `note ${i}`], { cwd: dir });
        hook(`${w} as a folder name`, dir);
      }
      const marked = path.join(root, `m${i}`);
      fs.mkdirSync(marked);
      fs.writeFileSync(path.join(marked, '.baton-project'), `# marker\n${s.text}\n`);
      expectRefused(`${w} in .baton-project`, ['note', '--agent=claude', `note ${i}`], { cwd: marked });
      hook(`${w} in .baton-project`, marked);
      hook(`${w} as BATON_PROJECT`, repo, { BATON_PROJECT: s.text });
    });
    await pool(6, tasks);

    // MCP: a secret as the project or hand-off argument is refused as a tool error, not written (the agent is no argument).
    const calls = oneLine.flatMap((s) => [
      { name: 'note_progress', arguments: { text: 'mcp note', project: s.text } },
      { name: 'checkpoint', arguments: { task: 'mcp task', project: s.text } },
      { name: 'checkpoint', arguments: { to: s.text, task: 'mcp hand-off' } },
    ]);
    const replies = await mcpSession(vault, repo, calls);
    replies.forEach((r, i) => {
      const text = JSON.stringify(r);
      if (!text.includes('"isError":true') || !SECRET_NAME.test(text))
        problems.push(`MCP ${calls[i].name} ${JSON.stringify(calls[i].arguments).slice(0, 80)}: ${text.slice(0, 200)}`);
    });

    const leaks = leaksIn(vault);
    assert.deepEqual({ leaks, problems: problems.slice(0, 30) }, { leaks: [], problems: [] }, `${problems.length} problem(s)`);
    log(`${oneLine.length} secrets as names through ${tasks.length} CLI/hook runs and ${calls.length} MCP calls in ${((Date.now() - started) / 1000).toFixed(1)}s`);
  });
});
