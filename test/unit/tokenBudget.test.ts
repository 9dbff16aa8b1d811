// Issue 23's token budget (chars/4), measured as bench/tokens.ts measures it:
// Baton's MCP tools and instructions as the SDK's real client lists them, and
// the session-start hand-over the real hook use case prints, for the bench's
// typical project and for a hand-over far over the budget.
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { sessionStart } from '../../src/app/agentHooks';
import type { HookPayload } from '../../src/app/editHooks';
import { failedHeading } from '../../src/core/handover';
import { TOOL_BUDGET_TOKENS, toolCost } from '../../src/mcp/toolCost';
import { START_BUDGET_TOKENS, tokenFigures } from '../../bench/tokens';
import { tempDir, tempVault, type TempVault } from './support/tempVault';

describe('the token budget of a request', function () {
  this.timeout(120_000);

  it(`Baton's MCP tools and instructions: at most ${TOOL_BUDGET_TOKENS} tokens, the tools agents call`, async () => {
    const cost = await toolCost();
    assert.ok(cost.tokens <= TOOL_BUDGET_TOKENS, `${cost.tokens} tokens (${cost.chars} characters)`);
    assert.deepEqual(cost.tools.map((t) => t.name).sort(), ['before_you_try', 'checkpoint', 'note_progress', 'resume', 'search', 'why']);
  });

  it(`the session start of the bench's typical project, and of every project of its vault: at most ${START_BUDGET_TOKENS} tokens`, async () => {
    const f = await tokenFigures();
    assert.ok(f.start.tokens <= START_BUDGET_TOKENS, `${f.project}: ${f.start.tokens} tokens`);
    assert.ok(f.largestStart.tokens <= START_BUDGET_TOKENS, `${f.largestStart.project}: ${f.largestStart.tokens} tokens`);
    assert.doesNotMatch(f.startText, /lifecycle: stopped/);
  });

  describe('a hand-over over the budget', () => {
    let v: TempVault;
    let work: string;
    beforeEach(() => {
      v = tempVault();
      work = tempDir('baton-budget-work-');
      fs.writeFileSync(path.join(work, '.baton-project'), 'kestrel\n');
    });
    afterEach(() => {
      v.cleanup();
      fs.rmSync(work, { recursive: true, force: true });
    });

    it('keeps the dead ends first and points to resume for the rest', async () => {
      const long = (what: string, n: number): string => Array.from({ length: n }, (_, i) => `${what} ${i} holds more detail than a session start needs`).join('. ');
      await v.baton.commit({
        scope: 'kestrel',
        agent: 'codex',
        fields: {
          task: 'make the coupon retries survive a 429',
          state: long('state', 40),
          decisions: Array.from({ length: 12 }, (_, i) => long(`decision ${i}`, 3)),
          failed: ['fake timers alone: the service client reads the clock too', 'a bigger retry budget: the 429 storms only grow'],
          verified: Array.from({ length: 8 }, (_, i) => long(`claim ${i}`, 2)),
          next: 'inject the clock into the coupon client',
        },
      });
      const payload: HookPayload = {
        host: 'claude-code',
        sessionId: '',
        transcriptPath: '',
        cwd: work,
        roots: [],
        edited: [],
        source: 'startup',
        prompt: '',
        trigger: '',
        instructions: '',
        context: { percent: null, messages: null, toCompact: null },
        reason: '',
        toolName: '',
        toolInput: {},
      };
      const text = await sessionStart({ vaultRoot: v.root, env: {}, agent: 'claude-code', now: () => v.clock.now(), baton: v.baton }, payload);
      assert.ok(text.length <= START_BUDGET_TOKENS * 4, `${text.length} characters`);
      const body = text.slice(text.indexOf('Latest checkpoint'));
      assert.equal(body.split('\n').filter(Boolean)[1], failedHeading(2), 'the dead ends come right after the checkpoint line');
      assert.match(body, /fake timers alone[\s\S]*a bigger retry budget/);
      assert.match(body, /\nNext:\n {2}> inject the clock/);
      assert.match(body, /\(Left out here: .*State.*\. The whole hand-over: Baton's resume tool, or baton resume kestrel\.\)\n/);
    });
  });
});
