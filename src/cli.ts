import { processIo } from './cli/processIo';
import { run } from './cli/run';

run(process.argv.slice(2), processIo()).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`baton: ${String(err)}\n`);
    process.exitCode = 1;
  },
);
