// Whose each checkpoint of a list is, for the trees (issue 25: in a team's
// vault everyone's Claude Code is `claude-code`). The label is the person the
// checkpoint names, else its machine ("this machine", "machine 3f9c2a1b"), and
// it is given only where the project is written from more than one machine,
// this one counted, as core/whose.ts decides for the hand-over's sessions.
import type { Checkpoint, ProjectContinuity } from '../../core/model';
import { originOf } from '../../core/thread';
import { whoseLabel } from '../../core/whose';

/** Whose `cp` is, or "" where that needs no saying (one machine) or the checkpoint names none. */
export type WhoseOf = (cp: Checkpoint) => string;

const nobody: WhoseOf = () => '';

/**
 * From a project's checkpoints and the machines of its open sessions: the
 * labeller for its lists. Checkpoints written before origins carry no
 * machine and count for none.
 */
export function whoseIn(checkpoints: readonly Checkpoint[], sessionMachines: readonly string[], here: string): WhoseOf {
  const machines = new Set([here, ...sessionMachines, ...checkpoints.map((cp) => originOf(cp).machine)].filter(Boolean));
  if (machines.size < 2) return nobody;
  return (cp) => {
    const { person, machine } = originOf(cp);
    return person || whoseLabel(machine, here);
  };
}

/**
 * Whose a project's last checkpoint is, from the index's summary alone (a
 * row of a project not opened reads no history): its person, else its
 * machine, where the project's checkpoints and open sessions and this machine
 * are more than one machine.
 */
export function lastWhoseOf(c: ProjectContinuity, here: string): string {
  if (!c.checkpoints || new Set([here, ...c.machines].filter(Boolean)).size < 2) return '';
  return c.lastPerson || whoseLabel(c.lastMachine, here);
}
