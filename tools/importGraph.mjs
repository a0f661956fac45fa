// @ts-check
/**
 * The repository's import graph: which source file imports which (type-only imports and dynamic
 * import() included, npm packages left out), its file cycles, its cycles between top-level folders,
 * and the imports a folder may not make (RULES: the map of docs/how-it-works.md). `npm test` runs
 * it (tests/repo/import-graph.test.ts), so a new cycle or a forbidden import fails CI;
 * `node tools/importGraph.mjs` prints the same report.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SOURCE = /\.(ts|tsx|mts|mjs|js)$/;

/**
 * What each part of the repository may import besides itself and npm packages: the map of
 * docs/how-it-works.md. A part is a folder; a file belongs to the longest one that holds it
 * (cms/app/ is the content manager's browser code, apart from the rest of cms/). A part listed
 * here may import the parts its list names and the folders below them; a folder not listed may
 * import nothing of ours.
 */
export const RULES = /** @type {const} */ ({
  // The languages are the leads' list (the edge functions can import only what is under supabase/).
  contracts: ['supabase/functions/_shared'],
  supabase: [],
  src: ['contracts', 'supabase/functions/_shared'],
  templates: ['contracts', 'src'],
  // The build: the orchestrator (generator/build.ts) and its folders. A stage imports only the
  // stages before it (content → model → plan → render → write) and the systems beside them (the
  // cache, the assets and their helper process, the compiled code); collections/ plug into plan.
  generator: ['contracts', 'generator'],
  'generator/runtime': [],
  'generator/cache': ['contracts'],
  'generator/assets': ['contracts', 'generator/cache', 'generator/runtime'],
  'generator/content': ['contracts', 'generator/cache'],
  'generator/model': ['contracts', 'supabase/functions/_shared', 'generator/cache', 'generator/content'],
  'generator/plan': ['contracts', 'generator/model'],
  'generator/collections': ['contracts', 'generator/content', 'generator/model', 'generator/plan'],
  'generator/render': ['contracts', 'templates', 'src', 'generator/runtime', 'generator/cache', 'generator/content', 'generator/model', 'generator/plan', 'generator/collections'],
  'generator/write': ['contracts', 'supabase/functions/_shared', 'generator/runtime'],
  'generator/backOffice': ['contracts', 'cms', 'staff', 'generator/cache', 'generator/assets', 'generator/plan', 'generator/collections', 'generator/write', 'generator/runtime'],
  cms: ['contracts', 'cms/app'],
  'cms/app': ['contracts', 'templates', 'src', 'supabase/functions/_shared'],
  staff: ['contracts', 'supabase', 'supabase-standin'],
  'staff/inbox': ['contracts', 'supabase/functions/_shared'],
  'supabase-standin': ['contracts', 'supabase'],
  serve: ['contracts', 'generator', 'supabase-standin'],
  ops: ['contracts', 'src', 'staff', 'supabase/functions/_shared'],
  cli: ['contracts', 'generator', 'serve', 'supabase-standin', 'cms', 'staff', 'ops', 'tools'],
  functions: ['contracts', 'cms', 'staff'],
  bench: ['contracts', 'generator', 'serve', 'staff', 'supabase-standin', 'tools'],
  docs: ['contracts', 'generator', 'serve', 'cms', 'tools'],
  tools: [],
  tests: ['*'],
});

/** Parts that only one file of another part may import: "from→to" → that file. */
export const ENTRY_ONLY = /** @type {Record<string, string[]>} */ ({
  // The build reaches the content manager and the inbox through one door.
  'generator/backOffice→cms': ['generator/backOffice/backOffice.ts'],
  'generator/backOffice→cms/app': ['generator/backOffice/backOffice.ts'],
  'generator/backOffice→staff': ['generator/backOffice/backOffice.ts'],
});

/** @param {string} file @returns {string} the part of RULES the file belongs to ('' for none) */
export function partOf(file) {
  return Object.keys(RULES).filter((p) => file.startsWith(`${p}/`)).sort((x, y) => y.length - x.length)[0] ?? '';
}

/** @returns {string[]} the repository's source files, as git lists them (tracked and new), relative */
export function sourceFiles(root = ROOT) {
  const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20 });
  return out.split('\n').filter((f) => SOURCE.test(f) && !f.startsWith('content/') && !f.includes('/fixtures/') && existsSync(path.join(root, f)));
}

/**
 * @param {string} from the importing file, relative
 * @param {string} specifier
 * @param {Set<string>} files
 */
function resolve(from, specifier, files) {
  if (!specifier.startsWith('.')) return undefined;
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
  const stem = base.replace(/\.(js|mjs|jsx)$/, '');
  if (!SOURCE.test(base) && !/\.(js|mjs|jsx)$/.test(base) && existsSync(path.join(ROOT, base)) && statSync(path.join(ROOT, base)).isFile()) return base;
  const candidates = [base, `${stem}.ts`, `${stem}.tsx`, `${stem}.mts`, `${stem}.mjs`, `${stem}.js`, `${base}/index.ts`, `${base}/index.tsx`];
  return candidates.find((c) => files.has(c)) ?? `?${base}`;
}

