// The multi-step input of Commit Checkpoint and Hand Off: one box per field,
// Back to revise, Escape to leave without writing anything. List fields take
// several items separated by `;` so a step stays one box.
import * as vscode from 'vscode';

export interface CommitAnswers {
  task: string;
  state: string;
  decided: string;
  failed: string;
  verified: string;
  blockers: string;
  next: string;
}

interface Step {
  key: keyof CommitAnswers;
  label: string;
  prompt: string;
  placeholder: string;
}

const STEPS: Step[] = [
  { key: 'task', label: 'Task', prompt: 'What was being done?', placeholder: 'e.g. fix the checkout crash on empty carts' },
  { key: 'state', label: 'State', prompt: 'Where does it stand?', placeholder: 'e.g. crash fixed, refund path untested' },
  { key: 'decided', label: 'Decided', prompt: 'Choices made, with the reason; separate several with ;', placeholder: 'e.g. kept sql.js: native sqlite breaks in forks' },
  {
    key: 'failed',
    label: "Didn't work",
    prompt: 'Approaches tried and ruled out, so nobody retries them; separate with ;',
    placeholder: 'e.g. retrying the payment call: the crash is before it',
  },
  { key: 'verified', label: 'Verified', prompt: 'Claims with their evidence; separate with ;', placeholder: 'e.g. empty cart no longer crashes: npm test -- checkout' },
  { key: 'blockers', label: 'Blockers', prompt: 'What is known broken and what it stops; separate with ;', placeholder: 'e.g. staging keys expired: no end-to-end run' },
  { key: 'next', label: 'Next', prompt: 'The one next step for whoever continues', placeholder: 'e.g. add the refund test' },
];

export interface AskOptions {
  title: string;
  prefill: Partial<CommitAnswers>;
  /** Said under the State step: which working notes the commit will fold in. */
  notesHint: string;
}

type Outcome = { go: 'next'; value: string } | { go: 'back' } | { go: 'cancel' };

/** Undefined when the person pressed Escape (or focus left the input) at any step. */
export async function askCommit(opts: AskOptions): Promise<CommitAnswers | undefined> {
  const answers: CommitAnswers = { task: '', state: '', decided: '', failed: '', verified: '', blockers: '', next: '', ...opts.prefill };
  for (let i = 0; i < STEPS.length;) {
    const step = STEPS[i];
    const outcome = await ask(step, i, answers[step.key], opts);
    if (outcome.go === 'cancel') return undefined;
    if (outcome.go === 'back') {
      i = Math.max(0, i - 1);
      continue;
    }
    answers[step.key] = outcome.value;
    i += 1;
  }
  return answers;
}

function ask(step: Step, index: number, value: string, opts: AskOptions): Promise<Outcome> {
  return new Promise<Outcome>((resolve) => {
    const box = vscode.window.createInputBox();
    const disposables: vscode.Disposable[] = [box];
    let settled = false;
    const settle = (o: Outcome): void => {
      if (settled) return;
      settled = true;
      resolve(o);
      disposables.forEach((d) => d.dispose());
    };
    box.title = `${opts.title}: ${step.label}`;
    box.step = index + 1;
    box.totalSteps = STEPS.length;
    box.prompt = step.key === 'state' && opts.notesHint ? `${step.prompt} ${opts.notesHint}` : `${step.prompt} (Enter to skip)`;
    box.placeholder = step.placeholder;
    box.value = value;
    // A prefilled suggestion is selected, so typing replaces it.
    if (value) box.valueSelection = [0, value.length];
    box.ignoreFocusOut = true;
    if (index > 0) box.buttons = [vscode.QuickInputButtons.Back];
    disposables.push(
      box.onDidTriggerButton((b) => b === vscode.QuickInputButtons.Back && settle({ go: 'back' })),
      box.onDidAccept(() => settle({ go: 'next', value: box.value.trim() })),
      box.onDidHide(() => settle({ go: 'cancel' })),
    );
    box.show();
  });
}
