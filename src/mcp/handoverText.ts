// The hand-over text every MCP surface gives: the resume tool, the resume
// prompt and a project's hand-over resource. One rendering (core/handover.ts,
// checkpoint text quoted), one count of the pick-up (app/resume.ts).
import type { ResumeView } from '../core/requests';
import type { Checkpoint } from '../core/model';
import { renderHandover, renderOthers } from '../core/handover';
import { ident } from '../core/quoted';
import { resume } from '../app/resume';
import { basicMemorySessionsOf } from '../app/why';
import { folderOfScope } from '../app/evidence';
import type { McpDeps } from './toolContext';

export interface Handover {
  view: ResumeView;
  /** basic-memory's session notes of this project, beside Baton's own record. */
  theirs: Checkpoint[];
  text: string;
}

export async function handoverOf(deps: McpDeps, scope: string, agent: string): Promise<Handover> {
  const view = await resume(deps.baton, scope, { agent, via: 'mcp', now: deps.now(), elsewhere: true, folder: folderOfScope(scope, deps.cwd, deps.env) });
  const theirs = basicMemorySessionsOf(deps.basicMemoryDir, scope);
  const now = deps.now();
  // A cut list points to this reply's own structured content first: an agent may run no CLI.
  const all = `this reply's structured thread, or baton resume ${ident(view.project)} --json`;
  return { view, theirs, text: renderHandover(view, now, { all }) + renderOthers('basic-memory session notes', theirs, now) };
}
