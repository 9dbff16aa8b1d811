// GitHub Copilot CLI connected at project scope (`.github/hooks/baton.json`,
// for a team to commit): Copilot runs a folder's own hooks only in a folder
// the person trusted. Driven as copilot.test.ts drives it (`copilot -p`
// against a scripted model); here the point is doctor saying so, and agreeing
// with what Copilot does.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { AGENTS_DIR, agentBin } from './support/install';
import type { RunningModel } from './support/scriptedModel';
import { startModel } from './support/scriptedModel';
import { openaiChat } from './support/wire/openaiChat';
import type { World } from './support/world';
import { baton, makeWorld, removeWorld, run } from './support/world';

describe('GitHub Copilot CLI, connected at project scope: the folder trust its .github/hooks need', function () {
  let world: World;
  let model: RunningModel;
  let binDir: string;

  /** One `copilot -p` in the project: a text answer, no tools; its hooks are what is watched. */
  const copilot = async (): Promise<void> => {
    const r = await run(world, agentBin('copilot'), ['-p', 'Say hello.'], {
      timeoutMs: 180_000,
      env: {
        // Project-scope hooks call `baton` on PATH (README, "Connect your agents").
        PATH: `${binDir}:${world.env.PATH}`,
        COPILOT_PROVIDER_BASE_URL: `${model.url}/v1`,
        COPILOT_PROVIDER_TYPE: 'openai',
        COPILOT_PROVIDER_WIRE_API: 'completions',
        COPILOT_PROVIDER_API_KEY: 'scripted-model-key',
        COPILOT_MODEL: 'gpt-4.1',
        COPILOT_OFFLINE: 'true',
        COPILOT_PKG_CACHE_HOME: path.join(AGENTS_DIR, 'copilot-cache'),
      },
    });
    assert.equal(r.code, 0, `copilot exited ${r.code}\n${r.stdout}\n${r.stderr}`);
  };
  /** The sessions Baton's session-start hook bound: one per Copilot session whose project hooks ran. */
  const boundSessions = (): string[] => {
    const dir = path.join(world.vault, '.baton', 'agent-sessions', 'copilot');
    return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
  };
  const doctor = async (): Promise<string> => {
    const r = await baton(world, ['doctor'], { env: { PATH: `${binDir}:${world.env.PATH}` } });
    return r.stdout + r.stderr;
  };

  before(async function () {
    world = makeWorld('shop');
    binDir = path.join(world.root, 'bin');
    fs.mkdirSync(binDir);
    fs.writeFileSync(path.join(binDir, 'baton'), `#!/bin/sh\nexec "${process.execPath}" "${world.cli}" "$@"\n`, { mode: 0o755 });
    model = await startModel(openaiChat, [{ text: 'Hello.' }]);
    const c = await baton(world, ['connect', 'copilot', '--scope', 'project']);
    assert.equal(c.code, 0, c.stderr);
    assert.ok(fs.existsSync(path.join(world.project, '.github', 'hooks', 'baton.json')));
  });

  after(async function () {
    await model?.close();
    if (world) removeWorld(world);
  });

  it("runs none of the folder's hooks before the folder is trusted, and doctor names the step", async function () {
    await copilot();
    assert.deepEqual(boundSessions(), [], 'the project hooks ran in a folder never trusted');
    const said = await doctor();
    assert.match(said, /Copilot CLI[^\n]*(not|never) (been told to )?trust/i, said);
  });

  it('runs them once the folder is trusted as Copilot records it, and doctor is satisfied', async function () {
    // What "Yes, and remember this folder for future sessions" writes (~/.copilot/config.json, trusted_folders).
    const file = path.join(world.home, '.copilot', 'config.json');
    const text = fs.readFileSync(file, 'utf8');
    fs.writeFileSync(file, text.replace(/\{/, `{\n  "trusted_folders": [${JSON.stringify(world.project)}],`));
    await copilot();
    assert.equal(boundSessions().length, 1, 'the project hooks did not run in the trusted folder');
    const said = await doctor();
    assert.doesNotMatch(said, /Copilot CLI[^\n]*trust/i, said);
  });

  it('takes a trusted parent folder for the project too, as Copilot does', async function () {
    const file = path.join(world.home, '.copilot', 'config.json');
    const text = fs.readFileSync(file, 'utf8');
    fs.writeFileSync(file, text.replace(JSON.stringify(world.project), JSON.stringify(world.root)));
    assert.ok(fs.readFileSync(file, 'utf8').includes(JSON.stringify(world.root)));
    await copilot();
    assert.equal(boundSessions().length, 2, 'the project hooks did not run under a trusted parent');
    const said = await doctor();
    assert.doesNotMatch(said, /Copilot CLI[^\n]*trust/i, said);
  });
});
