// The shell runs Baton's hooks recorded in a world's vault (issue 26), and the
// checkpoint that cites them: what each agent's shell test asserts on.
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { Run } from '../../../src/core/runs';
import type { World } from './world';

// Plain commands with no quotes, so the same text reads back from the runs
// file, the claim and the checkpoint's YAML without any escaping in between.
export const PASS = 'node pass.js';
export const FAIL = 'node fail.js';

/** The two scripts the commands run, in the project (the agent's working directory). */
export function writeScripts(world: World): void {
  // Its output names an exit of its own: a host's payload that passes on a command's words would read 1.
  fs.writeFileSync(path.join(world.project, 'pass.js'), "console.log('a child: exit code 1');\nprocess.exit(0);\n");
  fs.writeFileSync(path.join(world.project, 'fail.js'), 'process.exit(3);\n');
}

/** Every run recorded under the vault, oldest first. */
export function runsOf(world: World): Run[] {
  const dir = path.join(world.vault, '.baton-live', 'runs');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.jsonl'))
    .flatMap((f) => fs.readFileSync(path.join(dir, f), 'utf8').split('\n').filter(Boolean))
    .map((l) => JSON.parse(l) as Run)
    .sort((a, b) => a.ts - b.ts);
}

/** The runs of these commands only (a host may run its own, e.g. git, beside the agent's). */
export const ourRuns = (world: World): [string, string, number | undefined][] =>
  runsOf(world)
    .filter((r) => r.command.includes(PASS) || r.command.includes(FAIL))
    .map((r) => [r.command, r.status, r.exit]);

/** The text of the project's checkpoint whose task is `task`. */
export function checkpointWith(world: World, task: string): string {
  const dir = path.join(world.vault, 'sessions', world.projectName);
  const found = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.md') && f !== 'uncommitted.md')
    .map((f) => fs.readFileSync(path.join(dir, f), 'utf8'))
    .find((t) => t.includes(task));
  if (!found) throw new Error(`no checkpoint with task ${task}`);
  return found;
}

export const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The pass and the failure recorded with their exits, and the checkpoint of
 * `task` backed by the pass (fresh: no covered file changed after it), the
 * failure listed with its status in Commands run. `log` says why when not.
 */
export function assertPassBacksTheClaim(world: World, task: string, log: string): void {
  assert.deepEqual(
    ourRuns(world),
    [
      [PASS, 'passed', 0],
      [FAIL, 'failed', 3],
    ],
    log,
  );
  const cp = checkpointWith(world, task);
  assert.match(cp, new RegExp(`evidence:[\\s\\S]*command: ${escape(PASS)}`));
  assert.doesNotMatch(cp, /unbacked|changed:/);
  assert.match(cp, new RegExp(`## Commands run[\\s\\S]*${escape(FAIL)} \\(failed, exit 3\\)`));
}

/**
 * Keeps each post-tool-use payload the host sends Baton's hooks, as sent, in
 * `<root>/payloads/`: Baton's launcher (which every installed hook calls by
 * path) saves its input before running the CLI on it. Returns the undo.
 */
export function keepHookPayloads(world: World): () => void {
  const launcher = path.join(world.home, '.baton', 'bin', 'baton');
  const original = fs.readFileSync(launcher, 'utf8');
  const dir = path.join(world.root, 'payloads');
  fs.mkdirSync(dir, { recursive: true });
  // Arguments: --vault <vault> hook <agent> <event>.
  const keep = `if [ "$3" = hook ] && [ "$5" = post-tool-use ]; then f="${dir}/$4-$$.json"; cat > "$f"; t=$(sed -n 's/.*"transcript_path":"\\([^"]*\\)".*/\\1/p' "$f"); [ -f "$t" ] && cp "$t" "$f.transcript"; exec < "$f"; fi\n`;
  fs.writeFileSync(
    launcher,
    original.replace(/^exec /m, () => `${keep}exec `),
  );
  return () => fs.writeFileSync(launcher, original);
}

/** The command a kept payload's tool was given (snake_case hosts' tool_input, Copilot's toolArgs). */
const commandOf = (p: Record<string, unknown>): string => {
  const args = (p.tool_input ?? p.toolArgs) as { command?: unknown } | undefined;
  return typeof args?.command === 'string' ? args.command : '';
};

/** The payloads kept, parsed, whose tool ran one of these commands (not, say, a checkpoint quoting one). */
export function keptShellPayloads(world: World): Record<string, unknown>[] {
  const dir = path.join(world.root, 'payloads');
  return (fs.existsSync(dir) ? fs.readdirSync(dir) : [])
    .filter((f) => f.endsWith('.json'))
    .map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as Record<string, unknown>)
    .filter((p) => [PASS, FAIL].includes(commandOf(p)));
}

/**
 * With BATON_UPDATE_FIXTURES, the kept payloads become the unit tests'
 * fixtures (test/fixtures/hooks/<host>-<version>-pass.json, -fail.json),
 * this machine's paths a placeholder.
 */
export function saveShellFixtures(world: World, host: string, version: string): void {
  if (!process.env.BATON_UPDATE_FIXTURES) return;
  const out = path.resolve(__dirname, '../../fixtures/hooks');
  fs.mkdirSync(out, { recursive: true });
  for (const p of keptShellPayloads(world)) {
    const text = JSON.stringify(p, null, 1).split(world.root).join('/ROOT');
    fs.writeFileSync(path.join(out, `${host}-${version}-${commandOf(p) === PASS ? 'pass' : 'fail'}.json`), text + '\n');
  }
}
