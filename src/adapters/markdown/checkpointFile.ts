// Checkpoint, plan and working-note files as they lie in the vault, in the
// format the Go tool Logos also reads and writes. The known keys are written by
// hand, so their order and spelling are exactly the contract's; reading never
// throws, because one torn or hand-mangled file must not hide the good
// checkpoints beside it.
import type { Schema } from 'js-yaml';
import { CORE_SCHEMA, FAILSAFE_SCHEMA, YAML11_SCHEMA, dump, load } from 'js-yaml';
import { fastFrontmatter } from './fastReader';
import { normalizeProse, parseFields, renderBody } from '../../core/checkpointBody';
import type { Checkpoint, Plan } from '../../core/model';
import { emptyFields, emptyGit } from '../../core/model';
import { agentOfId, rootProject } from '../../core/names';
import { day, readTime, rfc3339 } from '../../core/time';

const TITLE_CHARS = 70;

/** `20260814-143207-claude.md`: so `uncommitted.md`, `plan-…`, `zz-notes.md` and temp files are never checkpoints. */
export function isCheckpointFileName(name: string): boolean {
  return /^[0-9]{8}-[\s\S]*\.md$/.test(name);
}

// ---- writing YAML scalars ----------------------------------------------------

// Characters no YAML stream may carry raw (and line separators some readers
// would break on): written as escapes inside double quotes.
function unprintable(cp: number): boolean {
  return (
    (cp < 0x20 && cp !== 0x09 && cp !== 0x0a && cp !== 0x0d) ||
    (cp >= 0x7f && cp <= 0x9f) ||
    cp === 0x2028 ||
    cp === 0x2029 ||
    cp === 0xfeff ||
    (cp >= 0xd800 && cp <= 0xdfff) ||
    cp === 0xfffe ||
    cp === 0xffff
  );
}
const hasUnprintable = (s: string): boolean => Array.from(s).some((ch) => unprintable(ch.codePointAt(0) ?? 0));
const LOOKS_TYPED = /^(?:[-+]?\.?[0-9]|[-+]?\.(?:inf|nan)$|(?:true|false|yes|no|on|off|y|n|null|~|=|<<)$)/i;

/**
 * Whether a string may be written plain. Conservative on purpose: anything a
 * YAML 1.1 or 1.2 reader (Go's yaml, js-yaml, Obsidian) might take for a
 * number, bool, null, date, comment or indicator is quoted; then js-yaml is
 * asked to confirm the plain form reads back as this very string.
 */
function isPlain(s: string): boolean {
  if (s === '' || s !== s.trim() || hasUnprintable(s) || /[\n\r\t]/.test(s)) return false;
  // Checkpoint ids start with digits but hold letters, so no YAML reader takes
  // them for a number or a date; writing them plain matches what Logos writes.
  if (/^\d{8}-\d{6}-[\p{L}\p{N}-]*\p{L}[\p{L}\p{N}-]*$/u.test(s)) return true;
  if (/^[-?:,[\]{}#&*!|>'"%@`]/.test(s) || LOOKS_TYPED.test(s)) return false;
  if (s.includes(': ') || s.includes(' #') || s.endsWith(':')) return false;
  try {
    return [CORE_SCHEMA, YAML11_SCHEMA].every((schema) => (load(`k: ${s}\n`, { schema }) as { k?: unknown }).k === s);
  } catch {
    return false;
  }
}

const hex4 = (cp: number): string => `\\u${cp.toString(16).toUpperCase().padStart(4, '0')}`;

/** A JSON-style double-quoted scalar; escapes keep it one line and printable. */
function quoted(s: string): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0) ?? 0;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\r') out += '\\r';
    else if (cp < 0x20 || unprintable(cp)) out += hex4(cp);
    else out += ch;
  }
  return `${out}"`;
}

const scalar = (s: string): string => (isPlain(s) ? s : quoted(s));

/** Whole code points, so an emoji or a surrogate pair is never cut in half. */
function cutChars(s: string, max: number): string {
  const chars = Array.from(s);
  return chars.length > max ? `${chars.slice(0, max).join('')}…` : s;
}

