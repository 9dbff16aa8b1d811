// The integration tests' own git in the workspace repository and the CLI as
// they run it, failing with the output: set-up and what a test sees, never Baton's.
import * as assert from 'assert';
import { spawnSync } from 'child_process';
import { runCli, workspaceDir } from './baton';

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
