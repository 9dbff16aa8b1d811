// Agents that trust folders (Gemini CLI, Copilot CLI) trust a folder and all
// below it, judged on real paths: a project reached through a link is the
// folder the agent recorded.
import * as fs from 'fs';
import * as path from 'path';

const real = (p: string): string => {
  try {
    return fs.realpathSync(p);
  } catch {
    return path.resolve(p);
  }
};

/** Is `folder` the trusted folder `dir` or below it, both resolved through links? */
export function folderWithin(dir: string, folder: string): boolean {
  const rel = path.relative(real(dir), real(folder));
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}
