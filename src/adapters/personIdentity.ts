// Who the person at this machine is, as their own tools already say: git's
// `user.name` (the name on their commits) and the operating system's login.
// Read, never written; an absent git, config or user is "".
import { execFileSync } from 'child_process';
import * as os from 'os';

/** `git config --get user.name` as git resolves it from `cwd` (the repository's, else the person's global config); "" when unset or no git. */
export function gitUserName(cwd: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  try {
    return execFileSync('git', ['config', '--get', 'user.name'], { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 3000 }).trim();
  } catch {
    return '';
  }
}

/** The login name; "" where the system has none for this uid (a container's). */
export function osUserName(): string {
  try {
    return os.userInfo().username;
  } catch {
    return '';
  }
}
