// The thread's SessionStart hook in a person's .claude/settings.json: in by one
// splice, out by its exact inverse, over the layouts people write (comments,
// trailing commas, tabs, CRLF, one line, empty `{ }`, an empty "hooks" or
// SessionStart list); their later edits kept when it comes out.
import { strict as assert } from 'assert';
import { parse } from 'jsonc-parser';
import { withClaudeThreadHook, withoutClaudeThreadHook } from '../../src/adapters/agents/threadHooks';

const H = 'agent-thread/session-start.md';
const F = '.claude/settings.json';
const on = (t: string | null): string => withClaudeThreadHook(t, H, F);
const off = (t: string): string | null => withoutClaudeThreadHook(t, H, F);
const sessionStart = (t: string): { hooks: { command: string }[] }[] => (parse(t) as { hooks: { SessionStart: { hooks: { command: string }[] }[] } }).hooks.SessionStart;

const LAYOUTS = [
  '{}',
  '{}\n',
  '{ }\n',
  '{\n}\n',
  '\n',
  '{\n\t"model": "opus"\n}\n',
  '{"model":"opus"}',
  '{"model": "opus", "hooks": {}}\n',
  '{\n  "hooks": {\n    "SessionStart": []\n  }\n}\n',
  '{\n  "hooks": {\n    "Stop": [],\n    "SessionStart": [ ]\n  }\n}',
  '{\n  "permissions": { "allow": [1, 2,], },\n}\n',
  '{\r\n  "model": "opus"\r\n}\r\n',
  '{\n  "hooks": { "SessionStart": [ { "hooks": [ { "type": "command", "command": "echo hi" } ] } ] }\n}\n',
  '// the team\n{\n  "model": "opus" // pinned\n}\n',
  '{\n  "model": "opus"\n  // nothing after\n}\n',
];

describe("the thread's hook in .claude/settings.json", () => {
  for (const before of LAYOUTS) {
    it(`goes in once and out byte for byte: ${JSON.stringify(before)}`, () => {
      const with1 = on(before);
      assert.ok(with1.startsWith(before.slice(0, before.indexOf('{') + 1)) || before.trim() === '', with1);
      assert.equal(sessionStart(with1).filter((g) => g.hooks[0].command.includes(H)).length, 1);
      assert.equal(on(with1), with1, 'twice is once');
      assert.equal(off(with1), before);
    });
  }

  it('makes a file naming the schema when there is none, and takes it away again', () => {
    const made = on(null);
    assert.equal((parse(made) as { $schema: string }).$schema, 'https://json.schemastore.org/claude-code-settings.json');
    assert.equal(off(made), null);
  });

  it("keeps what the person changed since: a key after the hooks, their own handler in Baton's group", () => {
    const later = on('{\n  "model": "opus"\n}\n').replace(/\n}\n$/, ',\n  "theme": "dark"\n}\n');
    assert.equal(off(later), '{\n  "model": "opus",\n  "theme": "dark"\n}\n');
    const shared = on('{\n  "model": "opus"\n}\n').replace(
      '"timeout": 10\n',
      '"timeout": 10\n          },\n          {\n            "type": "command",\n            "command": "echo mine"\n',
    );
    const left = off(shared)!;
    assert.ok(left.includes('echo mine') && !left.includes(H), left);
  });

  it("replaces an older version of the thread's hook rather than adding a second", () => {
    const old = on('{}\n').replace('2>/dev/null || true', '2>/dev/null');
    const now = on(old);
    assert.equal(sessionStart(now).length, 1);
    assert.equal(now, on('{}\n'));
  });
});
