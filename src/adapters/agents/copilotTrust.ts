// Does Copilot CLI trust a folder? It runs a folder's own configuration (its
// `.github/hooks`, skills and MCP servers) only there, and keeps the person's
// "Yes, and remember this folder" in `trusted_folders` of its config.json
// (`~/.copilot`, or COPILOT_HOME), a JSON file with `//` comments that it
// rewrites itself; so it is read here, never edited. Measured with 1.0.102 in
// the agents' tier (copilotTrust.test.ts): in a folder not listed no project
// hook runs; listed, they do. COPILOT_ALLOW_ALL, "allow all tools, paths and
// URLs" in its help, is taken as trust too.
import * as path from 'path';
import { parse } from 'jsonc-parser';
import { readForeignUtf8 } from '../foreignFile';
import { folderWithin } from './folderWithin';

export interface CopilotTrust {
  trusted: boolean;
  /** The file the decision is kept in. */
  file: string;
}

export function copilotFolderTrust(home: string, folder: string, env: NodeJS.ProcessEnv): CopilotTrust {
  const file = path.join(env.COPILOT_HOME || path.join(home, '.copilot'), 'config.json');
  if (/^(1|true)$/i.test(env.COPILOT_ALLOW_ALL ?? '')) return { trusted: true, file };
  let listed: unknown;
  try {
    const value: unknown = parse(readForeignUtf8(file) ?? '');
    listed = typeof value === 'object' && value !== null ? (value as Record<string, unknown>).trusted_folders : undefined;
  } catch {
    listed = undefined;
  }
  const trusted = Array.isArray(listed) && listed.some((f) => typeof f === 'string' && f !== '' && folderWithin(f, folder));
  return { trusted, file };
}
