// Baton's architecture as lint rules (a local plugin: eslint-plugin-import-x
// would need installing into the node_modules every worktree shares, and
// eslint-plugin-import does not support ESLint 10). Two rules:
// - `layers`: which top-level folder of src/ may import which: core ← adapters
//   ← app ← the doors (cli, mcp, hooks, vscode), and no door imports another.
//   Type-only imports count too: a type is part of what a layer knows.
// - `no-cycle`: no import cycle among the project's own files. Type-only
//   imports are erased at compile time and make no cycle; dynamic `import()`
//   does, since it is still a dependency at run time.
import * as path from 'node:path';
import { importsOf, resolveImport, runtimeDeps } from './importGraph.mjs';

const rel = (cwd, file) => path.relative(cwd, file).split(path.sep).join('/');

/** The layer of a file: its top-level folder under `root`; "" for a file directly in it (an entry point); null outside. */
function layerOf(root, file) {
  const r = path.relative(root, file);
  if (r.startsWith('..') || path.isAbsolute(r)) return null;
  const parts = r.split(path.sep);
  return parts.length === 1 ? '' : parts[0];
}

const layers = {
  meta: {
    type: 'problem',
    docs: { description: 'Imports follow the layers: core ← adapters ← app ← doors; no door imports another.' },
    schema: [
      {
        type: 'object',
        properties: {
          root: { type: 'string' },
          /** Per layer (a folder under root), the other layers it may import. */
          allow: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
          /** The doors: named in the message when one imports another. */
          doors: { type: 'array', items: { type: 'string' } },
        },
        required: ['root', 'allow'],
        additionalProperties: false,
      },
    ],
    messages: {
      unknownLayer: '{{file}} is in "{{layer}}", which is no layer of {{root}}/ (add it to baton/layers in eslint.config.mjs).',
      doorToDoor: 'The {{from}} door may not import the {{to}} door ({{target}}): share the use case through src/app, or hand it in from the entry point.',
      notAllowed: '{{from}} may import only {{allowed}}; {{target}} is in {{to}}. The direction is core ← adapters ← app ← doors.',
    },
  },
  create(context) {
    const opts = context.options[0];
    const root = path.resolve(context.cwd, opts.root);
    const file = context.filename;
    const from = layerOf(root, file);
    // Outside the tree, and entry points (the composition roots), import freely.
    if (from === null || from === '') return {};
    const allow = opts.allow[from];
    if (!allow) {
      return {
        Program(node) {
          context.report({ node, messageId: 'unknownLayer', data: { file: rel(context.cwd, file), layer: from, root: opts.root } });
        },
      };
    }
    const doors = new Set(opts.doors ?? []);
    return {
      Program(program) {
        for (const imp of importsOf(program, context.sourceCode.visitorKeys)) {
          const target = resolveImport(file, imp.specifier);
          if (!target) continue;
          const to = layerOf(root, target);
          if (to === null || to === from || allow.includes(to)) continue;
          const data = { from, to: to === '' ? 'an entry point' : to, target: rel(context.cwd, target), allowed: allow.length ? allow.join(', ') : 'itself' };
          context.report({ node: imp.node, messageId: doors.has(from) && doors.has(to) ? 'doorToDoor' : 'notAllowed', data });
        }
      },
    };
  },
};

const noCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'No import cycles among the project files (type-only imports excepted).' },
    schema: [],
    messages: { cycle: 'Import cycle: {{cycle}}.' },
  },
  create(context) {
    const file = context.filename;
    return {
      Program(program) {
        for (const imp of importsOf(program, context.sourceCode.visitorKeys)) {
          if (imp.typeOnly) continue;
          const first = resolveImport(file, imp.specifier);
          if (!first) continue;
          const cycle = pathBack(first, file);
          if (cycle) context.report({ node: imp.node, messageId: 'cycle', data: { cycle: [file, ...cycle].map((f) => rel(context.cwd, f)).join(' → ') } });
        }
      },
    };
  },
};

/** A chain of run-time imports from `start` back to `target` (ending in it), or null when there is none. */
function pathBack(start, target) {
  const seen = new Set();
  const stack = [[start, [start]]];
  while (stack.length) {
    const [at, trail] = stack.pop();
    if (at === target) return trail;
    if (seen.has(at)) continue;
    seen.add(at);
    for (const next of runtimeDeps(at)) if (!seen.has(next)) stack.push([next, [...trail, next]]);
  }
  return null;
}

export default { meta: { name: 'baton-boundaries' }, rules: { layers, 'no-cycle': noCycle } };