/** @returns {Map<string, string[]>} each file → the files it imports */
export function importGraph(root = ROOT) {
  const list = sourceFiles(root);
  const files = new Set(list);
  /** @type {Map<string, string[]>} */
  const graph = new Map();
  for (const file of list) {
    const text = readFileSync(path.join(root, file), 'utf8');
    const info = ts.preProcessFile(text, true, true);
    const specifiers = [...info.importedFiles, ...info.referencedFiles].map((f) => f.fileName);
    graph.set(file, [...new Set(specifiers.map((s) => resolve(file, s, files)).filter((f) => f !== undefined))]);
  }
  return graph;
}

/**
 * Strongly connected components of more than one node (or a node that imports itself), by Tarjan.
 * @param {Map<string, string[]>} graph
 * @returns {string[][]}
 */
export function cycles(graph) {
  let index = 0;
  /** @type {Map<string, number>} */ const order = new Map();
  /** @type {Map<string, number>} */ const low = new Map();
  /** @type {string[]} */ const stack = [];
  const onStack = new Set();
  /** @type {string[][]} */ const found = [];
  /** @param {string} v */
  const visit = (v) => {
    order.set(v, index); low.set(v, index); index++;
    stack.push(v); onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!order.has(w)) { visit(w); low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0)); }
      else if (onStack.has(w)) low.set(v, Math.min(low.get(v) ?? 0, order.get(w) ?? 0));
    }
    if (low.get(v) === order.get(v)) {
      /** @type {string[]} */ const component = [];
      let w;
      do { w = /** @type {string} */ (stack.pop()); onStack.delete(w); component.push(w); } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!order.has(v)) visit(v);
  return found;
}

/** @param {string} file */
export const folderOf = (file) => (file.includes('/') ? file.slice(0, file.indexOf('/')) : '.');

/** @param {Map<string, string[]>} graph @returns {Map<string, string[]>} top-level folder → folders it imports */
export function folderGraph(graph) {
  /** @type {Map<string, Set<string>>} */
  const folders = new Map();
  for (const [from, tos] of graph) {
    const set = folders.get(folderOf(from)) ?? new Set();
    folders.set(folderOf(from), set);
    for (const to of tos) if (!to.startsWith('?') && folderOf(to) !== folderOf(from)) set.add(folderOf(to));
  }
  return new Map([...folders].map(([k, v]) => [k, [...v].sort()]));
}

/**
 * Each part of RULES → the parts it imports: the stages of generator/ must not import each other
 * both ways, even where each import alone is allowed.
 * @param {Map<string, string[]>} graph @returns {Map<string, string[]>}
 */
export function partGraph(graph) {
  /** @type {Map<string, Set<string>>} */
  const parts = new Map();
  for (const [from, tos] of graph) {
    const a = partOf(from);
    if (!a) continue;
    const set = parts.get(a) ?? new Set();
    parts.set(a, set);
    for (const to of tos) if (!to.startsWith('?') && partOf(to) && partOf(to) !== a) set.add(partOf(to));
  }
  return new Map([...parts].map(([k, v]) => [k, [...v].sort()]));
}

/**
 * The report: file cycles, folder cycles, imports RULES or ENTRY_ONLY forbid, imports of files
 * that do not exist.
 * @param {string} [root]
 */
export function checkImports(root = ROOT) {
  const graph = importGraph(root);
  /** @type {string[]} */ const forbidden = [];
  /** @type {string[]} */ const missing = [];
  for (const [from, tos] of graph) {
    for (const to of tos) {
      if (to.startsWith('?')) { missing.push(`${from} → ${to.slice(1)}`); continue; }
      const a = partOf(from);
      const b = partOf(to);
      if (a === b || !a) continue;
      /** @type {readonly string[] | undefined} */
      const allowed = /** @type {Record<string, readonly string[]>} */ (RULES)[a];
      if (!allowed?.some((p) => p === '*' || to.startsWith(`${p}/`))) forbidden.push(`${from} → ${to} (${a}/ may not import ${b || folderOf(to)}/)`);
      const only = ENTRY_ONLY[`${a}→${b}`];
      if (only && !only.includes(from)) forbidden.push(`${from} → ${to} (only ${only.join(', ')} may import ${b}/)`);
    }
  }
  return { files: graph.size, fileCycles: cycles(graph), folderCycles: cycles(folderGraph(graph)), partCycles: cycles(partGraph(graph)), forbidden, missing };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const report = checkImports();
  console.log(`${report.files} files: ${report.fileCycles.length} file cycles, ${report.folderCycles.length} folder cycles, ${report.partCycles.length} part cycles, ${report.forbidden.length} forbidden imports, ${report.missing.length} unresolved`);
  for (const c of report.fileCycles) console.log(`file cycle: ${c.join(' ↔ ')}`);
  for (const c of report.folderCycles) console.log(`folder cycle: ${c.join(' ↔ ')}`);
  for (const c of report.partCycles) console.log(`part cycle: ${c.join(' ↔ ')}`);
  for (const f of report.forbidden) console.log(`forbidden: ${f}`);
  for (const f of report.missing) console.log(`unresolved: ${f}`);
  if (process.argv.includes('--folders')) for (const [k, v] of folderGraph(importGraph())) console.log(`${k} → ${v.join(', ')}`);
  process.exitCode = report.fileCycles.length || report.folderCycles.length || report.partCycles.length || report.forbidden.length || report.missing.length ? 1 : 0;
}
