// Every `baton` command's arguments and flags, declared once: the parser reads
// them (args.ts), the help and every usage line are made from them
// (usage.ts), and the dispatch table in run.ts must name exactly these
// commands, which the compiler checks.
import type { CommandSpec, Flags, Input } from './args';
import { IMPORT_AGENTS } from '../core/importAgents';

const json = { json: { type: 'boolean', help: 'print JSON instead of text' } } as const satisfies Flags;
const project = { project: { type: 'string', short: 'p', value: 'P', help: "the project (else BATON_PROJECT, else the current folder's)" } } as const satisfies Flags;
// The commands that take PROJECT as a positional take --project too; their usage says PROJECT once.
const projectAlias = { project: { ...project.project, hidden: true } } as const satisfies Flags;
const author = {
  ...project,
  agent: { type: 'string', short: 'a', value: 'A', help: 'who writes it (else BATON_AGENT, else "cli")' },
  at: { type: 'string', value: 'TIME', help: 'when it happened: RFC 3339 or unix seconds (else now)' },
} as const satisfies Flags;

const checkpointFlags = {
  ...author,
  task: { type: 'string', value: 'T', help: 'what the session was for' },
  intent: { type: 'string', value: 'I', help: 'why it matters' },
  state: { type: 'string', value: 'S', help: 'where the work stands' },
  next: { type: 'string', value: 'N', help: 'the next step' },
  decided: { type: 'string', multiple: true, value: 'D', help: 'a decision (repeat for more)' },
  failed: { type: 'string', multiple: true, value: 'F', help: "what didn't work, and why (repeat for more)" },
  verified: { type: 'string', multiple: true, value: 'V', help: 'what was checked, and how (repeat for more)' },
  blocker: { type: 'string', multiple: true, value: 'B', help: 'what blocks the work (repeat for more)' },
  ran: { type: 'string', multiple: true, value: 'CMD', help: 'a command that was run (repeat for more)' },
  question: { type: 'string', multiple: true, value: 'Q', help: 'an open question (repeat for more)' },
  file: { type: 'string', multiple: true, value: 'PATH', help: 'a file the work touched (repeat for more)' },
  handoff: { type: 'string', value: 'WHO', help: 'the agent or person who takes over' },
  ...json,
} as const satisfies Flags;

const scope = {
  scope: { type: 'string', value: 'user|project|local', help: "whose files: the person's (user, the default), the project's shared ones, or the project's local ones" },
} as const satisfies Flags;
const connectFlags = {
  ...scope,
  'dry-run': { type: 'boolean', help: 'show what would be written, as a diff; write nothing' },
  ...json,
} as const satisfies Flags;
const AGENTS = 'AGENT is one of claude-code, codex, cursor, gemini, copilot.';
const basicMemory = {
  'basic-memory': { type: 'string', value: 'DIR', help: 'a Basic Memory folder whose session notes are read too (else BATON_BASIC_MEMORY)' },
} as const satisfies Flags;

