// Reads a checkpoint's body with the same rules as the core's `parseBody`
// (checkpointBody.ts; `oneLine`, `normalizeItems` and `normalizeProse` are
// copied from there), but only for what the index keeps: Task, Next, the Files
// and Didn't work items, and whether the rest says anything at all. It skips
// the normalisation of State and Intent prose, which is most of a body.
//
// Self-contained on purpose, like fastReader.ts: its source also runs in a
// worker thread (index/parallelRead.ts). `test/unit/indexRecord.test.ts`
// compares it with parseBody.

export interface BodyFacts {
  task: string;
  next: string;
  files: string[];
  failed: string[];
  /** State, Decisions, Verified, Blockers or Open questions says something. */
  says: boolean;
}

export interface BodyReader {
  bodyFacts(body: string): BodyFacts;
}

export function bodyReader(): BodyReader {
  // ---- from checkpointBody.ts ----
  const oneLine = (s: string): string => s.replace(/[\t\n\v\f\r\u0085\u2028\u2029]+/g, ' ').trim();
  const normalizeItems = (items: readonly string[]): string[] => items.map(oneLine).filter((i) => i !== '');
  const normalizeProse = (s: string): string => s.replace(/\r+\n/g, '\n').replace(/^(?:[^\S\n]*\n)+/, '').trimEnd();

  // These mirror checkpointBody.ts exactly (the test compares the two).
  const HEADING = /^##[ \t]+(.*)$/;
  const BULLET = /^[ \t]*[-*+](?:[ \t]+(.*))?$/;
  const headingKey = (h: string): string =>
    h
      .replace(/[ \t]+#+[ \t]*$/, '')
      .trim()
      .toLowerCase()
      .replace(/[\u2018\u2019`]/g, "'")
      .replace(/\s+/g, ' ');
  const unescapeProse = (text: string): string => text.replace(/^([ \t]*)\\(\\*#)/gm, '$1$2');

  /** What each known heading is to the index: prose it keeps, items it keeps, or only "does it say anything". */
  type Role = 'task' | 'next' | 'files' | 'failed' | 'prose' | 'items' | 'ignored';
  const ROLES = new Map<string, Role>([
    ['task', 'task'],
    ['intent', 'ignored'],
    ['state', 'prose'],
    ['decisions', 'items'],
    ["didn't work", 'failed'],
    ['verified', 'items'],
    ['blockers', 'items'],
    ['commands run', 'ignored'],
    ['open questions', 'items'],
    ['files', 'files'],
    ['next', 'next'],
  ]);

  /** The headings as Baton writes them, recognised without normalising. */
  const EXACT = new Map<string, Role>([
    ['Task', 'task'],
    ['Intent', 'ignored'],
    ['State', 'prose'],
    ['Decisions', 'items'],
    ["Didn't work", 'failed'],
    ['Verified', 'items'],
    ['Blockers', 'items'],
    ['Commands run', 'ignored'],
    ['Open questions', 'items'],
    ['Files', 'files'],
    ['Next', 'next'],
  ]);

  /** Bullet lines become items; an indented plain line continues the item above it. */
  function readItems(lines: string[]): string[] {
    const items: string[] = [];
    let open = false;
    for (const line of lines) {
      const m = BULLET.exec(line);
      if (m) {
        items.push(m[1] ?? '');
        open = true;
      } else if (open && /^[ \t]+\S/.test(line)) {
        items[items.length - 1] += ` ${line.trim()}`;
      } else {
        open = false;
      }
    }
    return normalizeItems(items);
  }

  const prose = (chunks: string[][]): string =>
    chunks
      .map((c) => unescapeProse(normalizeProse(c.join('\n'))))
      .filter((t) => t !== '')
      .join('\n\n');


  /**
   * The index's facts of a body. Like `parseBody`, a section is the lines between
   * its heading and the next heading (known or not), text before the first
   * heading and under unknown headings is ignored, and a repeated section is
   * joined; but it jumps from heading to heading instead of looking at every
   * line, and of State it only asks whether it has a non-space character.
   */
  function bodyFacts(input: string): BodyFacts {
    const body = input.includes('\r') ? input.replace(/\r+\n/g, '\n') : input;
    const chunks = new Map<Role, string[]>();
    let says = false;
    // The start of the next line that may be a heading, -1 when there is none.
    const nextCandidate = (from: number): number => {
      const i = body.indexOf('\n##', from);
      return i < 0 ? -1 : i + 1;
    };
    let at = body.startsWith('##') ? 0 : nextCandidate(0);
    let role: Role = 'ignored';
    let contentStart = -1;
    const close = (end: number): void => {
      if (contentStart < 0 || role === 'ignored') return;
      const content = contentStart > end ? '' : body.slice(contentStart, end);
      if (role === 'prose') {
        if (!says && /\S/.test(content)) says = true;
        return;
      }
      const list = chunks.get(role);
      if (list) list.push(content);
      else chunks.set(role, [content]);
    };
    while (at >= 0) {
      let lineEnd = body.indexOf('\n', at);
      if (lineEnd < 0) lineEnd = body.length;
      const h = HEADING.exec(body.slice(at, lineEnd));
      if (h) {
        close(at - 1);
        const text = h[1] ?? '';
        role = EXACT.get(text) ?? ROLES.get(headingKey(text)) ?? 'ignored';
        contentStart = lineEnd + 1;
      }
      at = lineEnd >= body.length ? -1 : nextCandidate(lineEnd);
    }
    close(body.length);
    const lines = (role: Role): string[][] => (chunks.get(role) ?? []).map((c) => c.split('\n'));
    if (!says) for (const c of lines('items')) if (readItems(c).length) says = true;
    return {
      task: prose(lines('task')),
      next: prose(lines('next')),
      files: lines('files').flatMap(readItems),
      failed: lines('failed').flatMap(readItems),
      says,
    };
  }

  return { bodyFacts };
}
