// Session notes kept by basic-memory (a markdown knowledge base agents write
// through their own MCP server) shown beside Baton's checkpoints. Only notes
// whose frontmatter `type` is `session` or `coding_session` are read, their
// observations mapped onto checkpoint fields. Read-only: the folder belongs to
// basic-memory, and Baton never writes, renames or locks anything in it.
import * as fs from 'fs';
import * as path from 'path';
import { load } from 'js-yaml';
import type { Checkpoint, Touch } from '../core/model';
import { emptyFields, emptyGit } from '../core/model';
import { safe, safeScope } from '../core/names';
import { readTime } from '../core/time';
import { pathsMatch } from '../core/touching';

export const ORIGIN = 'basic-memory';
const SESSION_TYPES = new Set(['session', 'coding_session']);
// A knowledge base can be large and anything can be dropped in it: bounded so
// `why` stays quick and one huge file cannot stall it.
const MAX_FILES = 20_000;
const MAX_BYTES = 1 << 20;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `- [category] content #tag (context)`, anywhere in the body, as basic-memory's own parser finds them. */
const OBSERVATION = /^\s*[-*+]\s+\[([^\]\n]+)\]\s+(.+?)\s*$/;

function observations(body: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  let fenced = false;
  for (const line of body.split(/\r?\n/)) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced) continue;
    const m = OBSERVATION.exec(line);
    if (!m) continue;
    const category = m[1]
      .trim()
      .toLowerCase()
      .replace(/[\s-]+/g, '_');
    const list = out.get(category) ?? [];
    list.push(m[2]);
    out.set(category, list);
  }
  return out;
}

/** A changed_file observation names a path; its tags and `(context)` are not part of it. */
const bareFile = (s: string): string =>
  s
    .replace(/(\s+#[\w/-]+)+\s*$/, '')
    .replace(/\s+\([^)]*\)\s*$/, '')
    .trim();

function splitFrontmatter(text: string): { front: Json; body: string } {
  const m = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  if (!m) return { front: {}, body: text };
  let front: unknown;
  try {
    front = load(m[1]);
  } catch {
    front = {};
  }
  return { front: isObject(front) ? front : {}, body: text.slice(m[0].length) };
}

const str = (v: unknown): string => (typeof v === 'string' ? v.trim() : v instanceof Date ? v.toISOString() : typeof v === 'number' ? String(v) : '');

/**
 * One basic-memory note as a checkpoint-shaped record marked
 * `extra.origin: basic-memory`, or null when it is not a session note.
 * summary → task, context → state, next_step → next, decision → decisions,
 * problem → blockers, changed_file → files. The session is the note's
 * permalink (else its path); its time is `ended`, else `started`, else the
 * file's modification time.
 */
export function parseBasicMemorySession(text: string, relPath: string, mtime = 0): Checkpoint | null {
  const { front, body } = splitFrontmatter(text);
  if (!SESSION_TYPES.has(str(front.type).toLowerCase())) return null;
  const obs = observations(body);
  const get = (k: string): string[] => obs.get(k) ?? [];
  const slugPath = relPath.replace(/\\/g, '/').replace(/\.md$/i, '');
  let project: string;
  try {
    project = safeScope(str(front.project) || (str(front.cwd) ? path.basename(str(front.cwd)) : ''));
  } catch {
    project = ORIGIN;
  }
  const extra: Json = { origin: ORIGIN, path: relPath };
  for (const [from, to] of [
    ['claude_session_id', 'agent_session'],
    ['cwd', 'cwd'],
    ['capture', 'capture'],
    ['status', 'status'],
    ['started', 'started'],
    ['ended', 'ended'],
    ['title', 'title'],
  ]) {
    const v = str(front[from]);
    if (v) extra[to] = v;
  }
  return {
    ...emptyFields(),
    task: get('summary').join(' '),
    state: get('context').join('\n'),
    next: get('next_step').join('\n'),
    decisions: get('decision'),
    blockers: get('problem'),
    files: get('changed_file').map(bareFile).filter(Boolean),
    session: str(front.permalink) || slugPath,
    project,
    agent: safe(str(front.agent)) || (str(front.claude_session_id) ? 'claude-code' : ORIGIN),
    handoffTo: '',
    autoClosed: false,
    git: emptyGit(),
    ts: readTime(front.ended) || readTime(front.started) || mtime,
    follows: '',
    extra,
    slug: `${ORIGIN}/${slugPath}`,
  };
}

function* markdownFiles(root: string): Generator<string> {
  const stack = [root];
  while (stack.length) {
    const dir = stack.pop() as string;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries) {
      if (e.name.startsWith('.')) continue;
      const full = path.join(dir, e.name);
      // Symlinks are not followed: a link out of the folder must not widen what is read.
      if (e.isDirectory()) stack.push(full);
      else if (e.isFile() && e.name.toLowerCase().endsWith('.md')) yield full;
    }
  }
}

/** Every session note under `dir`, newest first; unreadable, oversized and non-session files are skipped. */
export function readBasicMemorySessions(dir: string): Checkpoint[] {
  const out: Checkpoint[] = [];
  let seen = 0;
  for (const file of markdownFiles(dir)) {
    if (++seen > MAX_FILES) break;
    try {
      const st = fs.statSync(file);
      if (st.size > MAX_BYTES) continue;
      const cp = parseBasicMemorySession(fs.readFileSync(file, 'utf8'), path.relative(dir, file), Math.floor(st.mtimeMs / 1000));
      if (cp) out.push(cp);
    } catch {
      // unreadable: skipped, like any file a reader cannot parse
    }
  }
  return out.sort((a, b) => b.ts - a.ts || (a.slug < b.slug ? 1 : -1));
}

export interface OriginTouch extends Touch {
  origin: 'baton' | typeof ORIGIN;
}

/** The session notes whose changed_file observations name `file`, by the same matching rules as Baton's `why`. */
export function basicMemoryTouches(sessions: readonly Checkpoint[], file: string): OriginTouch[] {
  const out: OriginTouch[] = [];
  for (const s of sessions) {
    const matched = s.files.find((f) => pathsMatch(f, file));
    if (matched) out.push({ session: s.session, project: s.project, agent: s.agent, task: s.task, matched, ts: s.ts, slug: s.slug, origin: ORIGIN });
  }
  return out;
}

/** Baton's touches and basic-memory's, each marked with its origin, newest first, cut to `limit`. */
export function mergeTouches(baton: readonly Touch[], basicMemory: readonly OriginTouch[], limit: number): OriginTouch[] {
  return [...baton.map((t) => ({ ...t, origin: 'baton' as const })), ...basicMemory].sort((a, b) => b.ts - a.ts).slice(0, Math.max(0, limit));
}
