// Whether an agent is connected, read from the plans connect and disconnect
// would make, and which agents look installed here.
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { agentStatus, agentsByPresence } from '../../src/adapters/agents/agentStatus';
import { world, type World } from './support/agentWorld';

describe('agent status', () => {
  let w: World;
  beforeEach(() => {
    w = world();
  });
  afterEach(() => fs.rmSync(w.root, { recursive: true, force: true }));

  it('status: no, yes, partly, outdated after the launcher moved, and a problem that stops connect', () => {
    assert.equal(agentStatus('codex', w.input('user')).connected, 'no');
    w.run('codex', 'connect');
    const yes = agentStatus('codex', w.input('user'));
    assert.deepEqual([yes.connected, yes.files.map((f) => f.state), yes.problems], ['yes', ['connected', 'connected'], []]);
    fs.rmSync(path.join(w.home, '.codex', 'hooks.json'));
    assert.equal(agentStatus('codex', w.input('user')).connected, 'partly');
    w.run('codex', 'connect');
    const moved = agentStatus('codex', { ...w.input('user'), launcherPath: '/opt/baton/bin/baton' });
    assert.deepEqual(
      moved.files.map((f) => f.state),
      ['outdated', 'outdated'],
    );
    assert.match(moved.problems[0], /baton connect codex --scope user/);
    w.write(path.join(w.home, '.cursor', 'mcp.json'), '{ nope');
    const broken = agentStatus('cursor', w.input('user'));
    assert.equal(broken.connected, 'no');
    assert.match(broken.problems[0], /not valid JSON/);
  });

  it('lists the agents found in HOME first', () => {
    fs.mkdirSync(path.join(w.home, '.gemini'));
    fs.mkdirSync(path.join(w.home, '.codex'));
    assert.deepEqual(
      agentsByPresence(w.home).map((a) => `${a.agent}:${a.present}`),
      ['codex:true', 'gemini:true', 'claude-code:false', 'cursor:false', 'copilot:false'],
    );
  });
});
