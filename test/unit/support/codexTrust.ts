// Trust Baton's Codex hooks as Codex's /hooks screen records it: each hook's
// current hash as `[hooks.state."<key>"] trusted_hash` in ~/.codex/config.toml
// (test/agents/codex.test.ts does the same through the real `codex
// app-server`). For suites that connect Codex and expect a healthy doctor.
import * as fs from 'fs';
import * as path from 'path';
import { codexHookHash } from '../../../src/adapters/agents/codexConfig';

export function trustCodexHooks(home: string): void {
  const hooksFile = path.join(home, '.codex', 'hooks.json');
  const hooks = (JSON.parse(fs.readFileSync(hooksFile, 'utf8')) as { hooks: Record<string, { matcher?: string; hooks: { command: string; timeout?: number }[] }[]> }).hooks;
  const label = (e: string): string => e.replace(/(?<=[a-z0-9])([A-Z])/g, '_$1').toLowerCase();
  const lines: string[] = [];
  for (const [event, groups] of Object.entries(hooks)) {
    groups.forEach((g, gi) =>
      g.hooks.forEach((h, hi) => {
        lines.push(`[hooks.state.${JSON.stringify(`${hooksFile}:${label(event)}:${gi}:${hi}`)}]`, `trusted_hash = "${codexHookHash(event, g.matcher, h)}"`, '');
      }),
    );
  }
  fs.appendFileSync(path.join(home, '.codex', 'config.toml'), '\n' + lines.join('\n'));
}
