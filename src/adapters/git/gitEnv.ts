// The environment every git Baton runs gets, apart from simple-git so that a
// hook (dist/hook.js) can start git without loading simple-git.

// Set when Baton runs inside a git hook or under a tool that exported them;
// they would make git describe some other repository or index than `dir`'s.
const REDIRECTING_VARS = [
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_INDEX_FILE',
  'GIT_COMMON_DIR',
  'GIT_OBJECT_DIRECTORY',
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_NAMESPACE',
  'GIT_PREFIX',
];

// Programs git may be told to start. No read-only command here uses them, and
// simple-git refuses to spawn at all while they are set (the VS Code terminal
// sets GIT_ASKPASS, npm exports EDITOR to every script), so they are left out rather
// than allowed.
const PROGRAM_VARS = [
  'EDITOR',
  'GIT_EDITOR',
  'GIT_SEQUENCE_EDITOR',
  'PAGER',
  'GIT_PAGER',
  'GIT_ASKPASS',
  'SSH_ASKPASS',
  'GIT_SSH',
  'GIT_SSH_COMMAND',
  'GIT_PROXY_COMMAND',
  'GIT_EXTERNAL_DIFF',
  'GIT_TEMPLATE_DIR',
  'PREFIX',
];

const DROPPED_VARS = new Set([...REDIRECTING_VARS, ...PROGRAM_VARS]);

/**
 * The environment git runs with, built from `process.env` at each call (so a
 * changed PATH is honoured: "git is missing" is detected, not cached).
 * `LC_ALL=C` because "not a git repository" is recognised by its message, which
 * a translated git would change. `GIT_OPTIONAL_LOCKS=0` so a background status
 * never takes `index.lock` and makes the person's own `git commit` fail.
 */
export function gitEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !DROPPED_VARS.has(key.toUpperCase())) env[key] = value;
  }
  env.LC_ALL = 'C';
  env.GIT_OPTIONAL_LOCKS = '0';
  return env;
}
