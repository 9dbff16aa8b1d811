import { strict as assert } from 'assert';
import { AGENT_IDS } from '../../src/app/connect';
import { canonicalAgent, handoffChoices } from '../../src/app/handoffAgents';
import { CLIENT_AGENTS } from '../../src/mcp/clientAgents';
import { AGENT_OF } from '../../src/hooks/hosts';

describe('Hand Off…: who is offered', () => {
  it('each agent once, under the name its hooks write: claude is claude-code, an MCP client its host', () => {
    assert.equal(canonicalAgent('claude'), 'claude-code');
    assert.equal(canonicalAgent('claude-code'), 'claude-code');
    assert.equal(canonicalAgent('codex-mcp-client'), 'codex');
    assert.equal(canonicalAgent('github-copilot'), 'copilot');
    assert.equal(canonicalAgent('alice'), 'alice', 'a person keeps their name');
    const names = handoffChoices(
      [
        { agent: 'claude', ts: 100 },
        { agent: 'claude-code', ts: 300 },
        { agent: 'alice', ts: 50 },
      ],
      'bob',
    ).map((c) => c.name);
    assert.deepEqual(names, ['claude-code', 'alice', 'codex', 'cursor', 'gemini', 'copilot', 'aider']);
    assert.equal(new Set(names).size, names.length);
    assert.ok(!names.includes('claude'));
  });

  it('those seen in this vault first, newest first, with when; the common ones after, unmarked', () => {
    const choices = handoffChoices(
      [
        { agent: 'cursor', ts: 10 },
        { agent: 'claude', ts: 500 },
        { agent: 'codex', ts: 200 },
        { agent: 'claude-code', ts: 400 },
      ],
      'bob',
    );
    assert.deepEqual(choices.slice(0, 3), [
      { name: 'claude-code', lastSeen: 500 },
      { name: 'codex', lastSeen: 200 },
      { name: 'cursor', lastSeen: 10 },
    ]);
    assert.deepEqual(
      choices.slice(3),
      ['gemini', 'copilot', 'aider'].map((name) => ({ name })),
    );
    // A name whose files carry no time (a broken checkpoint's) is still one seen here, after the dated ones.
    assert.deepEqual(
      handoffChoices(
        [
          { agent: 'junk', ts: 0 },
          { agent: 'codex', ts: 9 },
        ],
        'bob',
      ).slice(0, 2),
      [
        { name: 'codex', lastSeen: 9 },
        { name: 'junk', lastSeen: 0 },
      ],
    );
  });

  it('leaves out who is handing off, under any of its names', () => {
    const names = handoffChoices([{ agent: 'claude', ts: 1 }], 'claude-code').map((c) => c.name);
    assert.ok(!names.includes('claude-code') && !names.includes('claude'), names.join(', '));
    assert.ok(!handoffChoices([], 'codex').some((c) => c.name === 'codex'));
  });

  it('offers every name the hooks and the MCP server write as (a new agent cannot be missed here)', () => {
    const offered = new Set(handoffChoices([], 'bob').map((c) => c.name));
    for (const name of [...Object.values(AGENT_OF), ...Object.values(CLIENT_AGENTS)]) {
      assert.equal(canonicalAgent(name), name, `${name} is a canonical name`);
      assert.ok(offered.has(name), `${name} is offered`);
    }
    for (const id of AGENT_IDS) assert.ok(offered.has(id));
  });
});
