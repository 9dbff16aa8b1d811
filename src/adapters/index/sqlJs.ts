// sql.js is WASM: no native module, so the same index runs in every VS Code,
// fork and Node. The binary is shipped beside the bundle (dist/sql-wasm.wasm);
// from sources it is found in node_modules.
import * as fs from 'fs';
import * as path from 'path';
import initSqlJs, { type SqlJsStatic } from 'sql.js';

let loading: Promise<SqlJsStatic> | undefined;

// Bundled: dist/sql-wasm.wasm beside the bundle. From sources (tests):
// src/adapters/index -> the repository's node_modules.
const CANDIDATES = [
  path.join(__dirname, 'sql-wasm.wasm'),
  path.join(__dirname, '..', '..', '..', 'node_modules', 'sql.js', 'dist', 'sql-wasm.wasm'),
];

function wasmPath(): string {
  const found = CANDIDATES.find((p) => fs.existsSync(p));
  if (!found) throw new Error(`sql-wasm.wasm is missing (looked in ${CANDIDATES.join(', ')}); rebuild with npm run build.`);
  return found;
}

/** Loads the WASM module once per process. */
export function loadSqlJs(): Promise<SqlJsStatic> {
  loading ??= initSqlJs({ wasmBinary: fs.readFileSync(wasmPath()) as unknown as ArrayBuffer });
  return loading;
}
