// What `baton thread enable` commits into a project's repository for agents
// that see only the repository (issue 28): the hand-over, a README saying what
// the folder is and how an agent without Baton leaves a checkpoint, and the
// block that points AGENTS.md (and CLAUDE.md, Copilot's instructions) at both.
//
// The folder is `agent-thread/`, visible and named after what it holds, not
// after the tool: a person reading the repository sees what agents are told,
// reviews the hand-over's changes in a pull request beside the work, and sees
// an agent's checkpoint file in the branch's file list. A dot folder would
// hide exactly what is meant to be read.
import { SECTIONS, renderBody } from './checkpointBody';
import type { Checkpoint } from './model';
import { emptyFields } from './model';
import { START_HANDOVER_CHARS, renderHandover, renderStartHandover } from './handover';
import type { MarkedBlock } from './markedBlock';
import { ident } from './quoted';
import { maskSecrets } from './secrets';
import { THREAD_CHECKPOINT_MAX_BYTES } from './threadCheckpoint';
import type { Thread } from './thread';
import { rfc3339 } from './time';

export const THREAD_FOLDER = 'agent-thread';
/** The folder's files, relative to the repository's top level (`/`-separated, as git and the docs name them). */
export const THREAD_FILES = {
  readme: `${THREAD_FOLDER}/README.md`,
  handover: `${THREAD_FOLDER}/HANDOVER.md`,
  /** What a session start prints: the hand-over within a session start's budget, the rest named (Claude Code's hook `cat`s it). */
  start: `${THREAD_FOLDER}/session-start.md`,
  /** The same as the JSON Copilot's session-start hook prints: a hook running no program of its own can only `cat` it. */
  startJson: `${THREAD_FOLDER}/session-start.json`,
  checkpoints: `${THREAD_FOLDER}/checkpoints`,
} as const;

/** The README's second line: how enable and disable know the folder is Baton's, not a person's folder of the same name. */
export const README_MARK = '<!-- Written by Baton: `baton thread enable` rewrites the files of this folder, `baton thread disable` removes them. -->';

/** Baton's block in AGENTS.md, CLAUDE.md and .github/copilot-instructions.md: facts and where to read, no orders. */
export const INSTRUCTIONS_BLOCK: MarkedBlock = {
  begin: '<!-- agent-thread:begin (written by `baton thread enable`; `baton thread disable` takes it out) -->',
  end: '<!-- agent-thread:end -->',
  body: [
    '## Agent thread',
    '',
    `What earlier agent sessions in this project recorded (the task, decisions, what didn't work and why, the next step): \`${THREAD_FILES.handover}\`.`,
    `How a session leaves its own checkpoint for the next one, without Baton: \`${THREAD_FILES.readme}\`.`,
  ],
};

/** A folder of this machine (the repository, the home folder, the vault) and what a shared text says instead. */
export interface MachinePath {
  prefix: string;
  as: string;
}

const escapeRegex = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The text with this machine's folders named as the repository would: the
 * repository's own path becomes `.`, the home folder `~`, the vault `<vault>`.
 * A path is replaced only where it ends (a `/` or a character no folder name
 * continues with), so `/home/me/kestrel-old` is not `./-old`; the longest
 * prefix first, so the repository inside the home folder reads `./src`.
 */
export function withoutMachinePaths(text: string, paths: readonly MachinePath[]): string {
  let out = text;
  for (const p of [...paths].filter((x) => x.prefix.length > 1).sort((a, b) => b.prefix.length - a.prefix.length)) {
    out = out.replace(new RegExp(`${escapeRegex(p.prefix)}(?=[/\\\\]|[^A-Za-z0-9._-]|$)`, 'g'), p.as);
  }
  return out;
}

export interface SharedHandoverInput {
  project: string;
  latest: Checkpoint | null;
  thread: Thread;
}

/**
 * The hand-over as committed: every hand-over's renderer (handover.ts: agents'
 * text quoted, Baton's lines facts), of the checkpoints only (open working
 * notes, abandoned sessions and other machines' live sessions stay in the
 * vault), its ages counted from the latest checkpoint's time so the files
 * depend on the vault alone (enabling twice writes the same bytes), then
 * this machine's folders named as the repository would and secrets masked
 * once more (an old or hand-written checkpoint may predate the mask). `start`
 * is what a session start prints, as Baton's own hook does: within the same
 * 800 tokens, the dead ends first, the rest named (HANDOVER.md).
 */
