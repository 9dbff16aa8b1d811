// A Verified claim backed by its run, as an agent leaves one: a working note,
// a commit of the file, the run as Claude Code's PostToolUse hook hands it
// over (test/unit/evidence.test.ts has each host's shape) through the built
// CLI, then the checkpoint naming the run. For the editor's tiers that judge
// it (integration's verification.test.ts, restricted/restrictedMode.test.ts).
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { spawnCli } from '../../support/spawnCli';
import { env, vaultDir, workspaceDir } from './baton';
import { cliOk, git } from './workspaceGit';

export { cliOk, git };

export const REL = 'src/verified.ts';
export const COMMAND = 'test -f src/verified.ts';
export const CLAIM = `the verified module is there — ${COMMAND}`;
export const TASK = 'Check the verified module';

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
