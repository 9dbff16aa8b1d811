// Seeds a small, clearly labelled demo: a workspace (a tiny shop app in a git
// repository) and a vault of checkpoints about it, written through the real
// CLI so the files are exactly what agents would write. Used only when the
// person has no vault of their own; never writes into a real vault.
'use strict';

const { execFileSync } = require('child_process');
const fs = require('fs');
const path = require('path');

const DAY = 86400;
const HOUR = 3600;

const FILES = {
  'README.md': '# Demo shop (Baton demo data)\n\nA tiny app the demo checkpoints talk about. Safe to delete.\n',
  '.baton-project': '# Baton demo: this folder is the project "demo-shop"\ndemo-shop\n',
  'src/checkout/cart.ts': 'export function total(items: { price: number; qty: number }[]): number {\n  return items.reduce((sum, i) => sum + i.price * i.qty, 0);\n}\n',
  'src/checkout/payment.ts':
    'export async function charge(amountCents: number): Promise<string> {\n  if (amountCents <= 0) throw new Error("nothing to charge");\n  return "ch_demo";\n}\n',
  'src/pricing/PricingTable.tsx': 'export function PricingTable() {\n  return null; // the annual toggle goes here\n}\n',
  'src/auth/session.ts': 'export const SESSION_TTL_SECONDS = 3600;\n',
};

function git(cwd, ...args) {
  execFileSync('git', ['-c', 'user.email=demo@baton.invalid', '-c', 'user.name=Baton Demo', ...args], { cwd, stdio: 'ignore' });
}

function seedDemo({ root, cli }) {
  const workspace = path.join(root, 'workspace');
  const vault = path.join(root, 'vault');
  if (fs.existsSync(path.join(vault, 'sessions'))) return { workspace, vault, seeded: false };
  fs.mkdirSync(workspace, { recursive: true });
  for (const [rel, text] of Object.entries(FILES)) {
    fs.mkdirSync(path.dirname(path.join(workspace, rel)), { recursive: true });
    fs.writeFileSync(path.join(workspace, rel), text);
  }
  try {
    git(workspace, 'init', '-q');
    git(workspace, 'add', '.');
    git(workspace, 'commit', '-qm', 'Demo shop');
  } catch {
    // git is optional for the demo: views work without it
  }
  fs.mkdirSync(vault, { recursive: true, mode: 0o700 });
  fs.writeFileSync(
    path.join(vault, 'DEMO-README.md'),
    '# Baton demo vault\n\nDEMO DATA written by `npm start` because you have no vault yet. Delete this folder any time.\n' +
      'Your real vault is ~/baton (or BATON_VAULT); Baton never mixes the two.\n',
  );
  const now = Math.floor(Date.now() / 1000);
  const run = (args, input) => execFileSync(process.execPath, [cli, '--vault', vault, ...args], { cwd: workspace, input: input ?? '', stdio: ['pipe', 'ignore', 'inherit'] });
  const at = (ago) => String(now - ago);

  run([
    'checkpoint',
    '-p',
    'demo-shop',
    '-a',
    'codex',
    '--at',
    at(6 * DAY),
    '--task',
    'Add a cart total',
    '--file',
    'src/checkout/cart.ts',
    '--verified',
    'totals of 0, 1 and 3 items — npm test -- cart',
    '--next',
    'take payment',
  ]);
  run(['note', '-p', 'demo-shop', '-a', 'claude', '--at', at(2 * DAY + HOUR), 'stripe test clock cannot replay webhooks']);
  run([
    'checkpoint',
    '-p',
    'demo-shop',
    '-a',
    'claude',
    '--at',
    at(2 * DAY),
    '--task',
    'Fix the checkout crash on an empty cart',
    '--state',
    'charge() now refuses zero amounts; the crash is gone',
    '--failed',
    'mocking the Stripe SDK: webhooks cannot be replayed, tests pass but prod still crashes',
    '--failed',
    'catching the error in the controller: hides the bug, cart shows £0.00 paid',
    '--decided',
    'refuse amounts <= 0 in charge(): one guard, closest to the money',
    '--verified',
    'empty cart no longer crashes — npm test -- checkout',
    '--ran',
    'npm test -- checkout',
    '--file',
    'src/checkout/payment.ts',
    '--file',
    'src/checkout/cart.ts',
    '--next',
    'Show a friendly message for an empty cart',
    '--handoff',
    'cursor',
  ]);
  run(
    ['plan', '-p', 'demo-shop', '-a', 'claude', '--at', at(DAY + 2 * HOUR)],
    '1. Add an annual/monthly toggle to PricingTable\n2. Persist the choice in the URL\n3. Test both prices\n',
  );
  run([
    'checkpoint',
    '-p',
    'demo-shop/annual-toggle',
    '-a',
    'cursor',
    '--at',
    at(DAY),
    '--task',
    'Annual pricing toggle',
    '--failed',
    'CSS-only toggle: screen readers never announce the price change',
    '--blocker',
    'design has not picked the discount (15% or 20%?)',
    '--question',
    'Is annual billed upfront?',
    '--file',
    'src/pricing/PricingTable.tsx',
    '--next',
    'wire the toggle state into the URL',
  ]);
  run(['note', '-p', 'demo-shop', '-a', 'copilot', '--at', at(9 * HOUR), 'started moving session TTL into config']);
  run(['note', '-p', 'demo-shop', '-a', 'copilot', '--at', at(8 * HOUR), 'half the callers read SESSION_TTL_SECONDS directly']);
  run(['note', '-p', 'demo-shop', '-a', 'claude', '--at', at(20 * 60), 'empty-cart message: using the existing Toast component']);
  run([
    'checkpoint',
    '-p',
    'old-prototype',
    '-a',
    'codex',
    '--at',
    at(40 * DAY),
    '--task',
    'Spike: GraphQL gateway',
    '--failed',
    'schema stitching: too slow at 200 types',
    '--next',
    'nothing: shelved',
  ]);
  return { workspace, vault, seeded: true };
}

module.exports = { seedDemo };
