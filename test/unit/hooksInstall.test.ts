// Installing Baton's hooks into agents' settings files and taking them out:
// other entries untouched, idempotent, a backup kept, and the very same bytes
// back when Baton's entries are removed.
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { installHooks, isOurs, uninstallHooks } from '../../src/app/hooksInstall';
import { cli, ensureBuilt } from './support/cli';
import { tempDir } from './support/tempVault';

/** A settings file a person wrote: four-space indent, their own hooks on the same events, other keys, no final newline. */
const THEIRS = `{
    "permissions": {
        "allow": ["Bash(npm test:*)"]
    },
    "hooks": {
        "SessionStart": [
            {
                "matcher": "startup",
                "hooks": [{ "type": "command", "command": "echo hello" }]
            }
        ],
        "PostToolUse": [
            {
                "matcher": "Write|Edit",
                "hooks": [{ "type": "command", "command": "npx prettier --write" }]
            }
        ]
    },
    "model": "opus"
}`;

type Settings = { hooks: Record<string, { matcher?: string; hooks: { command: string }[] }[]>; [k: string]: unknown };

describe('baton hooks install / uninstall', function () {
  this.timeout(60_000);
  let dir: string;
  const file = (...p: string[]): string => path.join(dir, ...p);
  const write = (rel: string, text: string): void => {
    fs.mkdirSync(path.dirname(file(rel)), { recursive: true });
    fs.writeFileSync(file(rel), text);
  };
  const read = (rel: string): string => fs.readFileSync(file(rel), 'utf8');
  beforeEach(() => {
    dir = tempDir('baton-hooks-');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('merges the four Claude Code hooks beside the person\'s own, keeps a backup, and is idempotent', () => {
    write('.claude/settings.json', THEIRS);
    const r = installHooks('claude-code', dir);
    assert.equal(r.outcome, 'installed');
    assert.equal(read('.claude/settings.json.baton-backup'), THEIRS);
    const after = read('.claude/settings.json');
    const s = JSON.parse(after) as Settings;
    assert.deepEqual(s.permissions, { allow: ['Bash(npm test:*)'] });
    assert.equal(s.model, 'opus');
    assert.equal(s.hooks.SessionStart[0].hooks[0].command, 'echo hello');
    assert.equal(s.hooks.SessionStart[1].hooks[0].command, 'baton hook claude-code session-start');
    assert.equal(s.hooks.PreCompact[0].hooks[0].command, 'baton hook claude-code pre-compact');
    assert.deepEqual(s.hooks.PostToolUse[1], { matcher: 'ExitPlanMode', hooks: [{ type: 'command', command: 'baton hook claude-code post-tool-use' }] });
    assert.equal(s.hooks.SessionEnd[0].hooks[0].command, 'baton hook claude-code session-end');
    assert.match(after, /^ {4}"permissions"/m, 'the file keeps its four-space indent');

    assert.equal(installHooks('claude-code', dir).outcome, 'unchanged');
    assert.equal(read('.claude/settings.json'), after, 'running twice changes nothing');
    assert.equal(read('.claude/settings.json.baton-backup'), THEIRS, 'the backup is still the original');
  });

  it('uninstall gives back the original bytes when the person changed nothing else', () => {
    write('.claude/settings.json', THEIRS);
    installHooks('claude-code', dir);
    const r = uninstallHooks('claude-code', dir);
    assert.equal(r.outcome, 'restored');
    assert.equal(read('.claude/settings.json'), THEIRS);
    assert.ok(!fs.existsSync(file('.claude/settings.json.baton-backup')));
    assert.equal(uninstallHooks('claude-code', dir).outcome, 'unchanged');
    assert.equal(read('.claude/settings.json'), THEIRS);
  });

  it('uninstall removes only Baton\'s entries when the person edited the file in between', () => {
    write('.claude/settings.json', THEIRS);
    installHooks('claude-code', dir);
    const edited = JSON.parse(read('.claude/settings.json')) as Settings;
    edited.hooks.SessionStart[1].hooks.push({ command: 'notify-send started' });
    edited.theme = 'dark';
    fs.writeFileSync(file('.claude/settings.json'), JSON.stringify(edited, null, 4));
    assert.equal(uninstallHooks('claude-code', dir).outcome, 'written');
    const s = JSON.parse(read('.claude/settings.json')) as Settings;
    assert.equal(s.theme, 'dark');
    assert.deepEqual(Object.keys(s.hooks).sort(), ['PostToolUse', 'SessionStart']);
    assert.deepEqual(s.hooks.SessionStart.map((g) => g.hooks.map((h) => h.command)), [['echo hello'], ['notify-send started']]);
    assert.deepEqual(s.hooks.PostToolUse.map((g) => g.matcher), ['Write|Edit']);
    assert.ok(!JSON.stringify(s).includes('baton hook'));
  });

  it('creates the file when there is none, and removes it again', () => {
    assert.equal(installHooks('claude-code', dir).outcome, 'installed');
    assert.ok(!fs.existsSync(file('.claude/settings.json.baton-backup')));
    assert.equal(uninstallHooks('claude-code', dir).outcome, 'removed');
    assert.ok(!fs.existsSync(file('.claude/settings.json')));
    assert.equal(uninstallHooks('claude-code', dir).outcome, 'absent');
  });

  it('restores an empty "hooks" object or event list the person had, byte for byte', () => {
    const original = '{\n  "hooks": {},\n  "env": { "FOO": "1" }\n}\n';
    write('.claude/settings.json', original);
    installHooks('claude-code', dir);
    fs.rmSync(file('.claude/settings.json.baton-backup')); // even without the backup the shape survives
    uninstallHooks('claude-code', dir);
    assert.deepEqual(JSON.parse(read('.claude/settings.json')), { env: { FOO: '1' } });
    write('.claude/settings.json', original);
    installHooks('claude-code', dir);
    uninstallHooks('claude-code', dir);
    assert.equal(read('.claude/settings.json'), original);
    const emptyList = '{"hooks":{"SessionStart":[]}}';
    write('.claude/settings.json', emptyList);
    installHooks('claude-code', dir);
    uninstallHooks('claude-code', dir);
    assert.equal(read('.claude/settings.json'), emptyList);
  });

  it('round-trips Codex\'s hooks.json and Cursor\'s (which has no version at first)', () => {
    const codex = '{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"say done"}]}]}}';
    write('.codex/hooks.json', codex);
    installHooks('codex', dir);
    const c = JSON.parse(read('.codex/hooks.json')) as Settings;
    assert.deepEqual(Object.keys(c.hooks), ['Stop', 'SessionStart']);
    assert.equal(c.hooks.SessionStart[0].hooks[0].command, 'baton hook codex session-start');
    uninstallHooks('codex', dir);
    assert.equal(read('.codex/hooks.json'), codex);

    const cursor = '{\n\t"hooks": {\n\t\t"afterFileEdit": [{ "command": "./format.sh" }]\n\t}\n}\n';
    write('.cursor/hooks.json', cursor);
    installHooks('cursor', dir, 'node /opt/baton/dist/cli.js');
    const k = JSON.parse(read('.cursor/hooks.json'));
    assert.equal(k.version, 1);
    assert.deepEqual(k.hooks.sessionStart, [{ command: 'node /opt/baton/dist/cli.js hook cursor session-start' }]);
    assert.deepEqual(k.hooks.afterFileEdit, [{ command: './format.sh' }]);
    assert.match(read('.cursor/hooks.json'), /^\t"hooks"/m);
    uninstallHooks('cursor', dir);
    assert.equal(read('.cursor/hooks.json'), cursor);
  });

  it('updates its own command when installed from another path, without a second entry', () => {
    installHooks('claude-code', dir, 'baton');
    assert.equal(installHooks('claude-code', dir, 'node "/x y/cli.js"').outcome, 'installed');
    const s = JSON.parse(read('.claude/settings.json')) as Settings;
    assert.deepEqual(s.hooks.SessionStart.map((g) => g.hooks[0].command), ['node "/x y/cli.js" hook claude-code session-start']);
  });

  it('recognises only its own commands', () => {
    assert.ok(isOurs('baton hook claude-code session-start', 'claude-code'));
    assert.ok(isOurs('/usr/local/bin/baton hook codex session-start', 'codex'));
    assert.ok(isOurs('node "/x/dist/cli.js" hook cursor session-start'));
    assert.ok(!isOurs('baton hook codex session-start', 'claude-code'));
    assert.ok(!isOurs('echo baton hook claude-code session-start && rm -rf /'));
    assert.ok(!isOurs('my-hook session-start'));
    assert.ok(!isOurs(42));
  });

  describe('through the CLI', () => {
    before(() => ensureBuilt());

    it('refuses a settings file that is not JSON and changes nothing', async () => {
      write('.claude/settings.json', '{ "hooks": { // a comment\n}');
      const r = await cli(['hooks', 'install', 'claude-code'], { vault: dir, cwd: dir });
      assert.equal(r.code, 1);
      assert.match(r.stderr, /is not valid JSON.*changed nothing/);
      assert.equal(read('.claude/settings.json'), '{ "hooks": { // a comment\n}');
      assert.ok(!fs.existsSync(file('.claude/settings.json.baton-backup')));
    });

    it('installs into the repository root from a subfolder, and --user into HOME', async () => {
      fs.mkdirSync(file('.git'));
      fs.mkdirSync(file('src/deep'), { recursive: true });
      const home = tempDir('baton-home-');
      try {
        const r = await cli(['hooks', 'install', 'claude-code'], { vault: dir, cwd: file('src/deep') });
        assert.equal(r.code, 0, r.stderr);
        assert.match(r.stdout, /Installed Baton's Claude Code hooks/);
        assert.ok(fs.existsSync(file('.claude/settings.json')));
        const u = await cli(['hooks', 'install', 'codex', '--user'], { vault: dir, cwd: dir, env: { HOME: home } });
        assert.equal(u.code, 0, u.stderr);
        assert.match(u.stdout, /trust/);
        assert.ok(fs.existsSync(path.join(home, '.codex', 'hooks.json')));
        const un = await cli(['hooks', 'uninstall', 'codex', '--user'], { vault: dir, cwd: dir, env: { HOME: home } });
        assert.match(un.stdout, /held nothing else/);
        assert.ok(!fs.existsSync(path.join(home, '.codex', 'hooks.json')));
        assert.equal((await cli(['hooks', 'install', 'gemini'], { vault: dir, cwd: dir })).code, 2);
      } finally {
        fs.rmSync(home, { recursive: true, force: true });
      }
    });
  });
});
