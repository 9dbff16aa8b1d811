// `baton thread enable|disable` through the built CLI in real git repositories:
// what it writes, that enabling twice writes nothing, that disabling gives
// every file back byte for byte, and what it refuses to touch.
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { ensureBuilt } from './support/cli';
import { snapshot, threadRepo, type ThreadRepo } from './support/threadRepo';

const SETTINGS_WITH_COMMENTS = `{
  // the team's own
  "permissions": { "allow": ["Bash(npm test)"] },
  "hooks": {
    "SessionStart": [
      { "hooks": [{ "type": "command", "command": "echo hello" }] } // greet
    ],
    "Stop": [{ "hooks": [{ "type": "command", "command": "say done" }] }],
  }
}`;

describe('baton thread enable|disable (built CLI, real git repositories)', function () {
  this.timeout(120_000);
  let t: ThreadRepo;
  before(() => ensureBuilt());
  beforeEach(async () => {
    t = await threadRepo();
  });
  afterEach(() => t.cleanup());

  it('writes the folder, AGENTS.md and both hooks where none was; twice is the same bytes; disable leaves the repository as it was', async () => {
    const before = snapshot(t.repo);
    const first = await t.enable();
    assert.equal(first.folder, 'agent-thread');
    assert.deepEqual([...first.written].sort(), [
      '.claude/settings.json',
      '.github/hooks/agent-thread.json',
      'AGENTS.md',
      'agent-thread/HANDOVER.md',
      'agent-thread/README.md',
      'agent-thread/session-start.json',
      'agent-thread/session-start.md',
    ]);
    assert.deepEqual(first.removed, []);
    assert.match(
      t.read('AGENTS.md'),
      /^<!-- agent-thread:begin[^\n]*-->\n## Agent thread\n[\s\S]*`agent-thread\/HANDOVER\.md`[\s\S]*`agent-thread\/README\.md`[\s\S]*\n<!-- agent-thread:end -->\n$/,
    );
    const handover = t.read('agent-thread/HANDOVER.md');
    assert.match(handover, /^# Hand-over — kestrel\n/);
    // The file depends on the vault alone: its ages count from the latest checkpoint, which it says.
    assert.match(handover, /\nLatest checkpoint 20260814-143207-cli by cli, 0s ago\.\n/);
    assert.match(
      handover,
      /\n\(Shared from Baton's vault as of 2026-08-14T14:32:07Z, the latest checkpoint's time: every age above counts from then\. Working notes are not shared here\.\)\n$/,
    );
    // Only what was asked for: no CLAUDE.md or Copilot instructions made up.
    assert.equal(fs.existsSync(path.join(t.repo, 'CLAUDE.md')), false);
    assert.equal(fs.existsSync(path.join(t.repo, '.github/copilot-instructions.md')), false);

    const enabled = snapshot(t.repo);
    const mtimes = Object.keys(enabled)
      .filter((f) => !f.endsWith('/'))
      .map((f) => fs.statSync(path.join(t.repo, f)).mtimeMs);
    const second = await t.enable();
    assert.deepEqual(second, { folder: 'agent-thread', written: [], removed: [] });
    assert.deepEqual(snapshot(t.repo), enabled);
    assert.deepEqual(
      Object.keys(enabled)
        .filter((f) => !f.endsWith('/'))
        .map((f) => fs.statSync(path.join(t.repo, f)).mtimeMs),
      mtimes,
    );

    const off = await t.disable();
    assert.deepEqual([...off.removed].sort(), [...first.written].sort());
    assert.deepEqual(snapshot(t.repo), before);
    assert.deepEqual(await t.disable(), { folder: 'agent-thread', written: [], removed: [] });
  });

  for (const variant of [
    { name: 'LF files, AGENTS.md ending without a line end', agents: '# Agents\n\nRun npm test.', eol: '\n' },
    { name: 'CRLF files and an empty AGENTS.md', agents: '', eol: '\r\n' },
  ]) {
    it(`edits a person's AGENTS.md, CLAUDE.md, Copilot instructions and commented settings surgically, and gives each back byte for byte (${variant.name})`, async () => {
      const crlf = (s: string) => s.replace(/\n/g, variant.eol);
      fs.writeFileSync(path.join(t.repo, 'AGENTS.md'), crlf(variant.agents));
      fs.writeFileSync(path.join(t.repo, 'CLAUDE.md'), crlf('# Claude\n\n- keep it short\n'));
      fs.mkdirSync(path.join(t.repo, '.github'), { recursive: true });
      fs.writeFileSync(path.join(t.repo, '.github/copilot-instructions.md'), crlf('Use pnpm.\n\n'));
      fs.mkdirSync(path.join(t.repo, '.claude'));
      fs.writeFileSync(path.join(t.repo, '.claude/settings.json'), crlf(SETTINGS_WITH_COMMENTS));
      const before = snapshot(t.repo);

      const on = await t.enable();
      assert.ok(on.written.includes('CLAUDE.md') && on.written.includes('.github/copilot-instructions.md') && on.written.includes('AGENTS.md'), on.written.join());
      for (const f of ['AGENTS.md', 'CLAUDE.md', '.github/copilot-instructions.md']) {
        const text = t.read(f);
        // Baton's lines end as the file's own do; an empty file has none to follow.
        const eol = before[f].includes('\r\n') ? '\r\n' : '\n';
        assert.ok(text.startsWith(before[f]), f);
        assert.ok(text.includes(`${eol}<!-- agent-thread:begin`) && text.endsWith(`<!-- agent-thread:end -->${eol}`), `${f}: ${JSON.stringify(text)}`);
        assert.equal(text.split('\r\n').length, eol === '\r\n' ? text.split('\n').length : 1, `${f}: one kind of line end`);
      }
      const settings = t.read('.claude/settings.json');
      assert.ok(settings.startsWith(crlf(SETTINGS_WITH_COMMENTS).slice(0, 60)), settings);
      for (const kept of ["// the team's own", '// greet', 'echo hello', 'say done']) assert.ok(settings.includes(kept), kept);
      assert.ok(settings.includes('agent-thread/session-start.md'));

      await t.enable();
      const off = await t.disable();
      assert.ok(off.written.includes('CLAUDE.md') && off.written.includes('.claude/settings.json'), off.written.join());
      assert.deepEqual(snapshot(t.repo), before);
    });
  }

  it("gives back a person's `{}` settings file and empty AGENTS.md rather than deleting them", async () => {
    fs.writeFileSync(path.join(t.repo, 'AGENTS.md'), '');
    fs.mkdirSync(path.join(t.repo, '.claude'));
    fs.writeFileSync(path.join(t.repo, '.claude/settings.json'), '{}\n');
    const before = snapshot(t.repo);
    await t.enable();
    await t.disable();
    assert.deepEqual(snapshot(t.repo), before);
  });

  it('refuses outside a repository, an unknown project and a hand-edited block, writing nothing', async () => {
    const outside = path.join(t.base, 'loose');
    fs.mkdirSync(outside);
    const r1 = await t.run(['thread', 'enable', 'kestrel'], outside);
    assert.equal(r1.code, 1);
    assert.match(r1.stderr, /is not in a git repository/);
    assert.deepEqual(fs.readdirSync(outside), []);

    const before = snapshot(t.repo);
    const r2 = await t.run(['thread', 'enable', 'no-such-project']);
    assert.equal(r2.code, 1);
    assert.match(r2.stderr, /holds no project "no-such-project"/);
    assert.deepEqual(snapshot(t.repo), before);

    await t.enable();
    fs.writeFileSync(path.join(t.repo, 'AGENTS.md'), t.read('AGENTS.md').replace('## Agent thread', '## Agent thread (ours now)'));
    const edited = snapshot(t.repo);
    for (const action of ['enable', 'disable']) {
      const r = await t.run(['thread', action]);
      assert.equal(r.code, 1, `${action}: ${r.stdout}`);
      assert.match(r.stderr, /AGENTS\.md: the block between .* was edited by hand; Baton changed nothing/);
      assert.deepEqual(snapshot(t.repo), edited);
    }
    const r3 = await t.run(['thread', 'pause']);
    assert.equal(r3.code, 2);
    assert.match(r3.stderr, /Unknown action "pause"\.\nUsage: baton thread enable\|pull\|status \[PROJECT\]\|disable \[--json\]/);
  });

  it("refuses a folder, a hooks file or a settings file that is not Baton's to touch, writing nothing", async () => {
    const cases: [string, string, RegExp][] = [
      ['agent-thread/README.md', '# Our agents\n', /agent-thread\/ holds files Baton did not write/],
      ['.github/hooks/agent-thread.json', '{"version": 1, "hooks": {}}\n', /\.github\/hooks\/agent-thread\.json is not Baton's; Baton changed nothing/],
      ['.claude/settings.json', '{"hooks": {\n', /\.claude\/settings\.json is not valid JSON .*Baton changed nothing/],
    ];
    for (const [file, text, message] of cases) {
      fs.mkdirSync(path.dirname(path.join(t.repo, file)), { recursive: true });
      fs.writeFileSync(path.join(t.repo, file), text);
      const before = snapshot(t.repo);
      const r = await t.run(['thread', 'enable']);
      assert.equal(r.code, 1, `${file}: ${r.stdout}`);
      assert.match(r.stderr, message);
      assert.deepEqual(snapshot(t.repo), before, file);
      fs.rmSync(path.join(t.repo, file));
    }
  });

  it('rewrites only the hand-over when a new checkpoint changed it', async () => {
    await t.enable();
    // Made outside the repository, so its own refresh (threadRefresh.test.ts) leaves the working tree to enable.
    const r = await t.run(['checkpoint', '--project', 'kestrel', '--at', '2026-08-14T15:00:00Z', '--task', 'annual toggle, second pass', '--next', 'ship it'], t.base);
    assert.equal(r.code, 0, r.stderr);
    const again = await t.enable();
    assert.deepEqual(again.written, ['agent-thread/HANDOVER.md', 'agent-thread/session-start.md', 'agent-thread/session-start.json']);
    assert.match(t.read('agent-thread/HANDOVER.md'), /> ship it\n/);
  });

  it('disables a thread whose README was deleted by hand, the rest still known as Baton’s', async () => {
    const before = snapshot(t.repo);
    await t.enable();
    fs.rmSync(path.join(t.repo, 'agent-thread/README.md'));
    const off = await t.disable();
    assert.ok(off.removed.includes('agent-thread/HANDOVER.md'), off.removed.join());
    assert.deepEqual(snapshot(t.repo), before);
  });

  it('edits a CLAUDE.md linked to AGENTS.md once, and leaves the link a link', async () => {
    fs.writeFileSync(path.join(t.repo, 'AGENTS.md'), '# Agents\n');
    fs.symlinkSync('AGENTS.md', path.join(t.repo, 'CLAUDE.md'));
    const on = await t.enable();
    assert.ok(on.written.includes('AGENTS.md') && !on.written.includes('CLAUDE.md'), on.written.join());
    assert.equal(t.read('AGENTS.md').split('<!-- agent-thread:begin').length, 2);
    assert.ok(fs.lstatSync(path.join(t.repo, 'CLAUDE.md')).isSymbolicLink());
    await t.disable();
    assert.equal(t.read('AGENTS.md'), '# Agents\n');
    assert.ok(fs.lstatSync(path.join(t.repo, 'CLAUDE.md')).isSymbolicLink());
  });

  it('says which of its files git ignores here, since those never reach a clone', async () => {
    fs.writeFileSync(path.join(t.repo, '.gitignore'), '.claude/\n');
    const r = await t.run(['thread', 'enable']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /\nNote: \.claude\/settings\.json is ignored by git here: add it with git add -f, or cloud agents never see it\.\n/);
    assert.doesNotMatch(r.stdout, /AGENTS\.md is ignored/);
  });

  it('writes at the top of the repository from a folder inside it, for the project given by --project too', async () => {
    fs.mkdirSync(path.join(t.repo, 'src/deep'), { recursive: true });
    const r = await t.run(['thread', 'enable', '--project', 'kestrel', '--json'], path.join(t.repo, 'src/deep'));
    assert.equal(r.code, 0, r.stderr);
    assert.ok((JSON.parse(r.stdout) as { written: string[] }).written.includes('AGENTS.md'));
    assert.ok(fs.existsSync(path.join(t.repo, 'agent-thread/HANDOVER.md')));
    assert.deepEqual(fs.readdirSync(path.join(t.repo, 'src/deep')), []);
    const off = await t.disable(path.join(t.repo, 'src/deep'));
    assert.ok(off.removed.includes('AGENTS.md'));
  });

  it('leaves the checkpoints agents wrote in the folder when it is disabled, and says so', async () => {
    await t.enable();
    fs.mkdirSync(path.join(t.repo, 'agent-thread/checkpoints'));
    fs.writeFileSync(path.join(t.repo, 'agent-thread/checkpoints/20261202-171500-copilot.md'), '## Task\n\nfrom the cloud\n');
    const r = await t.run(['thread', 'disable']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /Note: 1 file\(s\) stay in agent-thread\/, not Baton's own \(agents' checkpoints\): agent-thread\/checkpoints\/20261202-171500-copilot\.md\./);
    assert.deepEqual(fs.readdirSync(path.join(t.repo, 'agent-thread')), ['checkpoints']);
  });
});
