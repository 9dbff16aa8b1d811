// `npm run bench -- --tokens [--json]` (or `npx tsx bench/tokens.ts [--json]`): what
// Baton costs an agent's requests (issue 23's budget), at four characters a
// token: its MCP tools' definitions and instructions, sent with every request
// (budget 1,200), and the hand-over a session start prints for the bench's
// typical project (budget 800). Prints a markdown table (or JSON); writes
// nothing into BENCHMARKS.md. test/unit/tokenBudget.test.ts holds the same
// figures to the budget.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { sessionStart } from '../src/app/agentHooks';
import type { HookPayload } from '../src/app/editHooks';
import { openBaton } from '../src/app/openBaton';
import { handoverView } from '../src/app/resume';
import { renderHandover } from '../src/core/handover';
import { START_BUDGET_TOKENS } from '../src/core/requestBudget';
import { TOOL_BUDGET_TOKENS, tokensOf, toolCost, type ToolCost } from '../src/mcp/toolCost';
import { generateVault, META_FILE, projectsFor, type VaultMeta } from './generate';

export { START_BUDGET_TOKENS };

export interface TokenFigures {
  tools: ToolCost;
  project: string;
  checkpoints: number;
  /** The session-start text as the hook prints it, and the whole hand-over `resume` gives. */
  start: { chars: number; tokens: number };
  full: { chars: number; tokens: number };
  /** The largest session start of every project of the same vault. */
  largestStart: { project: string; chars: number; tokens: number };
  startText: string;
}

/**
 * The bench's typical project: the busiest project of a generated 1,000
 * checkpoint vault (bench/generate.ts, seed 1000), with the open notes of a
 * session in progress: two working notes, two edits and the lifecycle events
 * the hooks write.
 */
export async function typicalProject(root: string): Promise<{ vault: string; project: string; cwd: string; checkpoints: number }> {
  const vault = path.join(root, 'vault');
  generateVault(vault, { checkpoints: 1000, projects: projectsFor(1000), seed: 1000 });
  const meta = JSON.parse(fs.readFileSync(path.join(vault, META_FILE), 'utf8')) as VaultMeta;
  const count = (p: string): number => fs.readdirSync(path.join(vault, 'sessions', p)).filter((f) => /^\d{8}-.*\.md$/.test(f)).length;
  const project = meta.projects
    .map((p) => p.name)
    .filter((p) => fs.existsSync(path.join(vault, 'sessions', p)))
    .sort((a, b) => count(b) - count(a))[0];
  const baton = openBaton(vault);
  await baton.note(project, 'codex', 'the retry loop masks the 429 from the coupon service: reproduced with --repeat 50');
  await baton.recordEdits(project, 'codex', ['src/cart.ts', 'src/coupon/client.ts']);
  await baton.note(project, 'codex', 'lifecycle: stopped');
  await baton.note(project, 'codex', 'fake timers alone do not fix it: the clock is read in the service client too');
  const cwd = path.join(root, 'work');
  fs.mkdirSync(cwd, { recursive: true });
  fs.writeFileSync(path.join(cwd, '.baton-project'), `${project}\n`);
  return { vault, project, cwd, checkpoints: count(project) };
}

export async function tokenFigures(): Promise<TokenFigures> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'baton-tokens-'));
  try {
    const t = await typicalProject(root);
    const now = Math.floor(Date.now() / 1000);
    const h = { vaultRoot: t.vault, env: {}, agent: 'claude-code', now: () => now };
    const payload: HookPayload = {
      host: 'claude-code',
      sessionId: '',
      transcriptPath: '',
      cwd: t.cwd,
      roots: [],
      edited: [],
      source: 'startup',
      prompt: '',
      trigger: '',
      instructions: '',
      context: { percent: null, messages: null, toCompact: null },
      reason: '',
      toolName: '',
      toolInput: {},
    };
    const startText = await sessionStart(h, payload);
    let largestStart = { project: t.project, chars: startText.length, tokens: tokensOf(startText.length) };
    for (const p of fs.readdirSync(path.join(t.vault, 'sessions'))) {
      const cwd = path.join(root, 'projects', p);
      fs.mkdirSync(cwd, { recursive: true });
      fs.writeFileSync(path.join(cwd, '.baton-project'), `${p}\n`);
      const text = await sessionStart(h, { ...payload, cwd });
      if (text.length > largestStart.chars) largestStart = { project: p, chars: text.length, tokens: tokensOf(text.length) };
    }
    const full = renderHandover(await handoverView(openBaton(t.vault), t.project), now);
    return {
      tools: await toolCost(),
      project: t.project,
      checkpoints: t.checkpoints,
      start: { chars: startText.length, tokens: tokensOf(startText.length) },
      full: { chars: full.length, tokens: tokensOf(full.length) },
      largestStart,
      startText,
    };
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

export function tokenTable(f: TokenFigures): string {
  const rows = [
    "| What an agent's request carries | characters | tokens (chars/4) | budget |",
    '|---|---:|---:|---:|',
    `| MCP tools (${f.tools.tools.length}: ${f.tools.tools.map((t) => t.name).join(', ')}) and instructions | ${f.tools.chars} | ${f.tools.tokens} | ${TOOL_BUDGET_TOKENS} |`,
    ...f.tools.tools.map((t) => `| &nbsp;&nbsp;${t.name} | ${t.chars} | ${tokensOf(t.chars)} | |`),
    `| &nbsp;&nbsp;instructions | ${f.tools.instructions} | ${tokensOf(f.tools.instructions)} | |`,
    `| Session-start hand-over, ${f.project} (${f.checkpoints} checkpoints, 4 open notes) | ${f.start.chars} | ${f.start.tokens} | ${START_BUDGET_TOKENS} |`,
    `| &nbsp;&nbsp;the whole hand-over (resume) | ${f.full.chars} | ${f.full.tokens} | |`,
    `| The largest session start of the vault's projects (${f.largestStart.project}) | ${f.largestStart.chars} | ${f.largestStart.tokens} | ${START_BUDGET_TOKENS} |`,
  ];
  return rows.join('\n') + '\n';
}

export async function tokenBench(argv: string[]): Promise<void> {
  const f = await tokenFigures();
  process.stdout.write(argv.includes('--json') ? JSON.stringify({ ...f, startText: undefined }, null, 2) + '\n' : tokenTable(f));
}

// Run directly (tsx); bundled into bench.js, main.ts calls it (there every module is the main one).
if (require.main === module && /tokens\.ts$/.test(process.argv[1] ?? '')) {
  tokenBench(process.argv.slice(2)).catch((err: unknown) => {
    process.stderr.write(`${String(err)}\n`);
    process.exitCode = 1;
  });
}
