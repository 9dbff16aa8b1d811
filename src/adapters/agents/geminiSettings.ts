// What Gemini CLI's own files decide for Baton: the compression threshold its
// PreCompress hook needs to tell a real compression from a check, and whether
// it trusts a folder (it turns off every MCP server in one it does not).
// Read from the pinned @google/gemini-cli 0.61.0 bundle (bundle/chunk-*.js),
// which the agents' tier runs:
// - Settings files, lowest precedence first: ~/.gemini/settings.json (the home
//   is GEMINI_CLI_HOME when set), the workspace's .gemini/settings.json, the
//   system's /etc/gemini-cli/settings.json (GEMINI_CLI_SYSTEM_SETTINGS_PATH);
//   JSON with comments (strip-json-comments). Storage, loadSettings.
// - `model.compressionThreshold`, a fraction of the model's token limit,
//   DEFAULT_COMPRESSION_TOKEN_THRESHOLD 0.5 when unset (a remote experiment may
//   set it for Google-login users; Baton cannot see that one).
// - Token limits: 256,000 for gemma-4-31b-it and gemma-4-26b-a4b-it, else
//   1,048,576 (tokenLimits.js).
// - Folder trust: `security.folderTrust.enabled`, default true in 0.61.0
//   (isFolderTrustEnabled; docs/cli/trusted-folders.md still says false);
//   decisions in ~/.gemini/trustedFolders.json (GEMINI_CLI_TRUSTED_FOLDERS_PATH)
//   as {path: TRUST_FOLDER|TRUST_PARENT|DO_NOT_TRUST}, the longest matching
//   path deciding, TRUST_PARENT standing for its path's parent (trust.js,
//   LoadedTrustedFolders.isPathTrusted); GEMINI_CLI_TRUST_WORKSPACE=true (what
//   --skip-trust sets) trusts any folder, =false none.
import * as path from 'path';
import { parse } from 'jsonc-parser';
import { readForeignUtf8 } from '../foreignFile';
import { folderWithin } from './folderWithin';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export const DEFAULT_COMPRESSION_THRESHOLD = 0.5;

/** Where Gemini CLI keeps its user files: GEMINI_CLI_HOME, else the home folder. */
export const geminiHome = (home: string, env: NodeJS.ProcessEnv): string => env.GEMINI_CLI_HOME || home;

function readSettings(file: string): Json {
  try {
    // A workspace's settings are the repository's: read only when a regular file of bounded size (foreignFile.ts).
    const value: unknown = parse(readForeignUtf8(file) ?? '');
    return isObject(value) ? value : {};
  } catch {
    return {};
  }
}

const at = (o: Json, keys: string[]): unknown => keys.reduce<unknown>((v, k) => (isObject(v) ? v[k] : undefined), o);

/** A setting as Gemini CLI merges it: the system's file over the workspace's (when given) over the user's. */
function setting(home: string, workspace: string | null, env: NodeJS.ProcessEnv, keys: string[]): unknown {
  const files = [
    path.join(geminiHome(home, env), '.gemini', 'settings.json'),
    ...(workspace ? [path.join(workspace, '.gemini', 'settings.json')] : []),
    env.GEMINI_CLI_SYSTEM_SETTINGS_PATH || '/etc/gemini-cli/settings.json',
  ];
  let found: unknown;
  for (const f of files) {
    const v = at(readSettings(f), keys);
    if (v !== undefined) found = v;
  }
  return found;
}

/** The fraction of the token limit at which Gemini CLI compresses its chat, as its settings say. */
export function geminiCompressionThreshold(home: string, workspace: string, env: NodeJS.ProcessEnv): number {
  const v = setting(home, workspace, env, ['model', 'compressionThreshold']);
  // Gemini reads the setting only when truthy (`if (this.compressionThreshold)`): 0 is the default.
  return typeof v === 'number' && v > 0 ? v : DEFAULT_COMPRESSION_THRESHOLD;
}

/** The model's context window as Gemini CLI counts it. */
export const geminiTokenLimit = (model: string): number => (model === 'gemma-4-31b-it' || model === 'gemma-4-26b-a4b-it' ? 256_000 : 1_048_576);

export interface GeminiTrust {
  /** False when the person turned folder trust off: every folder is then trusted. */
  enabled: boolean;
  /** true, false (DO_NOT_TRUST), or undefined: never decided (Gemini asks at start, and `gemini -p` stops). */
  trusted: boolean | undefined;
  /** The trusted folders file Gemini CLI reads. */
  file: string;
}

/** Does Gemini CLI trust `folder`, as its settings and trusted folders file say (environment variables of this process included)? */
export function geminiFolderTrust(home: string, folder: string, env: NodeJS.ProcessEnv): GeminiTrust {
  const file = env.GEMINI_CLI_TRUSTED_FOLDERS_PATH || path.join(geminiHome(home, env), '.gemini', 'trustedFolders.json');
  // Trust is a user or system setting: a workspace cannot vouch for itself.
  const enabled = setting(home, null, env, ['security', 'folderTrust', 'enabled']) !== false;
  if (env.GEMINI_RESTRICTED_MODE === 'true' || env.GEMINI_CLI_TRUST_WORKSPACE === 'false') return { enabled, trusted: false, file };
  if (env.GEMINI_CLI_TRUST_WORKSPACE === 'true' || !enabled) return { enabled, trusted: true, file };
  const rules = readSettings(file);
  let best = -1;
  let level: unknown;
  for (const [rule, value] of Object.entries(rules)) {
    const dir = value === 'TRUST_PARENT' ? path.dirname(rule) : rule;
    if (folderWithin(dir, folder) && rule.length > best) {
      best = rule.length;
      level = value;
    }
  }
  const trusted = level === 'DO_NOT_TRUST' ? false : level === 'TRUST_FOLDER' || level === 'TRUST_PARENT' ? true : undefined;
  return { enabled, trusted, file };
}
