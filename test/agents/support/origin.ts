// Issue 25: every write of one agent session names that session, whichever
// door it came through. Read from the vault as a person would find it after a
// run whose model checkpointed through MCP, then noted through MCP, while the
// CLI's own hooks noted the turn's and the session's end.
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { World } from './world';

export const ORIGIN_TASK = 'Check which session each write names';
export const ORIGIN_NOTE = 'checkpointed; the note after it names the same session';

const sessionIn = (line: string): string => / agent_session=([A-Za-z0-9_-]+)/.exec(line)?.[1] ?? '';

/** The agent_session of the MCP checkpoint, of the MCP note after it, and of the hooks' notes after that. */
export function originsOfRun(world: World): { checkpoint: string; note: string; hooks: string[] } {
  const dir = path.join(world.vault, 'sessions', world.projectName);
  const lines = fs.readFileSync(path.join(dir, 'uncommitted.md'), 'utf8').split('\n');
  const at = lines.findIndex((l) => l.startsWith(`- ${ORIGIN_NOTE} <!--`));
  assert.ok(at >= 0, `the MCP note is in the notes:\n${lines.join('\n')}`);
  const hooks = lines.slice(at + 1).filter((l) => l.startsWith('- lifecycle: '));
  const cp = fs
    .readdirSync(dir)
    .filter((f) => /^\d{8}-.*\.md$/.test(f))
    .map((f) => fs.readFileSync(path.join(dir, f), 'utf8'))
    .find((t) => t.includes(`## Task\n\n${ORIGIN_TASK}\n`));
  assert.ok(cp, 'the MCP checkpoint is in the vault');
  const value = /^agent_session: (.*)$/m.exec(cp.split('\n---')[0])?.[1] ?? '';
  return { checkpoint: value.replace(/^"(.*)"$/, '$1'), note: sessionIn(lines[at]), hooks: hooks.map(sessionIn) };
}

/** The MCP checkpoint and note name the session the hooks' notes of the same run name (and that one is known). */
export function assertOneSession(world: World, expected?: string): void {
  const o = originsOfRun(world);
  const [session] = o.hooks;
  assert.ok(session, `the hooks noted the run's end with its session: ${JSON.stringify(o)}`);
  assert.deepEqual(o, { checkpoint: session, note: session, hooks: o.hooks.map(() => session) });
  if (expected) assert.equal(session, expected);
}
