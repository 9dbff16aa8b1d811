// A home folder holding agents' past sessions, for the editor's tiers
// (integration, UI): the transcripts the real CLIs wrote in the agents' tier
// (test/fixtures/transcripts/: Claude Code 2.1.328, Codex 0.169.0, Copilot CLI
// 1.0.102; test/fixtures/import/gemini/: Gemini CLI 0.61.0 with its
// .project_root), each put where its agent keeps it, last written an hour ago
// (a file changed in the last minutes is a running session, which an import
// leaves for later).
import * as fs from 'fs';
import * as path from 'path';

/** The repository's test/fixtures, found upward from here (this file is bundled into out/test/<tier>/ too). */
function fixtures(): string {
  for (let d = __dirname; ; d = path.dirname(d)) {
    const f = path.join(d, 'test', 'fixtures');
    if (fs.existsSync(path.join(f, 'transcripts'))) return f;
    if (path.dirname(d) === d) throw new Error(`no test/fixtures/transcripts above ${__dirname}`);
  }
}

const read = (rel: string): string => fs.readFileSync(path.join(fixtures(), rel), 'utf8');

function put(home: string, rel: string, text: string): void {
  const f = path.join(home, ...rel.split('/'));
  fs.mkdirSync(path.dirname(f), { recursive: true });
  fs.writeFileSync(f, text);
  const hourAgo = new Date(Date.now() - 3600_000);
  fs.utimesSync(f, hourAgo, hourAgo);
}

/** The projects the four sessions ran in (their transcripts' folders), by agent. */
export const PAST_PROJECTS = { 'claude-code': 'claude', codex: 'codex-cart', gemini: 'gemini', copilot: 'shop' } as const;

/** The first request of each, as its checkpoint's task. */
export const PAST_TASKS = {
  'claude-code': 'Round the cart total to cents',
  codex: 'Make the cart total count item quantities.',
  gemini: 'Round the cart total to cents',
  copilot: 'Fix the cart total rounding.',
} as const;

/** One real session of each agent under `home`. */
export function writePastHistory(home: string): void {
  put(home, '.claude/projects/-WORLD-claude/5c163c28-06ca-4809-ae2c-df532c6b92ba.jsonl', read('transcripts/claude-code/compacted.jsonl'));
  put(home, '.codex/sessions/2026/12/02/rollout-2026-12-02T00-29-08-01a23427-b882-7e73-a525-bc20fcc1edb1.jsonl', read('transcripts/codex/codex-0.169.0-session1.jsonl'));
  put(home, '.copilot/session-state/c4fdfb21-77a4-46b2-9123-87134eeae22b/events.jsonl', read('transcripts/copilot/session1.events.jsonl'));
  const gemini = 'import/gemini/tmp/gemini';
  for (const chat of fs.readdirSync(path.join(fixtures(), gemini, 'chats'))) put(home, `.gemini/tmp/gemini/chats/${chat}`, read(`${gemini}/chats/${chat}`));
  put(home, '.gemini/tmp/gemini/.project_root', read(`${gemini}/.project_root`));
}

/**
 * `count` Claude Code sessions of one project (the real new-session
 * transcript, run in /WORLD/<project>), each its own session: Claude Code names
 * a session's file by its id.
 */
export function writeManySessions(home: string, project: string, count: number): void {
  const text = read('transcripts/claude-code/new-session.jsonl').split('/WORLD/claude').join(`/WORLD/${project}`);
  for (let i = 0; i < count; i++) {
    const id = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
    put(home, `.claude/projects/-WORLD-${project}/${id}.jsonl`, text);
  }
}
