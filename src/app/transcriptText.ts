// The text of an agent's transcript, for the editor to show. The path comes
// from a checkpoint (a vault a team shares) and the file is the agent's: by the
// time the editor reads it, it can be a FIFO (a read that never returns), a
// link to /dev/zero (one that never ends) or a file grown past what an editor
// can hold. So it is read as every file a repository or a person controls is
// (adapters/foreignFile.ts): only a regular file of bounded size, judged on the
// descriptor that is read, else a refusal naming it; nothing that can block is
// ever read.
import { readForeignBytes } from '../adapters/foreignFile';
import { refused } from '../core/errors';

/** The transcript's text; throws (a refusal saying what the file is) when it is not a regular file of at most `maxBytes`. */
export function transcriptText(file: string, maxBytes: number): string {
  const bytes = readForeignBytes(file, maxBytes);
  if (bytes === null) throw refused(`The transcript ${file} is not on this machine: it may have been recorded elsewhere or deleted.`);
  return bytes.toString('utf8');
}