export const COMMANDS = {
  note: { args: 'TEXT...', flags: { ...author, ...json }, about: "a working note, one line in the project's open notes" },
  checkpoint: {
    flags: checkpointFlags,
    about: 'commit the session: its notes folded into a checkpoint',
    notes: ['A checkpoint in markdown on stdin fills the fields the flags leave empty.'],
  },
  handoff: {
    flags: { to: { type: 'string', value: 'WHO', required: true, help: 'the agent or person who takes over' }, ...checkpointFlags },
    about: 'a checkpoint for the one who takes over',
    notes: ['A checkpoint in markdown on stdin fills the fields the flags leave empty.'],
  },
  resume: { args: '[PROJECT]', flags: { ...projectAlias, ...json }, about: 'the hand-over: what the next agent reads first' },
  sessions: {
    args: '[PROJECT]',
    flags: { ...projectAlias, close: { type: 'string', value: 'ID', help: 'close an abandoned session with an auto-closed checkpoint' }, ...json },
    about: "a project's checkpoints, open notes and abandoned sessions",
  },
  plan: { flags: { ...author, ...json }, about: 'save a plan (its text on stdin)' },
  plans: { args: '[PROJECT]', flags: { ...projectAlias, ...json }, about: "a project's plans, newest first" },
  continuity: { flags: json, about: 'every project: checkpoints, last agent, open and abandoned work' },
  why: {
    args: 'PATH',
    flags: { limit: { type: 'string', value: 'N', help: 'at most N checkpoints (default 20)' }, ...basicMemory, ...json },
    about: 'the checkpoints that touched a file, newest first',
  },
  search: {
    args: 'QUERY...',
    flags: {
      ...project,
      kind: { type: 'string', value: 'checkpoint|note|plan', help: 'only this kind of record' },
      agent: { type: 'string', value: 'A', help: "only this agent's" },
      since: { type: 'string', value: 'TIME', help: 'only since then: RFC 3339 or unix seconds' },
      limit: { type: 'string', value: 'N', help: 'at most N hits' },
      ...json,
    },
    about: 'full text, best first (a project includes its worktrees)',
  },
  blame: { args: 'FILE', flags: json, about: 'which checkpointed session wrote each line (run inside the repository)' },
  index: { flags: json, about: 'rebuild the index from the vault' },
  'project-name': { args: '[DIR]', flags: {}, about: 'the project name of a folder (default: the current one)' },
  stats: { args: '[PROJECT]', flags: { ...projectAlias, ...json }, about: 'sessions open/resumed/closed/auto-closed/abandoned' },
  verify: {
    args: '[PROJECT]',
    flags: { ...projectAlias, run: { type: 'boolean', help: "re-run the stale claims' commands here and checkpoint the new evidence" }, ...json },
    about: "the latest checkpoint's Verified claims: fresh, stale or unbacked against the working tree",
    notes: ['Run inside the project: a claim is stale when a file it covers changed since its run; --run never edits the old checkpoint.'],
  },
  import: {
    args: '[AGENT...]',
    flags: {
      since: { type: 'string', value: 'TIME', help: 'only sessions active since then: RFC 3339 or unix seconds' },
      // Unlike other commands, no project is guessed from the folder: a history spans every project.
      project: { ...project.project, help: 'only the sessions of this project (default: every project)' },
      'dry-run': { type: 'boolean', help: 'list what would be written; write nothing' },
      ...json,
    },
    about: "the agents' past sessions on this machine, one checkpoint each",
    notes: [
      `AGENT is one of ${IMPORT_AGENTS.join(', ')} (default: all); vscode-copilot is VS Code's Copilot Chat, whose checkpoints name copilot as its hooks do. A session imported or captured before is skipped.`,
    ],
  },
  mcp: { flags: basicMemory, about: 'the MCP server on stdio' },
  hook: {
    args: 'claude-code|codex|cursor session-start|pre-compact|post-tool-use|session-end',
    flags: {},
    raw: true,
    about: 'an agent hook; payload JSON on stdin; always exits 0',
  },
  connect: { args: 'AGENT', flags: connectFlags, about: "Baton's MCP server and hooks into the agent's own files", notes: [AGENTS] },
  disconnect: { args: 'AGENT', flags: connectFlags, about: "Baton's entries out of the agent's files, which come back byte for byte", notes: [AGENTS] },
  doctor: { flags: json, about: 'the vault, the launcher, each agent; exit 1 when something needs fixing' },
  sync: {
    flags: {
      init: { type: 'boolean', help: 'share this vault: git init, .gitignore/.gitattributes, the remote' },
      remote: { type: 'string', value: 'URL', help: 'the remote --init sets' },
      clone: { type: 'string', value: 'URL', help: 'join a shared vault: clone it into the (empty) vault folder' },
      ...json,
    },
    about: "commit the vault, merge the remote's, push (the vault is a git repository)",
  },
  thread: {
    args: 'enable|pull|status [PROJECT]|disable',
    flags: { ...projectAlias, ...json },
    about: "share the project's hand-over with cloud agents through the repository; bring their checkpoints home",
    notes: [
      'enable writes agent-thread/ (the hand-over, a README on leaving a checkpoint), a block in AGENTS.md (and CLAUDE.md,',
      '.github/copilot-instructions.md where they exist) and session-start hooks for Copilot and Claude Code; disable takes',
      'all of it out, every file as it was. Run inside the repository; commit what it wrote. Each checkpoint here then',
      'rewrites the hand-over in the working tree and takes out the checkpoint files already pulled.',
      'pull imports, once each, the checkpoint files agents committed under agent-thread/checkpoints/ on any local or',
      'remote-tracking branch (read from git objects: no checkout; fetch first); a file that is no checkpoint is rejected.',
      'status says whether the committed hand-over is behind the vault, and how many checkpoint files are pulled.',
    ],
  },
  hooks: {
    args: 'install|uninstall AGENT',
    flags: {
      user: { type: 'boolean', help: "the person's files instead of the project's" },
      dir: { type: 'string', value: 'DIR', help: 'the project folder (default: the current one)' },
      // Gone with `baton hooks`; still parsed so the refusal can say what to run instead.
      command: { type: 'string', value: 'CMD', help: 'gone: connect writes the launcher', hidden: true },
      ...json,
    },
    about: 'the old name of connect|disconnect (project scope unless --user)',
  },
  help: { args: '[COMMAND]', flags: {}, about: "this list, or one command's flags" },
} as const satisfies Record<string, CommandSpec>;

export type CommandName = keyof typeof COMMANDS;
/** What a command's handler receives: its flags' values, typed from its declaration, and its positionals. */
export type CommandInput<N extends CommandName> = Input<(typeof COMMANDS)[N]['flags']>;

export const isCommand = (name: string): name is CommandName => Object.prototype.hasOwnProperty.call(COMMANDS, name);
