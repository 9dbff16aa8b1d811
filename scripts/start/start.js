#!/usr/bin/env node
// `npm start`: builds Baton and opens it in VS Code. With no vault of your own
// it seeds a clearly labelled demo (a tiny shop app and checkpoints about it)
// in .demo/, never in your real vault. Opens the desktop `code` when it is on
// PATH, else VS Code in the browser on 127.0.0.1, and prints the URL.
'use strict';

const { execFileSync, spawn, spawnSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { seedDemo } = require('./seed-demo');

const ROOT = path.resolve(__dirname, '..', '..');
const CLI = path.join(ROOT, 'dist', 'cli.js');

const say = (msg) => process.stdout.write(`[baton] ${msg}\n`);

/** The person's own vault, the same rule as the CLI: env vars, else ~/baton. Null when it holds nothing yet. */
function ownVault() {
  const pick = [process.env.BATON_VAULT, process.env.LOGOS_VAULT, process.env.BRAIN_VAULT].find((v) => v && v.trim());
  const dir = path.resolve(pick ? pick.replace(/^~(?=$|\/)/, os.homedir()) : path.join(os.homedir(), 'baton'));
  return fs.existsSync(path.join(dir, 'sessions')) ? dir : null;
}

const onPath = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;

async function browserVsCode(workspace, vault) {
  execFileSync('bash', [path.join(ROOT, 'scripts', 'system-deps.sh')], { stdio: 'inherit' });
  const { ensureFlavour } = require('../vscode-test/install');
  const { Session, startServer, workbenchUrl } = require('../vscode-test/harness');
  const info = await ensureFlavour('stable');
  const state = path.join(ROOT, '.demo', 'vscode');
  const dirs = { userData: path.join(state, 'user'), serverData: path.join(state, 'server'), extensions: path.join(state, 'extensions') };
  for (const d of Object.values(dirs)) fs.mkdirSync(d, { recursive: true });
  for (const scope of ['User', 'Machine']) {
    fs.mkdirSync(path.join(dirs.userData, scope), { recursive: true });
    fs.writeFileSync(path.join(dirs.userData, scope, 'settings.json'), JSON.stringify({ 'baton.vault': vault, 'workbench.startupEditor': 'none' }, null, 2));
  }
  const session = new Session('start');
  const env = { ...process.env, BATON_VAULT: vault };
  delete env.ELECTRON_RUN_AS_NODE;
  const server = await startServer(session, info, dirs, env, path.join(state, 'server.log'));
  const url = workbenchUrl(server, { workspace, extensionPath: ROOT });
  say(`VS Code ${info.vscodeVersion} is serving Baton on ${server.url} (server pid ${server.pid}).`);
  say(`Open this in your browser:\n\n  ${url}\n`);
  say('Press Ctrl-C to stop.');
  await new Promise(() => {});
}

async function main() {
  say('building');
  execFileSync(process.execPath, [path.join(ROOT, 'esbuild.js')], { cwd: ROOT, stdio: 'inherit' });
  let vault = ownVault();
  let workspace = process.cwd();
  if (vault) {
    say(`using your vault ${vault}`);
  } else {
    const demo = seedDemo({ root: path.join(ROOT, '.demo'), cli: CLI });
    vault = demo.vault;
    workspace = demo.workspace;
    say(`${demo.seeded ? 'seeded' : 'using'} the DEMO vault ${vault} (demo data only; your real vault would be ~/baton or BATON_VAULT)`);
  }
  if (onPath('code') && !process.env.BATON_START_BROWSER) {
    say(`opening VS Code on ${workspace}`);
    spawn('code', ['--new-window', `--extensionDevelopmentPath=${ROOT}`, workspace], {
      stdio: 'inherit',
      env: { ...process.env, BATON_VAULT: vault },
    }).on('exit', (code) => process.exit(code ?? 0));
    return;
  }
  await browserVsCode(workspace, vault);
}

main().catch((err) => {
  process.stderr.write(`[baton] ${err && err.message ? err.message : err}\n`);
  process.exit(1);
});