export function sharedHandover(h: SharedHandoverInput, paths: readonly MachinePath[]): { text: string; start: string; masked: number } {
  const asOf = h.latest?.ts ?? 0;
  const input = { project: h.project, latest: h.latest, thread: h.thread, uncommitted: [], abandoned: [], othersWorking: [], elsewhere: [] };
  const all = `baton resume ${ident(h.project)} --json, where the project's Baton vault is`;
  const foot = h.latest
    ? `(Shared from Baton's vault as of ${rfc3339(asOf)}, the latest checkpoint's time: every age above counts from then. Working notes are not shared here.)`
    : "(Shared from Baton's vault. Working notes are not shared here.)";
  const full = `${renderHandover(input, asOf, { all })}\n${foot}\n`;
  const start = `${renderStartHandover(input, asOf, { budget: START_HANDOVER_CHARS - foot.length - 2, rest: THREAD_FILES.handover })}\n${foot}\n`;
  const text = maskSecrets(withoutMachinePaths(full, paths));
  return { text: text.text, start: maskSecrets(withoutMachinePaths(start, paths)).text, masked: text.count };
}

/** What Copilot's session-start hook prints: the top-level `additionalContext` Copilot CLI reads (adapters/agents/threadHooks.ts). */
export const hookJson = (start: string): string => JSON.stringify({ additionalContext: start }, null, 2) + '\n';

/** The checkpoint shape `baton checkpoint` reads on stdin, every section filled with what belongs in it. */
function exampleCheckpoint(): string {
  return renderBody({
    ...emptyFields(),
    task: 'What this session was for, in a sentence or two.',
    intent: 'Why it matters.',
    state: 'Where the work stands now.',
    decisions: ['a decision, and why'],
    failed: ['an approach that did not work: why it failed'],
    verified: ['what was checked, and by which command'],
    blockers: ['what blocks the work'],
    commands: ['npm test'],
    questions: ['a question still open'],
    files: ['src/cart.ts'],
    next: 'The next step.',
  });
}

/** The folder's README: what it is, for people and agents, and how an agent without Baton writes a checkpoint. */
export function threadReadme(): string {
  const headings = SECTIONS.map((s) => `\`## ${s.heading}\``).join(', ');
  return [
    '# Agent thread',
    README_MARK,
    '',
    "This folder carries a project's thread between AI coding agents: what earlier sessions found, decided and ruled",
    "out, for agents that see only this repository (GitHub Copilot's cloud agent, Codex cloud, Claude Code on the web)",
    'and for the people and agents who keep the thread with [Baton](https://github.com/baton-dev/baton) on their own machines.',
    '',
    `- \`HANDOVER.md\`: the hand-over, from the checkpoints of earlier sessions. Lines starting with \`>\` quote what`,
    '  agents wrote: a record of what they reported, not instructions. Baton rewrites this file: edits to it are lost.',
    "- `session-start.md`: what an agent's session start prints of it (Claude Code's hook, `.claude/settings.json`),",
    "  within a session start's budget: the dead ends first, the rest left to `HANDOVER.md`. `session-start.json`: the",
    "  same, as the JSON that Copilot's session-start hook prints (`.github/hooks/agent-thread.json`).",
    '- `checkpoints/`: checkpoints left by agents without Baton, as below.',
    '',
    '## Leaving a checkpoint without Baton',
    '',
    'A session that ends writes one markdown file:',
    '',
    '```',
    `${THREAD_FILES.checkpoints}/YYYYMMDD-HHMMSS-AGENT.md`,
    '```',
    '',
    "`YYYYMMDD-HHMMSS` is the time in UTC (`20261202-171500`), `AGENT` the agent's name in lowercase letters, digits",
    "and `-` (`copilot`, `codex`, `claude-code`): the name a checkpoint has in Baton's vault. The file is committed on",
    "the session's own branch, with its work, and that branch pushed; never on the default branch, and never with",
    'a change to `HANDOVER.md`. The person who shared this folder brings it into their Baton vault from the branch.',
    '',
    `The file is the markdown \`baton checkpoint\` reads on stdin: the sections ${headings}, in that order, each only`,
    'when the session has something for it. A list section takes one `- ` bullet per item; nothing above the first',
    '`## ` heading is read. For example:',
    '',
    '```markdown',
    exampleCheckpoint().trimEnd(),
    '```',
    '',
    "No secrets: tokens and keys are masked when the file is read, and the file stays in the branch's history.",
    `At most ${THREAD_CHECKPOINT_MAX_BYTES / 1024} KiB: a larger file, or one that is not this markdown, is not read.`,
    '',
  ].join('\n');
}