const collapse = (s: string): string => s.replace(/\s+/g, ' ').trim();

/** `<project> — <text>`, one line, the text cut to 70 characters (+ `…` only when cut). */
function title(project: string, text: string): string {
  return `${project} — ${cutChars(collapse(text), TITLE_CHARS)}`;
}

const relation = (pred: string, obj: string): string => `  - { pred: ${pred}, obj: ${quoted(`[[${obj}]]`)}, conf: 1.0, src: stated }`;

// ---- frontmatter keys ----------------------------------------------------------

/** Keys the model carries (or derives); everything else is kept in `extra`. */
const MODELLED = new Set([
  'type',
  'title',
  'project',
  'agent',
  'session',
  'handoff_to',
  'auto_closed',
  'branch',
  'commit',
  'commit_subject',
  'uncommitted',
  'uncommitted_unreadable',
  'worktree',
  'touched',
  'relations',
  'first_seen',
  'checkpointed',
  'planned',
]);

/**
 * Baton's own keys and unknown ones kept from reading, dumped by js-yaml. A key
 * the hand-written part already wrote is skipped (a duplicate key would make
 * the whole frontmatter unreadable), and so is any value that cannot be dumped
 * or whose YAML would put a document marker at the start of a line.
 */
function extraLines(extra: Record<string, unknown>): string {
  let out = '';
  for (const key of Object.keys(extra)) {
    const value = extra[key];
    if (MODELLED.has(key) || key === '__proto__' || value === undefined) continue;
    try {
      const text = dump({ [key]: value }, { lineWidth: -1, skipInvalid: true });
      if (text.startsWith('{}') || /^(?:---|\.\.\.)(?:[ \t]|$)/m.test(text)) continue;
      out += text.endsWith('\n') ? text : `${text}\n`;
    } catch {
      // A value js-yaml cannot represent (a cycle, a BigInt) is not worth a lost checkpoint.
    }
  }
  return out;
}

function frontmatter(lines: string[], extra: Record<string, unknown> = {}): string {
  return `---\n${lines.join('\n')}\n${extraLines(extra)}---\n`;
}

/**
 * The whole file: frontmatter in the contract's key order (a key only when it
 * has a value), a blank line, the body; ending in exactly one newline.
 * Secrets are not masked here: the core masks before it asks for a write.
 */
export function renderCheckpoint(cp: Checkpoint): string {
  const git = cp.git ?? emptyGit();
  const l: string[] = ['type: checkpoint'];
  const put = (key: string, value: string | undefined): void => {
    if (value) l.push(`${key}: ${scalar(value)}`);
  };
  l.push(`title: ${scalar(title(cp.project, cp.task.trim() ? cp.task : cp.next.trim() ? cp.next : 'checkpoint'))}`);
  put('project', cp.project);
  put('agent', cp.agent);
  put('session', cp.session);
  put('handoff_to', cp.handoffTo);
  if (cp.autoClosed) l.push('auto_closed: true');
  put('branch', git.branch);
  put('commit', git.commit);
  put('commit_subject', git.subject);
  if (git.dirty > 0) l.push(`uncommitted: ${Math.floor(git.dirty)}`);
  if (git.unreadable) l.push('uncommitted_unreadable: true');
  put('worktree', git.worktree);
  const touched = (git.files ?? []).filter((f) => f !== '');
  if (touched.length) l.push('touched:', ...touched.map((f) => `  - ${scalar(f)}`));
  const root = rootProject(cp.project);
  if (root || cp.follows) {
    l.push('relations:');
    if (root) l.push(relation('checkpoint_of', root));
    if (cp.follows) l.push(relation('follows', cp.follows));
  }
  if (cp.ts > 0) l.push(`first_seen: ${day(cp.ts)}`, `checkpointed: ${rfc3339(cp.ts)}`);
  const body = renderBody(cp);
  return frontmatter(l, cp.extra) + (body ? `\n${body}` : '');
}

