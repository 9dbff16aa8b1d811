// The files a Codex `apply_patch` names. The grammar (openai/codex,
// codex-rs/apply-patch/src/parser.rs and its tool instructions):
//   *** Begin Patch
//   *** Add File: <path>        then `+` lines
//   *** Delete File: <path>
//   *** Update File: <path>     optionally followed by `*** Move to: <new path>`
//   @@ …, then ` `, `-`, `+` lines
//   *** End Patch
// Every content line starts with ` `, `-` or `+`, so a marker is only ever a
// line of its own starting at column 0; the parser is lenient about trailing
// whitespace, and so is this. Only the headers are read: the patch body
// (which may hold anything) is never recorded.

// Greedy, trimmed after: a lazy `(.+?)\s*$` tries every cut of a line, which is quadratic in a line of spaces.
const HEADER = /^\*\*\* (?:Add File|Delete File|Update File|Move to): (.+)$/;

/** The paths of the files a patch adds, deletes, updates or moves (both ends of a move), in order, once each. Linear in the patch. */
export function patchedFiles(patch: string): string[] {
  const seen = new Set<string>();
  for (const line of patch.split(/\r?\n/)) {
    const m = HEADER.exec(line);
    const file = m?.[1].trimEnd();
    if (file) seen.add(file);
  }
  return [...seen];
}
