// `baton verify [PROJECT] [--run] [--json]`: the latest checkpoint's Verified
// claims, fresh, stale or unbacked against the working tree here, and with
// --run the stale ones' commands run again and checkpointed (app/verify.ts).
import { usage } from '../core/errors';
import { ident } from '../core/quoted';
import { folderOfScope } from '../app/evidence';
import { evidenceNoLongerFits, rerunStale, verifyClaims, type VerifyRow } from '../app/verify';
import { str } from './args';
import type { CommandInput } from './commands';
import type { Context } from './context';

const now = (): number => Math.floor(Date.now() / 1000);

const rowLine = (r: VerifyRow): string => {
  const how = r.state === 'unbacked' ? 'no passing run of a command it names' : `${ident(r.command)} at ${ident(r.commit || '?')}`;
  const moved = r.changed.length ? `; changed since: ${r.changed.map(ident).join(', ')}` : '';
  return `${r.state.padEnd(8)} ${ident(r.claim)}\n         ${how}; ${r.files.length} file(s) covered${moved}`;
};

export async function verify(ctx: Context, { values, positionals }: CommandInput<'verify'>): Promise<number> {
  if (positionals.length > 1) throw usage(`One project at a time; got ${positionals.join(', ')}.`);
  const scope = ctx.project(positionals[0] ?? str(values.project));
  const folder = folderOfScope(scope, ctx.io.cwd, ctx.io.env);
  if (!folder) throw usage(`The claims of ${scope} are checked against its working tree: run baton verify inside the project's folder.`);
  if (!values.run) {
    const rows = await verifyClaims(ctx.core(), scope, folder);
    if (values.json) ctx.json(rows);
    else if (rows.length) ctx.io.out(rows.map(rowLine).join('\n') + '\n');
    else if (await evidenceNoLongerFits(ctx.core(), scope))
      ctx.io.out(
        `The latest checkpoint of ${scope} has evidence, but its Verified list was edited to another length since, so the evidence no longer says which claim is which: nothing is judged.\n`,
      );
    else ctx.io.out(`No claim with evidence in the latest checkpoint of ${scope}.\n`);
    return 0;
  }
  const done = await rerunStale(ctx.core(), scope, folder, { agent: ctx.agent(undefined), now });
  if (values.json) {
    ctx.json(done.rows);
  } else {
    const lines = done.reruns.map((r) => (r.refused ? `not re-run ${ident(r.command)}: ${r.refused}` : `re-ran ${ident(r.command)}: exit ${r.exit} in ${r.durationMs} ms`));
    if (done.path) lines.push(`New checkpoint with the new evidence: ${done.path}`);
    else if (!done.reruns.length) lines.push('No stale claim to re-run.');
    ctx.io.out([...lines, ...done.rows.map(rowLine)].join('\n') + '\n');
  }
  return done.reruns.some((r) => r.exit !== null && r.exit !== 0) ? 1 : 0;
}
