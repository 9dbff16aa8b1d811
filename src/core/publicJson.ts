// The JSON shapes of the public contract (CLI --json, MCP structured content):
// camelCase, unix seconds, absent lists [] and absent texts "".
import type { Checkpoint } from './model';

export interface CheckpointJson {
  session: string;
  project: string;
  agent: string;
  task: string;
  intent: string;
  state: string;
  decisions: string[];
  failed: string[];
  verified: string[];
  blockers: string[];
  commands: string[];
  questions: string[];
  files: string[];
  next: string;
  handoffTo: string;
  autoClosed: boolean;
  git: { branch: string; commit: string; subject: string; dirty: number; files: string[] };
  ts: number;
  slug: string;
}

export function checkpointJson(cp: Checkpoint): CheckpointJson {
  return {
    session: cp.session,
    project: cp.project,
    agent: cp.agent,
    task: cp.task,
    intent: cp.intent,
    state: cp.state,
    decisions: cp.decisions,
    failed: cp.failed,
    verified: cp.verified,
    blockers: cp.blockers,
    commands: cp.commands,
    questions: cp.questions,
    files: cp.files,
    next: cp.next,
    handoffTo: cp.handoffTo,
    autoClosed: cp.autoClosed,
    git: { branch: cp.git.branch, commit: cp.git.commit, subject: cp.git.subject, dirty: cp.git.dirty, files: cp.git.files },
    ts: cp.ts,
    slug: cp.slug,
  };
}
