// The agent name of a person's own writes when `baton.agentName` is unset
// (core/names.ts personAgentName): their git user.name, else their login.
import * as os from 'os';
import { personAgentName } from '../core/names';
import { gitUserName, osUserName } from '../adapters/personIdentity';

let cached: string | undefined;

/**
 * Asked once per process: git runs a process, and the name does not change
 * while the editor runs. Git is asked from the home folder, never a
 * workspace's repository (an untrusted one runs no git of Baton's), so the
 * person's global name answers.
 */
export function personName(env: NodeJS.ProcessEnv = process.env, home: string = env.HOME || os.homedir()): string {
  cached ??= personAgentName(gitUserName(home, env), osUserName());
  return cached;
}

/** The name as it stands now, not the one remembered: for tests and for a person who just set their git name. */
export function personNameNow(env: NodeJS.ProcessEnv = process.env, home: string = env.HOME || os.homedir()): string {
  cached = undefined;
  return personName(env, home);
}
