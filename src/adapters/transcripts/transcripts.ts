// The transcript readers by format, and the one way to use them. Which format
// a host writes is the app's to say (app/agentHooks.ts); a host whose format
// is not known (VS Code's agent) is read by each reader in turn.
import { claudeMessages } from './claude';
import { codexMessages } from './codex';
import { copilotMessages } from './copilot';
import { cursorMessages } from './cursor';
import { geminiMessages } from './gemini';
import type { MessagesOf, UserWords } from './userWords';
import { readUserWords } from './userWords';

export type TranscriptFormat = 'claude' | 'codex' | 'gemini' | 'cursor' | 'copilot';

const READERS: Record<TranscriptFormat, MessagesOf> = {
  claude: claudeMessages,
  codex: codexMessages,
  gemini: geminiMessages,
  cursor: cursorMessages,
  copilot: copilotMessages,
};

/**
 * The user's words in `file`, read as `format`, or by the first reader that
 * finds any when the format is unknown. Throws only when the file cannot be
 * opened; a file of another format, or one torn anywhere, reads as no words.
 */
export function userWordsIn(file: string, format: TranscriptFormat | 'unknown', recent = 3): UserWords {
  if (format !== 'unknown') return readUserWords(file, READERS[format], recent);
  for (const f of Object.keys(READERS) as TranscriptFormat[]) {
    const words = readUserWords(file, READERS[f], recent);
    if (words.opening || words.latest.length) return words;
  }
  return { opening: '', latest: [] };
}
