// The relative imports of a TypeScript file, and the files they resolve to:
// what the boundary rules judge. Read with the same parser ESLint uses, so a
// comment or a string that looks like an import is never taken for one.
import * as fs from 'node:fs';
import * as path from 'node:path';
import tseslint from 'typescript-eslint';

/**
 * Every module specifier `program` imports: static imports, re-exports and
 * dynamic `import('…')` of a string literal. `typeOnly` marks the ones erased
 * at compile time (`import type`, `export type`, or only `type` specifiers).
 */
export function importsOf(program, visitorKeys) {
  const out = [];
  const add = (node, source, typeOnly) => {
    if (source && typeof source.value === 'string') out.push({ node, specifier: source.value, typeOnly });
  };
  const walk = (node) => {
    if (!node || typeof node.type !== 'string') return;
    switch (node.type) {
      case 'ImportDeclaration':
        add(node, node.source, node.importKind === 'type' || (node.specifiers.length > 0 && node.specifiers.every((s) => s.importKind === 'type')));
        return;
      case 'ExportNamedDeclaration':
      case 'ExportAllDeclaration':
        if (node.source) add(node, node.source, node.exportKind === 'type');
        break;
      case 'ImportExpression':
        if (node.source.type === 'Literal') add(node, node.source, false);
        break;
    }
    for (const key of visitorKeys[node.type] ?? []) {
      const child = node[key];
      if (Array.isArray(child)) child.forEach(walk);
      else walk(child);
    }
  };
  walk(program);
  return out;
}

const EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.d.ts'];

/** The file a relative specifier names, as TypeScript would find it; null for a package or a missing file. */
export function resolveImport(fromFile, specifier) {
  if (!specifier.startsWith('.')) return null;
  const base = path.resolve(path.dirname(fromFile), specifier);
  const candidates = [...EXTENSIONS.map((e) => base + e), ...EXTENSIONS.map((e) => path.join(base, 'index' + e))];
  // `./x.js` written for ESM resolution names `./x.ts`.
  if (/\.[cm]?js$/.test(base)) candidates.unshift(base.replace(/\.([cm]?)js$/, '.$1ts'));
  return candidates.find((f) => isFile(f)) ?? null;
}

function isFile(f) {
  try {
    return fs.statSync(f).isFile();
  } catch {
    return false;
  }
}

// One lint run reads each file once; a file edited since (an editor's ESLint
// server lives long) is read again.
const cache = new Map();

/** The files `file` imports at run time (type-only imports are erased, so they make no cycle). */
export function runtimeDeps(file) {
  let mtime;
  try {
    mtime = fs.statSync(file).mtimeMs;
  } catch {
    return [];
  }
  const hit = cache.get(file);
  if (hit && hit.mtime === mtime) return hit.deps;
  let deps = [];
  try {
    const { ast, visitorKeys } = tseslint.parser.parseForESLint(fs.readFileSync(file, 'utf8'), { jsx: file.endsWith('x') });
    deps = importsOf(ast, visitorKeys)
      .filter((i) => !i.typeOnly)
      .map((i) => resolveImport(file, i.specifier))
      .filter((f) => f !== null);
  } catch {
    // A file that does not parse is ESLint's to report when it is linted.
  }
  cache.set(file, { mtime, deps });
  return deps;
}
