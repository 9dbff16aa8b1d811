// `baton thread enable` and `disable`: a project's hand-over shared with cloud
// agents through its repository (issue 28), and taken out again so every file
// it touched is as it was, byte for byte. Every file is planned before the
// first write, so a refusal (someone's block edited, a settings file that is
// not JSON, a folder of that name that is not Baton's) writes nothing.
import * as fs from 'fs';
import type { Baton } from '../core/baton';
import { refused } from '../core/errors';
import { withBlock, withoutBlock } from '../core/markedBlock';
import { INSTRUCTIONS_BLOCK, README_MARK, THREAD_FILES, THREAD_FOLDER, hookJson, sharedHandover, threadReadme, type MachinePath } from '../core/repoThreadText';
import { copilotThreadHooks, isCopilotThreadFile, withClaudeThreadHook, withoutClaudeThreadHook } from '../adapters/agents/threadHooks';
import { runGit } from '../adapters/git/gitRun';
import { applyRepoChanges, distinctFiles, readRepoFile, repoFilesUnder, type RepoChange } from '../adapters/repoFiles';
import { handoverView } from './resume';

/**
 * Where the instructions' block goes: AGENTS.md always (made when missing),
 * the other two only where the project has them. Codex reads every AGENTS.md
 * from the repository's root down to its working folder, skipping empty ones,
 * up to 32 KiB together (developers.openai.com/codex/guides/agents-md, "How
 * Codex discovers guidance"): the block is a few lines. Copilot's cloud agent
 * reads AGENTS.md and .github/copilot-instructions.md, Claude Code CLAUDE.md
 * (issue 28, from their docs; this code relies on nothing more than that they
 * are markdown read whole).
 */
const AGENTS_MD = 'AGENTS.md';
const ONLY_WHERE_THEY_ARE = ['CLAUDE.md', '.github/copilot-instructions.md'];
const COPILOT_HOOKS = '.github/hooks/agent-thread.json';
const CLAUDE_SETTINGS = '.claude/settings.json';
/** Folders enable may have made, removed by disable once they are empty. */
const MADE_FOLDERS = [THREAD_FOLDER, '.github/hooks', '.github', '.claude'];

export interface ThreadOutcome {
  /** The shared folder, relative to the repository. */
  folder: string;
  /** Files created or changed, relative to the repository, in the order written. */
  written: string[];
  removed: string[];
  /** Secrets masked in the shared hand-over (beyond what the vault had masked already). */
  masked: number;
  /** What the person should know: checkpoints left in the folder. */
  notes: string[];
}

/** The repository's top level, or a refusal saying that the thread lives in a repository. */
export async function repositoryOf(cwd: string): Promise<string> {
  const r = await runGit(cwd, ['rev-parse', '--show-toplevel']);
  const root = r.out.trim();
  if (r.code !== 0 || !root) throw refused(`${cwd} is not in a git repository: the thread is shared through the project's repository. Run this inside it.`);
  return root;
}

/**
 * Refuses an `agent-thread/` that Baton did not write: its files are
 * somebody's. Baton's README carries its mark; without a README, a hand-over
 * that is not one of Baton's says the same.
 */
export function checkFolderIsOurs(root: string): void {
  const readme = readRepoFile(root, THREAD_FILES.readme);
  const handover = readme === null ? readRepoFile(root, THREAD_FILES.handover) : null;
  if ((readme !== null && !readme.includes(README_MARK)) || (handover !== null && !handover.startsWith('# Hand-over — '))) {
    throw refused(`${THREAD_FOLDER}/ holds files Baton did not write; Baton changed nothing. Rename that folder first.`);
  }
}

/** This machine's folders a shared text must not name: the repository (as git and as the file system spell it), the home folder, the vault. */
function machinePaths(root: string, home: string, vault: string): MachinePath[] {
  const real = (p: string): string => {
    try {
      return fs.realpathSync(p);
    } catch {
      return p;
    }
  };
  return [
    { prefix: root, as: '.' },
    { prefix: real(root), as: '.' },
    { prefix: vault, as: '<vault>' },
    { prefix: real(vault), as: '<vault>' },
    { prefix: home, as: '~' },
    { prefix: real(home), as: '~' },
  ];
}

const change = (root: string, rel: string, after: (before: string | null) => string | null): RepoChange => {
  const before = readRepoFile(root, rel);
  return { rel, before, after: after(before) };
};

/**
 * What git would leave out of a commit (a `.gitignore` naming `.claude/`, as
 * some do): such a file never reaches a clone, so the person is told.
 */
async function ignoredNotes(root: string, changes: readonly RepoChange[]): Promise<string[]> {
  const paths = changes.filter((c) => c.after !== null).map((c) => c.rel);
  const r = await runGit(root, ['check-ignore', '--no-index', '--', ...paths]);
  const ignored = r.code === 0 ? r.out.split('\n').filter(Boolean) : [];
  return ignored.map((p) => `${p} is ignored by git here: add it with git add -f, or cloud agents never see it.`);
}

/** The hand-over as the repository would hold it now: what enable writes and every checkpoint's refresh compares with. */
export async function sharedThreadText(baton: Baton, o: { scope: string; root: string; home: string; vault: string }): Promise<ReturnType<typeof sharedHandover>> {
  const view = await handoverView(baton, o.scope);
  return sharedHandover({ project: view.project, latest: view.latest, thread: view.thread }, machinePaths(o.root, o.home, o.vault));
}

