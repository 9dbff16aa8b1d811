// Where a note or checkpoint came from, in a vault a team shares: the machine
// (a random id each clone of the vault keeps for itself, never a host name,
// which leaks and changes) and the agent's own session id where its host gives
// one. The fold asks the machine: one person's checkpoint must never take
// another machine's work in progress, which arrived by sync under the same
// agent name.
import { sessionKey } from './sessionKey';

/** What Baton knows of where it runs now: "" when it could not keep a machine id (a read-only vault), read as "no origin". */
export interface OriginPort {
  machine(): Promise<string>;
}

/**
 * A value as the note line and the frontmatter hold it: an id of letters,
 * digits, `_` and `-` kept, anything else (spaces, `-->`, a pasted token)
 * hashed by the session key, so it can neither end the comment nor leak.
 */
export const originValue = (v: string): string => (v ? sessionKey(v) : '');

/** The first 8 characters of a machine id: enough to tell a team's machines apart in a list. */
export const shortMachine = (machine: string): string => machine.slice(0, 8);
