// sql.js is WASM: no native module, so the same index runs in every VS Code,
// fork and Node. The binary is shipped beside the bundle (dist/sql-wasm.wasm);
// from sources it is found in node_modules.
import * as fs from 'fs';
import * as path from 'path';
import initSqlJs, { type SqlJsStatic } from 'sql.js';

let loading: Promise<SqlJsStatic> | undefined;

function wasmPath(): string {
  const beside = path.join(__dirname, 'sql-wasm.wasm');
  if (fs.existsSync(beside)) return beside;
  return require.resolve('sql.js/dist/sql-wasm.wasm');
}

/** Loads the WASM module once per process. */
export function loadSqlJs(): Promise<SqlJsStatic> {
  loading ??= initSqlJs({ wasmBinary: fs.readFileSync(wasmPath()) as unknown as ArrayBuffer });
  return loading;
}