/** The folder's own files (README, hand-over, what session starts print) as planned changes, for enable and the refresh. */
export async function sharedFolderChanges(baton: Baton, o: { scope: string; root: string; home: string; vault: string }): Promise<{ changes: RepoChange[]; masked: number }> {
  const shared = await sharedThreadText(baton, o);
  const root = o.root;
  return {
    masked: shared.masked,
    changes: [
      change(root, THREAD_FILES.readme, () => threadReadme()),
      change(root, THREAD_FILES.handover, () => shared.text),
      change(root, THREAD_FILES.start, () => shared.start),
      change(root, THREAD_FILES.startJson, () => hookJson(shared.start)),
    ],
  };
}

export interface EnableInput {
  /** The project's scope, as the door resolved it (a positional, --project, BATON_PROJECT, the folder's). */
  scope: string;
  cwd: string;
  home: string;
  vault: string;
}

/** What enable or disable would write, planned from the files as they are now: the editor shows it as diffs before applying it. */
export interface ThreadPlan {
  /** The repository's top level. */
  root: string;
  folder: string;
  /** Every file planned, relative to the repository; a change whose before and after agree writes nothing. */
  changes: RepoChange[];
  /** Folders to remove once the removals leave them empty (disable). */
  prune: string[];
  masked: number;
  /** What the person should know before saying yes (enable: files git would keep out of a clone). */
  notes: string[];
}

/**
 * Plans the folder (README, hand-over, what the session starts print of it),
 * the block in the instruction files and the two session-start hooks. A
 * project the vault holds nothing of is refused (a typo would share an empty
 * thread). Planned again on an enabled thread, only a changed hand-over differs.
 */
export async function planThreadEnable(baton: Baton, o: EnableInput): Promise<ThreadPlan> {
  const root = await repositoryOf(o.cwd);
  if (!(await baton.scopes()).includes(o.scope)) {
    throw refused(`The vault ${o.vault} holds no project "${o.scope}": nothing to share. Give the project's name (baton continuity lists them), or checkpoint in it first.`);
  }
  checkFolderIsOurs(root);
  const shared = await sharedFolderChanges(baton, { ...o, root });
  const changes: RepoChange[] = [
    ...shared.changes,
    ...distinctFiles(root, [AGENTS_MD, ...ONLY_WHERE_THEY_ARE]).map((rel) =>
      change(root, rel, (t) => (t === null && rel !== AGENTS_MD ? null : withBlock(t, INSTRUCTIONS_BLOCK, rel))),
    ),
    change(root, COPILOT_HOOKS, (t) => {
      if (t !== null && !isCopilotThreadFile(t, THREAD_FILES.startJson)) throw refused(`${COPILOT_HOOKS} is not Baton's; Baton changed nothing. Rename it first.`);
      return copilotThreadHooks(THREAD_FILES.startJson);
    }),
    change(root, CLAUDE_SETTINGS, (t) => withClaudeThreadHook(t, THREAD_FILES.start, CLAUDE_SETTINGS)),
  ];
  return { root, folder: THREAD_FOLDER, changes, prune: [], masked: shared.masked, notes: await ignoredNotes(root, changes) };
}

/**
 * Plans taking out everything enable put in: the folder's files, the block
 * (the instruction files as they were, AGENTS.md removed when enable made
 * it), the hooks file, the Claude Code hook (the settings as they were, or no
 * file). Checkpoints agents left in the folder stay, and are named once applied.
 */
export async function planThreadDisable(o: { cwd: string }): Promise<ThreadPlan> {
  const root = await repositoryOf(o.cwd);
  checkFolderIsOurs(root);
  const ours = [THREAD_FILES.readme, THREAD_FILES.handover, THREAD_FILES.start, THREAD_FILES.startJson];
  const changes: RepoChange[] = [
    ...ours.map((rel) => change(root, rel, () => null)),
    ...distinctFiles(root, [AGENTS_MD, ...ONLY_WHERE_THEY_ARE]).map((rel) => change(root, rel, (t) => (t === null ? null : withoutBlock(t, INSTRUCTIONS_BLOCK, rel)))),
    change(root, COPILOT_HOOKS, (t) => (t !== null && isCopilotThreadFile(t, THREAD_FILES.startJson) ? null : t)),
    change(root, CLAUDE_SETTINGS, (t) => (t === null ? null : withoutClaudeThreadHook(t, THREAD_FILES.start, CLAUDE_SETTINGS))),
  ];
  return { root, folder: THREAD_FOLDER, changes, prune: [THREAD_FILES.checkpoints, ...MADE_FOLDERS], masked: 0, notes: [] };
}

/** Writes a plan; a file changed since it was planned is refused (applyRepoChanges), never overwritten. */
export function applyThreadPlan(plan: ThreadPlan): ThreadOutcome {
  const done = applyRepoChanges(plan.root, plan.changes, plan.prune);
  if (!plan.prune.length) return { folder: plan.folder, ...done, masked: plan.masked, notes: plan.notes };
  const left = repoFilesUnder(plan.root, THREAD_FOLDER);
  const notes = left.length ? [`${left.length} file(s) stay in ${THREAD_FOLDER}/, not Baton's own (agents' checkpoints): ${left.join(', ')}.`] : [];
  return { folder: plan.folder, ...done, masked: plan.masked, notes };
}

export const enableThread = async (baton: Baton, o: EnableInput): Promise<ThreadOutcome> => applyThreadPlan(await planThreadEnable(baton, o));
export const disableThread = async (o: { cwd: string }): Promise<ThreadOutcome> => applyThreadPlan(await planThreadDisable(o));
