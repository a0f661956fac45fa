// @ts-check
/**
 * The commands (cli/commands.ts), the build's render workers and its asset helper run as
 * JavaScript compiled once per state of their sources, not type-stripped module by module on every
 * start (tsx took much of each command's time there). esbuild bundles the TypeScript each entry
 * reaches (the build, and for the commands that start them the local servers, the stand-in, the
 * content manager and the inbox, with what they import from contracts/, templates/, src/,
 * supabase/) into .cache/code/<digest>/, with the npm packages of BUNDLED; the others stay
 * imports. A dynamic import becomes a chunk loaded only when a command needs it. It lives with the
 * build, whose workers start from it; cli/main.mjs starts the commands from it.
 *
 * The digest is of every source file the compile read (path and bytes; a bundled package by its
 * package.json), this file and esbuild's version. A start reads the files the last compile read
 * and looks for the folder of their digest: any change among them, or one gone, compiles again
 * (a short wait); a file nobody imported before can only matter through one of them
 * changing. A compile writes into a folder of its own and renames it into place, so two processes
 * starting at once both end up with a whole one.
 *
 * Plain JavaScript, as it runs before anything can load TypeScript.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The repository the generator's sources are in (this file is generator/runtime/compiled.mjs). */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * npm packages compiled into the bundle with our code (and the packages they import, but for
 * SHARED), not loaded module by module at each start: plain JavaScript made of many small files.
 * remark alone loads far faster bundled than as its many files. The others stay imports:
 * native code, WebAssembly or files found beside their own (sharp, PGlite, Vite, Tailwind,
 * HarfBuzz), React (one copy shared with react-dom), and what only some commands use.
 */
const BUNDLED = new Set(['remark', 'remark-html', 'zod', 'yaml', 'js-yaml', 'gray-matter', 'ajv', 'ajv-formats', 'lucide-react']);
/** Never bundled, even when a bundled package imports them: there must be one copy. */
const SHARED = new Set(['react', 'react-dom']);

/** Modules started by path rather than imported: the command line, a render worker, an asset job's process. */
const ENTRIES = {
  cli: 'cli/commands.ts',
  worker: 'generator/render/worker.ts',
  assetHelper: 'generator/assets/helper/entry.ts',
};

/** @typedef {keyof typeof ENTRIES} EntryName */

/** A compiled folder not used for this long is removed when another compile finishes. */
const UNUSED_MS = 60 * 60 * 1000;

/**
 * The compiled code of the sources as they are now, compiled first if they changed.
 * @param {{ root?: string, onCompile?: () => void }} [options] root: the repository (tests compile a
 *   copy of it); onCompile: called when it has to compile, before it does
 * @returns {Promise<{ dir: string, entry: (name: EntryName) => string }>} entry: a file: URL to import
 */
export async function compiledCode({ root: given = ROOT, onCompile } = {}) {
  const root = path.resolve(given);
  const cacheDir = path.join(root, '.cache', 'code');
  const dir = findCompiled(root, cacheDir) ?? await compileOnce(root, cacheDir, onCompile);
  return { dir, entry: (name) => pathToFileURL(path.join(dir, `${name}.mjs`)).href };
}

/** The compile of each root under way in this process: a second caller waits for it. */
const compiling = new Map();

/**
 * @param {string} root
 * @param {string} cacheDir
 * @param {(() => void) | undefined} onCompile
 * @returns {Promise<string>}
 */
function compileOnce(root, cacheDir, onCompile) {
  let pending = compiling.get(root);
  if (!pending) {
    onCompile?.();
    pending = compile(root, cacheDir).finally(() => compiling.delete(root));
    compiling.set(root, pending);
  }
  return pending;
}

/** Compiles under way in this process: they share esbuild's one service, stopped when none is left. */
let running = 0;

/**
 * @param {string} root
 * @param {string} cacheDir
 * @returns {string | undefined} the folder compiled from the sources as they are now, if there is one
 */
