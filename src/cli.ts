// The entry point of the `baton` process, and the one place that knows every
// door it can open: the CLI, and through it the MCP server (`baton mcp`) and
// the hooks (`baton hook`), handed to the CLI so no door imports another.
// A hook call fires after every tool an agent runs, so it takes a short path
// that never loads the commands, the core's index or git.
import type { OtherDoors } from './cli/run';
import { processIo } from './cli/processIo';
import { hookArgs } from './hooks/hookArgs';

const argv = process.argv.slice(2);
const done = (code: number): void => {
  process.exitCode = code;
};
// Loaded on use: the MCP SDK and the hooks' modules cost nothing to other commands.
const doors: OtherDoors = {
  mcp: (call) => import('./mcp/mcpCommand').then((m) => m.serveStdio(call)),
  hook: (call, args) => import('./hooks/hookMain').then((m) => m.runHook({ vault: call.vault, args }, call.io)),
};
const call = hookArgs(argv);
if (call) {
  // A hook never fails the agent.
  import('./hooks/hookMain').then((m) => m.runHook(call, processIo())).then(done, () => done(0));
} else {
  import('./cli/run')
    .then(({ run }) => run(argv, processIo(), doors))
    .then(done, (err) => {
      process.stderr.write(`baton: ${String(err)}\n`);
      done(1);
    });
}
