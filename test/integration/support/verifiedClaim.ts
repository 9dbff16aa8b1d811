// A Verified claim backed by its run, as an agent leaves one: a working note,
// a commit of the file, the run as Claude Code's PostToolUse hook hands it
// over (test/unit/evidence.test.ts has each host's shape) through the built
// CLI, then the checkpoint naming the run. For the editor's tiers that judge
// it (integration's verification.test.ts, restricted/restrictedMode.test.ts).
import * as assert from 'assert';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { spawnCli } from '../../support/spawnCli';
import { env, runCli, vaultDir, workspaceDir } from './baton';

export const REL = 'src/verified.ts';
export const COMMAND = 'test -f src/verified.ts';
export const CLAIM = `the verified module is there — ${COMMAND}`;
export const TASK = 'Check the verified module';

/** The test's own git in the workspace (set-up and what it sees), never Baton's; `at` dates a commit. */
export function git(args: string[], at?: number): string {
  const date = at === undefined ? {} : { GIT_AUTHOR_DATE: `@${at} +0000`, GIT_COMMITTER_DATE: `@${at} +0000` };
  const r = spawnSync('git', ['-c', 'user.name=Baton Test', '-c', 'user.email=baton-test@example.invalid', '-c', 'commit.gpgsign=false', ...args], {
    cwd: workspaceDir(),
    encoding: 'utf8',
    env: { ...process.env, ...date },
  });
  assert.strictEqual(r.status, 0, `git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout.trim();
}

export async function cliOk(args: string[]): Promise<string> {
  const r = await runCli(args);
  assert.strictEqual(r.code, 0, `baton ${args.join(' ')}: ${r.stdout}${r.stderr}`);
  return r.stdout;
}

/** Commits `text` as REL, records COMMAND's pass from the hook, and checkpoints CLAIM in `project` covering REL. */
export async function backedClaim(project: string, text: string): Promise<void> {
  const now = Math.floor(Date.now() / 1000);
  // The session's first note comes before its commit, so agent blame gives the commit's lines to it.
  await cliOk(['note', '--project', project, '--agent', 'claude-code', '--at', String(now - 600), 'the verified module']);
  fs.writeFileSync(path.join(workspaceDir(), REL), text);
  git(['add', REL]);
  git(['commit', '-q', '-m', 'the verified module'], now - 300);
  const payload = {
    session_id: 's-verify',
    transcript_path: '',
    cwd: workspaceDir(),
    permission_mode: 'default',
    hook_event_name: 'PostToolUse',
    tool_name: 'Bash',
    tool_input: { command: COMMAND, description: 'Check the module is there' },
    tool_use_id: 'toolu_verify',
    tool_response: { stdout: '', stderr: '', interrupted: false, isImage: false },
  };
  const hook = await spawnCli(env('BATON_TEST_CLI'), ['hook', 'claude-code', 'post-tool-use'], {
    vault: vaultDir(),
    cwd: workspaceDir(),
    input: JSON.stringify(payload),
    env: { ELECTRON_RUN_AS_NODE: '1' },
  });
  assert.deepStrictEqual([hook.code, hook.stderr], [0, '']);
  await cliOk(['checkpoint', '--project', project, '--agent', 'claude-code', '--task', TASK, '--verified', CLAIM, '--file', REL]);
}