function findCompiled(root, cacheDir) {
  /** @type {string[]} */
  let inputs;
  try {
    inputs = JSON.parse(readFileSync(path.join(cacheDir, 'latest.json'), 'utf8')).inputs;
  } catch {
    return undefined;
  }
  /** @type {[string, Buffer][]} */
  const files = [];
  for (const rel of inputs) {
    try {
      files.push([rel, readFileSync(path.join(root, rel))]);
    } catch {
      return undefined; // gone: its importer changed too, or the compile fails as it should
    }
  }
  const dir = path.join(cacheDir, digestOf(root, files));
  try {
    // Marks it used, so no other compile removes it as unused.
    const now = new Date();
    utimesSync(dir, now, now);
  } catch {
    return undefined;
  }
  return dir;
}

/**
 * The compiled folder's name: the sources' paths and bytes, the compiler and how it is called.
 * @param {string} root
 * @param {[string, Buffer][]} files
 */
function digestOf(root, files) {
  const hash = createHash('sha256');
  const esbuildPackage = createRequire(import.meta.url).resolve('esbuild/package.json');
  // The root is in the code (each module's import.meta.url), so a moved copy compiles again.
  hash.update(JSON.stringify({ root, esbuild: JSON.parse(readFileSync(esbuildPackage, 'utf8')).version }));
  hash.update(readFileSync(fileURLToPath(import.meta.url)));
  for (const [rel, bytes] of [...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    hash.update(`\0${rel}\0${bytes.length}\0`).update(bytes);
  }
  return hash.digest('hex').slice(0, 24);
}

/** Loaders for the files a compile may read; anything else in the sources is an error. */
const LOADERS = /** @type {const} */ ({ '.ts': 'ts', '.tsx': 'tsx', '.mts': 'ts', '.js': 'js', '.mjs': 'js', '.cjs': 'js', '.json': 'json' });

/** The package a bare import names: `ajv/dist/2020.js` → ajv, `@scope/name/x` → @scope/name. */
const packageOf = (/** @type {string} */ specifier) => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');

/**
 * A file of an npm package stands for its package: the package.json (its version) is what the
 * digest reads, not each of the package's files.
 * @param {string} file
 */
function packageJsonOf(file) {
  const parts = file.split(path.sep);
  const at = parts.lastIndexOf('node_modules');
  if (at < 0) return undefined;
  const name = parts[at + 1]?.startsWith('@') ? 2 : 1;
  return [...parts.slice(0, at + 1 + name), 'package.json'].join(path.sep);
}

/**
 * Compile the entries into a staging folder, rename it into place and record what it read.
 * @param {string} root
 * @param {string} cacheDir
 * @returns {Promise<string>}
 */
async function compile(root, cacheDir) {
  const { build, transform, stop } = await import('esbuild');
  mkdirSync(cacheDir, { recursive: true });
  const staging = path.join(cacheDir, `.staging-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}`);
  /** @type {Map<string, Buffer>} the bytes esbuild compiled, by path relative to root */
  const read = new Map();
  // Counted where the finally below is sure to count it off.
  running++;
  try {
    await build({
      absWorkingDir: root,
      entryPoints: ENTRIES,
      outdir: staging,
      outExtension: { '.js': '.mjs' },
      chunkNames: 'chunks/[name]-[hash]',
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node20.19',
      jsx: 'automatic',
      // Bundled CommonJS packages require Node's own modules.
      banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
      // The compile options are these, whatever tsconfig.json says (it is for the type checker).
      tsconfigRaw: {},
      sourcemap: 'linked',
      sourcesContent: false,
      legalComments: 'none',
      logLevel: 'silent',
      plugins: [{
        name: 'sources',
        setup(b) {
          b.onResolve({ filter: /^[^./]/ }, ({ path: specifier, importer }) => {
            if (isBuiltin(specifier)) return { external: true };
            const name = packageOf(specifier);
            const byPackage = importer.split(path.sep).includes('node_modules');
            return BUNDLED.has(name) || (byPackage && !SHARED.has(name)) ? undefined : { external: true };
          });
          b.onLoad({ filter: /.*/ }, async (args) => {
            const ext = /** @type {keyof typeof LOADERS} */ (path.extname(args.path));
            const loader = LOADERS[ext];
            if (!loader) return { errors: [{ text: `the generator cannot import ${path.relative(root, args.path)} (not TypeScript, JavaScript or JSON)` }] };
            const bytes = readFileSync(args.path);
            const packageJson = packageJsonOf(args.path);
            if (packageJson) {
              // A compiled-in package counts by its package.json (name and version), read once.
              const key = path.relative(root, packageJson).split(path.sep).join('/');
              if (!read.has(key)) read.set(key, readFileSync(packageJson));
              return { contents: bytes, loader };
            }
            read.set(path.relative(root, args.path).split(path.sep).join('/'), bytes);
            const text = bytes.toString('utf8');
            if (loader === 'json' || !text.includes('import.meta.url')) return { contents: text, loader };
            // Each module keeps its own import.meta.url (a bundle would share its chunk's): files
            // it finds beside it (migrations, the repository root) are found in the sources.
            const { code } = await transform(text, {
              loader, format: 'esm', jsx: 'automatic', tsconfigRaw: {}, sourcemap: 'inline', sourcefile: args.path,
              define: { 'import.meta.url': JSON.stringify(pathToFileURL(args.path).href) },
            });
            return { contents: code, loader: 'js' };
          });
        },
      }],
    });
  } catch (err) {
    rmSync(staging, { recursive: true, force: true });
    throw new Error(`Could not compile the generator:\n${formatBuildError(err)}`, { cause: err });
  } finally {
    // esbuild's service process would stay for the rest of the command and add to a cold build's
    // peak memory. Not while another compile uses it: its build would never settle.
    if (--running === 0) await stop();
  }
  const inputs = [...read.keys()].sort();
  const dir = path.join(cacheDir, digestOf(root, [...read]));
  try {
    renameSync(staging, dir);
  } catch {
    // Another process compiled the same sources first: its folder is the same code.
    rmSync(staging, { recursive: true, force: true });
    if (!existsSync(dir)) throw new Error(`Could not put the compiled generator in ${dir}`);
  }
  writeAtomicSync(path.join(cacheDir, 'latest.json'), JSON.stringify({ inputs }));
  removeUnused(cacheDir, dir);
  return dir;
}

/** @param {unknown} err */
function formatBuildError(err) {
  const errors = /** @type {{ errors?: { text: string, location?: { file: string, line: number, column: number, lineText: string } | null }[] }} */ (err).errors;
  if (!errors?.length) return String(err);
  return errors.map((e) => (e.location ? `${e.location.file}:${e.location.line}:${e.location.column + 1}: ${e.text}\n    ${e.location.lineText}` : e.text)).join('\n');
}

/**
 * @param {string} file
 * @param {string} text
 */
function writeAtomicSync(file, text) {
  const tmp = `${file}.${process.pid}-${Math.random().toString(36).slice(2)}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, file);
}

/**
 * Compiled folders of other states of the sources, unused for an hour (a running `npm run dev`
 * keeps the one it started from in use: its workers compile again when templates change).
 * @param {string} cacheDir
 * @param {string} keep
 */
function removeUnused(cacheDir, keep) {
  for (const name of readdirSync(cacheDir)) {
    const dir = path.join(cacheDir, name);
    if (dir === keep || name === 'latest.json') continue;
    try {
      if (Date.now() - statSync(dir).mtimeMs > UNUSED_MS) rmSync(dir, { recursive: true, force: true });
    } catch {
      // removed meanwhile by another process
    }
  }
}
