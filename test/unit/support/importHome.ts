// A temporary home holding the transcripts the real CLIs wrote in the agents'
// tier (test/fixtures/transcripts/: Claude Code 2.1.328, Codex 0.169.0, Gemini
// CLI 0.61.0, Copilot CLI 1.0.102), each put where its agent keeps it, and
// `baton import` run over it through the CLI's handler in this process (its
// flags parsed as the CLI parses them: run.ts loads the handler with a dynamic
// import, which mocha's loader does not resolve from source).
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { parse } from '../../../src/cli/args';
import { COMMANDS } from '../../../src/cli/commands';
import { Context } from '../../../src/cli/context';
import { importPast } from '../../../src/cli/importCommand';
import { BatonError } from '../../../src/core/errors';
import { tempDir } from './tempVault';

export const FIX = path.resolve(__dirname, '../../fixtures/transcripts');
export const CLAUDE_ID = '5c163c28-06ca-4809-ae2c-df532c6b92ba';
export const CODEX_ID = '01a23427-b882-7e73-a525-bc20fcc1edb1';
export const GEMINI_ID = '4c1c2260-86fd-49bc-a285-fd2fb09a14e6';
export const COPILOT_ID = 'c4fdfb21-77a4-46b2-9123-87134eeae22b';

export const CLAUDE_FILE = `.claude/projects/-WORLD-claude/${CLAUDE_ID}.jsonl`;
export const CODEX_FILE = `.codex/sessions/2026/12/02/rollout-2026-12-02T00-29-08-${CODEX_ID}.jsonl`;
export const GEMINI_FILE = `.gemini/tmp/gemini/chats/session-2026-12-02T00-14-4c1c2260.jsonl`;
export const COPILOT_FILE = `.copilot/session-state/${COPILOT_ID}/events.jsonl`;

export interface Home {
  home: string;
  vault: string;
  /** The CLI's environment (a test may add to it). */
  env: Record<string, string | undefined>;
  put(rel: string, text: string): string;
  /** `baton import ARGS…`; a usage error is exit 2, as the CLI exits. */
  baton(...args: string[]): Promise<{ code: number; out: string; err: string }>;
  vaultFiles(): Map<string, string>;
}

export function makeHome(): Home {
  const home = tempDir('baton-import-');
  const vault = path.join(home, 'vault');
  const put = (rel: string, text: string): string => {
    const f = path.join(home, rel);
    fs.mkdirSync(path.dirname(f), { recursive: true });
    fs.writeFileSync(f, text);
    // A past session: its agent stopped writing it an hour ago (a fresh file is a running session, left for later).
    const hourAgo = new Date(Date.now() - 3600_000);
    fs.utimesSync(f, hourAgo, hourAgo);
    return f;
  };
  const env: Record<string, string | undefined> = { HOME: home, BATON_VAULT: vault, PATH: process.env.PATH };
  return {
    home,
    vault,
    env,
    put,
    baton: async (...args) => {
      let out = '';
      let err = '';
      const io = {
        cwd: home,
        env,
        out: (t: string) => void (out += t),
        err: (t: string) => void (err += t),
        stdin: async () => '',
      };
      try {
        const code = await importPast(new Context(io, vault), parse(COMMANDS.import, args, 'usage'));
        return { code, out, err };
      } catch (e) {
        if (e instanceof BatonError && e.kind === 'usage') return { code: 2, out, err: e.message };
        throw e;
      }
    },
    vaultFiles: () => {
      const out = new Map<string, string>();
      const walk = (dir: string): void => {
        for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
          const f = path.join(dir, e.name);
          // The index is a cache; the record is everything else.
          if (e.isDirectory() && e.name !== '.baton') walk(f);
          else if (e.isFile()) out.set(path.relative(vault, f), fs.readFileSync(f, 'latin1'));
        }
      };
      walk(vault);
      return out;
    },
  };
}

export const fixture = (rel: string): string => fs.readFileSync(path.join(FIX, rel), 'utf8');

/** The four real sessions, one per agent, where each agent keeps them. */
export function realHistory(h: Home): void {
  h.put(CLAUDE_FILE, fixture('claude-code/compacted.jsonl'));
  h.put(CODEX_FILE, fixture('codex/codex-0.169.0-session1.jsonl'));
  h.put(GEMINI_FILE, fixture('gemini/resumed-and-compressed.jsonl'));
  h.put(COPILOT_FILE, fixture('copilot/session1.events.jsonl'));
}

export interface Report {
  imported: number;
  dryRun: boolean;
  skipped: { source: string; reason: string }[];
  checkpoints: { agent: string; project: string; session: string; slug: string; source: string; agentSession: string }[];
}

export async function importJson(h: Home, ...args: string[]): Promise<Report> {
  const r = await h.baton(...args, '--json');
  assert.equal(r.code, 0, r.err);
  return JSON.parse(r.out) as Report;
}

export const checkpointFile = (h: Home, c: Report['checkpoints'][number]): string => fs.readFileSync(path.join(h.vault, `${c.slug}.md`), 'utf8');
