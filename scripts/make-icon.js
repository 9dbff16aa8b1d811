#!/usr/bin/env node
// Renders media/baton.svg (the activity-bar glyph, drawn in currentColor) onto
// a dark rounded square at 128×128 and writes media/icon.png, the icon the
// Marketplace and Open VSX show (package.json "icon"; vsce rejects SVG there).
// Uses playwright-core with Debian's chromium (scripts/system-deps.sh), the same
// browser the UI tests use. The PNG is committed; rerun this after changing the SVG:
//
//   node scripts/make-icon.js [--out media/icon.png]
'use strict';

const fs = require('fs');
const path = require('path');

const ROOT = path.resolve(__dirname, '..');
const CHROMIUM = process.env.BATON_CHROMIUM || '/usr/bin/chromium';
const SIZE = 128;
const BACKGROUND = '#1e2a3a'; // galleryBanner.color in package.json
const FOREGROUND = '#f5b942';

async function main() {
  const outArg = process.argv.indexOf('--out');
  const out = path.resolve(ROOT, outArg > 0 ? process.argv[outArg + 1] : 'media/icon.png');
  const svg = fs.readFileSync(path.join(ROOT, 'media', 'baton.svg'), 'utf8');
  if (!fs.existsSync(CHROMIUM)) throw new Error(`no browser at ${CHROMIUM}: bash scripts/system-deps.sh (or set BATON_CHROMIUM)`);
  const { chromium } = require('playwright-core');
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: SIZE, height: SIZE }, deviceScaleFactor: 1 });
    // The glyph is 24×24 with strokes near its edges: scaled to 88 px it leaves a 20 px margin.
    const html = `<!doctype html><html><head><style>
      html, body { margin: 0; width: ${SIZE}px; height: ${SIZE}px; background: transparent; }
      #bg { width: ${SIZE}px; height: ${SIZE}px; border-radius: 24px; background: ${BACKGROUND};
            display: flex; align-items: center; justify-content: center; color: ${FOREGROUND}; }
      #bg svg { width: 88px; height: 88px; }
    </style></head><body><div id="bg">${svg}</div></body></html>`;
    await page.setContent(html);
    await page.locator('#bg').screenshot({ path: out, omitBackground: true });
  } finally {
    await browser.close();
  }
  process.stdout.write(`make-icon: wrote ${path.relative(ROOT, out)} (${SIZE}×${SIZE})\n`);
}

main().catch((err) => {
  process.stderr.write(`make-icon: ${err.stack || err}\n`);
  process.exit(1);
});
