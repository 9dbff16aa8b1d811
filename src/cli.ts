// The entry point. A hook call (`baton hook AGENT EVENT`) fires after every
// tool an agent runs, so it takes a short path that never loads the commands,
// the core's index or git; everything else goes through the full CLI.
import { processIo } from './cli/processIo';
import { hookArgs, runHook } from './hooks/hookMain';

const argv = process.argv.slice(2);
const done = (code: number): void => {
  process.exitCode = code;
};
const call = hookArgs(argv);
if (call) {
  // A hook never fails the agent.
  runHook(call, processIo()).then(done, () => done(0));
} else {
  import('./cli/run')
    .then(({ run }) => run(argv, processIo()))
    .then(done, (err) => {
      process.stderr.write(`baton: ${String(err)}\n`);
      done(1);
    });
}
