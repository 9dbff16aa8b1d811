// `why` with a line or range: the sessions that wrote those lines (git blame
// against the checkpoints' commits), what each ruled out and decided, and its
// next step. The path is taken relative to the client's root folder (else the
// server's), where the agent sees the file.
import * as path from 'path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { renderLineWhy } from '../core/blameText';
import { whyLines } from '../app/blame';
import { reply, type ToolContext } from './toolContext';

export async function whyOfLines(ctx: ToolContext, file: string, start: number, end: number | undefined): Promise<CallToolResult> {
  const base = await ctx.project(undefined).then(
    (p) => p.folder ?? ctx.deps.cwd,
    () => ctx.deps.cwd,
  );
  const { report, found } = await whyLines(ctx.deps.baton, path.resolve(base, file), { start, end });
  const text = renderLineWhy(report.file, { start, end: end ?? start }, found, ctx.deps.now(), report.nothing);
  const lines = found.map(({ range, checkpoint }) => ({ ...range, failed: checkpoint.failed, decisions: checkpoint.decisions, next: checkpoint.next }));
  return reply(text, { file: report.file, touches: [], lines });
}
