// What an edit hook loads, read from the built bundles and from the process
// itself: it runs after every edit an agent makes, so the YAML parser (the
// checkpoint format), sql.js (the index), git and the CLI's commands must stay
// out of its way. Speed itself is measured in the bench (bench/main.ts, the
// `hookEdit` case), never asserted here.
import { strict as assert } from 'assert';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { CLI, ensureBuilt } from './support/cli';
import { tempDir } from './support/tempVault';

const DIST = path.dirname(CLI);

describe('the edit hook loads only the hook door', function () {
  this.timeout(60_000);
  before(() => ensureBuilt());

  it('dist/hook.js holds no YAML parser; the checkpoint format is a file of its own', () => {
    assert.ok(!fs.readFileSync(path.join(DIST, 'hook.js'), 'utf8').includes('tag:yaml.org,2002'), 'js-yaml is in dist/hook.js');
    assert.ok(fs.readFileSync(path.join(DIST, 'checkpointFile.js'), 'utf8').includes('tag:yaml.org,2002'));
    // A shell run's hook starts git itself (adapters/git/gitEnv.ts): simple-git stays in the commands' bundle.
    assert.ok(!fs.readFileSync(path.join(DIST, 'hook.js'), 'utf8').includes('GitResponseError'), 'simple-git is in dist/hook.js');
    assert.ok(fs.readFileSync(path.join(DIST, 'run.js'), 'utf8').includes('GitResponseError'));
  });

  it("an edit requires dist/cli.js and dist/hook.js and nothing else of Baton's, nor Node's crypto or fs.promises, and appends its note", () => {
    const root = tempDir('baton-hookweight-');
    try {
      const work = path.join(root, 'work');
      fs.mkdirSync(work);
      fs.writeFileSync(path.join(work, '.baton-project'), 'kestrel\n');
      const record = path.join(root, 'record.js');
      const out = path.join(root, 'required.json');
      fs.writeFileSync(
        record,
        `process.on('exit', () => require('fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify({ files: Object.keys(require.cache), builtins: process.moduleLoadList })));\n`,
      );
      const payload = {
        session_id: 's-1',
        cwd: work,
        hook_event_name: 'PostToolUse',
        tool_name: 'Edit',
        tool_input: { file_path: path.join(work, 'src', 'cart.ts'), old_string: 'a', new_string: 'b' },
      };
      const vault = path.join(root, 'vault');
      for (let i = 0; i < 2; i++) {
        // Twice: the first call makes the notes file, the second is the common case (an append).
        const r = spawnSync(process.execPath, ['-r', record, CLI, '--vault', vault, 'hook', 'claude-code', 'post-tool-use'], {
          cwd: work,
          input: JSON.stringify(payload),
          encoding: 'utf8',
          env: { PATH: '/usr/bin:/bin', HOME: root },
        });
        assert.deepEqual([r.status, r.stdout, r.stderr], [0, '', '']);
        const loaded = JSON.parse(fs.readFileSync(out, 'utf8')) as { files: string[]; builtins: string[] };
        assert.deepEqual(
          loaded.files
            .filter((f) => f.startsWith(DIST))
            .map((f) => path.basename(f))
            .sort(),
          ['cli.js', 'hook.js'],
        );
        // Node's crypto loads whole (ciphers, keys, certificates): the lock's and the keys' digests are core/sha256.ts.
        assert.ok(!loaded.builtins.includes('NativeModule crypto'), 'crypto loaded');
        // fs.promises brings file handles, streams, readline and watchers: once the folders exist, the lock
        // and the append use fs's callbacks (vault/fsCalls.ts).
        if (i > 0) assert.ok(!loaded.builtins.includes('NativeModule internal/fs/promises'), 'fs.promises loaded');
      }
      assert.match(
        fs.readFileSync(path.join(vault, 'sessions', 'kestrel', 'uncommitted.md'), 'utf8'),
        /- edited: src\/cart\.ts (?:<!-- [a-z_]+=[^>]* --> )?<!-- ts=\d+ agent=claude-code -->/,
      );
      // A shell run (issue 26) is as light: one git process, no simple-git, no crypto, no note.
      const bash = { session_id: 's-1', cwd: work, hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: 'npm test' }, tool_response: { stdout: '' } };
      const r = spawnSync(process.execPath, ['-r', record, CLI, '--vault', vault, 'hook', 'claude-code', 'post-tool-use'], {
        cwd: work,
        input: JSON.stringify(bash),
        encoding: 'utf8',
        env: { PATH: '/usr/bin:/bin', HOME: root },
      });
      assert.deepEqual([r.status, r.stdout, r.stderr], [0, '', '']);
      const loaded = JSON.parse(fs.readFileSync(out, 'utf8')) as { files: string[]; builtins: string[] };
      assert.deepEqual(
        loaded.files.filter((f) => f.startsWith(DIST) || /simple-git/.test(f)).map((f) => path.basename(f)),
        ['cli.js', 'hook.js'],
      );
      assert.ok(!loaded.builtins.includes('NativeModule crypto'), 'crypto loaded');
      assert.equal(fs.readdirSync(path.join(vault, '.baton-live', 'runs')).length, 1);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