// ---- reading -------------------------------------------------------------------

interface Front {
  /** Values as YAML 1.2 core types: booleans, numbers, strings. */
  typed: Record<string, unknown>;
  /** The same keys with every scalar as the string written (a sha `0123456` stays a string). */
  raw: Record<string, unknown>;
  body: string;
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function loadRecord(yaml: string, schema: Schema): Record<string, unknown> {
  const v = load(yaml, { schema, maxAliases: 100, maxDepth: 50 });
  return isRecord(v) ? v : {};
}

/**
 * The frontmatter of a file in the shape Baton and Logos write, read by hand
 * (about a tenth of the cost of js-yaml's two loads); anything else goes to
 * the real parser. `test/unit/parseCheckpoint.test.ts` pins the two together.
 */
function splitFile(text: string): Front {
  const f = fastFrontmatter(text);
  return f ? { typed: f.typed, raw: f.raw, body: text.slice(f.bodyStart) } : splitFileSlow(text);
}

/**
 * Frontmatter is only what lies between a leading `---` line and the next
 * `---` line (a torn file with no closing line offers all it has). Broken
 * YAML gives empty frontmatter; the body is read all the same.
 */
function splitFileSlow(text: string): Front {
  const { yaml, body } = frontText(text);
  if (yaml === null) return { typed: {}, raw: {}, body };
  try {
    return { typed: loadRecord(yaml, CORE_SCHEMA), raw: loadRecord(yaml, FAILSAFE_SCHEMA), body };
  } catch {
    return { typed: {}, raw: {}, body };
  }
}

/** The frontmatter's text (null without a leading `---` line) and the body, as both splits take them: no YAML read. */
function frontText(text: string): { yaml: string | null; body: string } {
  const src = text.replace(/^\ufeff/, '').replace(/\r+\n/g, '\n');
  const lines = src.split('\n');
  if (lines[0]?.trimEnd() !== '---') return { yaml: null, body: src };
  const close = lines.findIndex((line, i) => i > 0 && line.trimEnd() === '---');
  return { yaml: lines.slice(1, close < 0 ? undefined : close).join('\n'), body: close < 0 ? '' : lines.slice(close + 1).join('\n') };
}

function reader(f: Front) {
  const text = (key: string): string => {
    const r = f.raw[key];
    if (typeof r === 'string') return r;
    const t = f.typed[key];
    return typeof t === 'string' || typeof t === 'number' || typeof t === 'boolean' ? String(t) : '';
  };
  const flag = (key: string): boolean => f.typed[key] === true || /^(?:true|yes|on)$/i.test(text(key).trim());
  const count = (key: string): number => {
    const t = f.typed[key];
    const n = typeof t === 'number' ? t : /^\s*\d+\s*$/.test(text(key)) ? Number(text(key)) : 0;
    return Number.isFinite(n) && n > 0 ? Math.floor(n) : 0;
  };
  const list = (key: string): string[] => {
    const r = f.raw[key];
    if (typeof r === 'string') return r ? [r] : [];
    return Array.isArray(r) ? r.filter((i): i is string => typeof i === 'string' && i !== '') : [];
  };
  const time = (...keys: string[]): number => {
    for (const k of keys) {
      const ts = readTime(f.typed[k]);
      if (ts > 0) return ts;
    }
    return 0;
  };
  const related = (pred: string): string => {
    const rels = Array.isArray(f.raw.relations) ? f.raw.relations : [];
    for (const r of rels) {
      if (isRecord(r) && r.pred === pred && typeof r.obj === 'string') {
        return r.obj
          .trim()
          .replace(/^\[\[([\s\S]*)\]\]$/, '$1')
          .trim();
      }
    }
    return '';
  };
  const extra = (): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(f.typed)) {
      if (MODELLED.has(k) || k === '__proto__') continue;
      out[k] = v;
    }
    return out;
  };
  return { text, flag, count, list, time, related, extra };
}

