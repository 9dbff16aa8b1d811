// `baton --help` against the commands the CLI dispatches, every command's own
// --help and -h through the built process, and the README's CLI block
// against the help the process prints.
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { handlers } from '../../src/cli/run';
import { cli, ensureBuilt, ROOT } from './support/cli';
import { tempDir } from './support/tempVault';

/** The names `baton --help` lists: the first word of each line indented by two, in the paragraph after the usage's. */
function listed(help: string): string[] {
  const [, , commands] = help.split(/\n\n/);
  return commands.split('\n').flatMap((line) => /^ {2}([a-z][a-z-]*)\b/.exec(line)?.[1] ?? []);
}

describe('baton --help (built CLI)', function () {
  this.timeout(120_000);
  let vault: string;
  before(() => {
    ensureBuilt();
    vault = tempDir('baton-help-');
  });
  after(() => fs.rmSync(vault, { recursive: true, force: true }));

  it('lists exactly the commands run() dispatches', async () => {
    const r = await cli(['--help'], { vault });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(listed(r.stdout).sort(), Object.keys(handlers({})).sort());
  });

  it('prints each command its own usage and flags, exit 0, for --help and -h', async () => {
    for (const name of Object.keys(handlers({}))) {
      for (const flag of ['--help', '-h']) {
        const r = await cli([name, flag], { vault });
        assert.equal(r.code, 0, `${name} ${flag}: ${r.stderr}`);
        assert.ok(r.stdout.startsWith(`Usage: baton ${name}`), `${name} ${flag}: ${r.stdout}`);
        assert.match(r.stdout, /\n {2}-h, --help +this help\n/, `${name} ${flag}`);
      }
    }
    // Help never runs the command: nothing was written to the vault.
    assert.deepEqual(fs.readdirSync(vault), []);
  });

  it('keeps usage errors at exit 2, with the usage made from the same flags', async () => {
    const r = await cli(['why', '--bogus'], { vault });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /Unknown option '--bogus'\nUsage: baton why PATH \[--limit N\] \[--basic-memory DIR\] \[--json\]\n$/);
    // After `--` a --help is text, not a request for help.
    const other = tempDir('baton-help-note-');
    const note = await cli(['note', '-p', 'kestrel', '--json', '--', '--help'], { vault: other });
    fs.rmSync(other, { recursive: true, force: true });
    assert.equal(note.code, 0, note.stderr);
    assert.equal(JSON.parse(note.stdout).text, '--help');
  });

  it("is the README's CLI block, line for line", async () => {
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const block = /## The `baton` CLI\n\n```\n([\s\S]*?)```\n/.exec(readme);
    assert.ok(block, 'README.md has a "## The `baton` CLI" section opening with a code block');
    assert.equal(block[1], (await cli(['--help'], { vault })).stdout);
  });
});
