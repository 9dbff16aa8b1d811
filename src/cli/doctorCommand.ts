// `baton doctor [--json]`: the vault, the launcher and each agent's
// connection, with the command that fixes each problem. Exit 0 when nothing
// needs fixing, 1 when something does.
import { age } from '../core/time';
import { doctor as examine, type DoctorReport } from '../app/doctor';
import { agentLabel } from '../app/connect';
import { homeOf } from '../app/projectDir';
import type { CommandInput } from './commands';
import type { Context } from './context';

export async function doctor(ctx: Context, { values }: CommandInput<'doctor'>): Promise<number> {
  const report = await examine({ vault: ctx.vault, cwd: ctx.io.cwd, home: homeOf(ctx.io.env), env: ctx.io.env });
  if (values.json) ctx.json(report);
  else ctx.io.out(render(report, Math.floor(Date.now() / 1000)));
  return report.ok ? 0 : 1;
}

const mark = (ok: boolean): string => (ok ? 'ok  ' : 'FIX ');

export function render(r: DoctorReport, now: number): string {
  const v = r.vault;
  const out: string[] = [];
  const state = !v.exists
    ? 'not created yet (the first write creates it)'
    : [v.readable ? 'readable' : 'NOT readable', v.writable ? 'writable' : 'NOT writable', `index ${v.index}`].join(', ');
  out.push(`${mark(v.ok)}vault     ${v.path}: ${state}`);
  for (const p of v.problems) out.push(`      - ${p}`);
  if (v.staleLocks.length) out.push(`      ${v.staleLocks.length} lock(s) left by dead processes; the next write breaks them.`);
  const l = r.launcher;
  const lstate = !l.present
    ? 'missing'
    : l.runtime === null
      ? 'not one Baton wrote'
      : `${l.runtime}${l.runtimeExists ? '' : ' (gone)'} running ${l.script}${l.scriptExists ? '' : ' (gone)'}`;
  out.push(`${l.ok ? 'ok  ' : '--  '}launcher  ${l.path}: ${lstate}`);
  // An agent connected nowhere, with nothing wrong, is one name on one line: it may simply not be installed here.
  const shown = new Set(r.agents.filter((a) => a.connected !== 'no' || a.problems.length).map((a) => a.agent));
  for (const a of r.agents.filter((x) => shown.has(x.agent))) {
    const seen = a.lastSeen ? `last wrote ${age(Math.max(0, now - Date.parse(a.lastSeen) / 1000))} ago` : 'never wrote to this vault';
    const where = a.connected === 'no' ? 'not connected' : a.connected === 'yes' ? 'connected' : 'partly connected';
    out.push(`${a.problems.length ? mark(false) : a.connected === 'no' ? '--  ' : mark(true)}${agentLabel(a.agent)} (${a.scope}): ${where}; ${seen}`);
    if (a.connected !== 'no') for (const f of a.files) out.push(`      ${f.state.padEnd(9)} ${f.path}`);
    for (const p of a.problems) out.push(`      - ${p}`);
  }
  const none = [...new Set(r.agents.filter((a) => !shown.has(a.agent)).map((a) => agentLabel(a.agent)))];
  if (none.length) out.push(`--  not connected: ${none.join(', ')} (baton connect AGENT)`);
  if (r.tokens) out.push(...tokenLines(r.tokens));
  out.push('', r.ok ? 'Nothing needs fixing.' : 'Something needs fixing: run the commands above.');
  return out.join('\n') + '\n';
}

/** What Baton costs each request of the connected agents: facts, not problems (nothing for a person to fix). */
function tokenLines(t: NonNullable<DoctorReport['tokens']>): string[] {
  const over = (tokens: number, budget: number): string => (tokens > budget ? ` — over the budget of ${budget}` : ` (budget ${budget})`);
  const tools =
    'error' in t.tools ? `not measured (${t.tools.error})` : `${t.tools.tokens} tokens a request, ${t.tools.count} tools and instructions${over(t.tools.tokens, t.tools.budget)}`;
  const out = [`--  tokens    for ${t.agents.map(agentLabel).join(', ')}: Baton's MCP tools: ${tools}`];
  if (t.handover) out.push(`      session-start hand-over of ${t.handover.project}: ${t.handover.tokens} tokens${over(t.handover.tokens, t.handover.budget)}`);
  return out;
}