function bare(id: string, scope: string): Checkpoint {
  return {
    ...emptyFields(),
    session: id,
    project: scope,
    agent: agentOfId(id),
    handoffTo: '',
    autoClosed: false,
    git: emptyGit(),
    ts: 0,
    follows: '',
    extra: {},
    slug: `sessions/${scope}/${id}`,
  };
}

/**
 * Reads a checkpoint file; never throws. The id is the file name, whatever the
 * frontmatter's `session` says (the name is what was claimed exclusively).
 * The time is `checkpointed`, else `first_seen`, else 0. Keys the model does
 * not carry (Baton's `agent_session`, `transcript`, `capture`, `folded`, and
 * any unknown) are kept in `extra`, so re-rendering loses none of them.
 */
export function parseCheckpoint(text: string, id: string, scope: string): Checkpoint {
  return readCheckpoint(text, id, scope, splitFile);
}

/** Only a checkpoint's body fields (what search shows a snippet of), as `parseCheckpoint` reads them, without its frontmatter's model. */
export function parseCheckpointFields(text: string): ReturnType<typeof parseFields> {
  try {
    // The body is where both splits put it whatever the YAML says: a search hit's snippet never reads the frontmatter.
    return parseFields(frontText(typeof text === 'string' ? text : '').body);
  } catch {
    return emptyFields();
  }
}

/** `parseCheckpoint` through js-yaml alone: the reference the fast readers are pinned to, and their fallback. */
export function parseCheckpointSlow(text: string, id: string, scope: string): Checkpoint {
  return readCheckpoint(text, id, scope, splitFileSlow);
}

function readCheckpoint(text: string, id: string, scope: string, split: (text: string) => Front): Checkpoint {
  try {
    const f = split(typeof text === 'string' ? text : '');
    const r = reader(f);
    const cp = bare(id, scope);
    return {
      ...cp,
      ...parseFields(f.body),
      project: r.text('project') || scope,
      agent: r.text('agent') || cp.agent,
      handoffTo: r.text('handoff_to'),
      autoClosed: r.flag('auto_closed'),
      git: {
        branch: r.text('branch'),
        commit: r.text('commit'),
        subject: r.text('commit_subject'),
        dirty: r.count('uncommitted'),
        unreadable: r.flag('uncommitted_unreadable'),
        files: r.list('touched'),
        worktree: r.text('worktree'),
      },
      ts: r.time('checkpointed', 'first_seen'),
      follows: r.related('follows'),
      extra: r.extra(),
    };
  } catch {
    return bare(id, scope);
  }
}

// ---- plans -------------------------------------------------------------------

/** A plan file: frontmatter per the contract, then the plan text (CRLF → LF, outer blank lines trimmed). */
export function renderPlan(p: { project: string; agent: string; ts: number; text: string }): string {
  const l = ['type: plan', `title: ${scalar(title(p.project, p.text))}`];
  if (p.project) l.push(`project: ${scalar(p.project)}`);
  if (p.agent) l.push(`agent: ${scalar(p.agent)}`);
  const root = rootProject(p.project);
  if (root) l.push('relations:', relation('plan_of', root));
  if (p.ts > 0) l.push(`first_seen: ${day(p.ts)}`, `planned: ${rfc3339(p.ts)}`);
  const text = normalizeProse(p.text);
  return frontmatter(l) + (text ? `\n${text}\n` : '');
}

/** Reads a plan file; never throws. */
export function parsePlan(text: string, id: string, scope: string): Plan {
  const slug = `sessions/${scope}/plans/${id}`;
  try {
    const f = splitFile(typeof text === 'string' ? text : '');
    const r = reader(f);
    const body = normalizeProse(f.body);
    const project = r.text('project') || scope;
    return {
      slug,
      project,
      agent: r.text('agent') || agentOfId(id),
      ts: r.time('planned', 'first_seen'),
      title: r.text('title') || title(project, body),
      text: body,
    };
  } catch {
    return { slug, project: scope, agent: agentOfId(id), ts: 0, title: '', text: '' };
  }
}
