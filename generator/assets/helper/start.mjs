// @ts-check
/**
 * How the asset helper process (generator/assets/helper/client.ts) is started, and its first code.
 *
 * The helper runs the compiled generator/assets/helper/entry.ts, but it is started from this plain
 * JavaScript file, before it knows where that is: its first message names the compiled entry,
 * which it then imports and hands every later message to. So the helper can start while the
 * generator is still being compiled (cli/main.mjs, `prestartAssetHelper`): a command that compiles
 * is a command whose assets are likely not cached either, and loading Vite and Tailwind's compiler
 * then overlaps the compile instead of following it.
 *
 * Plain JavaScript, as it runs before anything can load TypeScript.
 */
import { fork } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const THIS_FILE = fileURLToPath(import.meta.url);

/** The packages the asset jobs load first (the stylesheet and the island bundle). */
const WARM = ['vite', '@tailwindcss/node', '@tailwindcss/oxide'];

/**
 * Rolldown (Vite's bundler) allocates with mimalloc, which by default asks for transparent huge
 * pages (a 2 MiB page resident for each 4 KiB touched) and keeps freed memory for a second: the
 * three bundles, the stylesheet and the images in one process peak much higher with those
 * defaults than without. The user's own settings win.
 */
const ALLOCATOR_ENV = { MIMALLOC_ALLOW_THP: '0', MIMALLOC_PURGE_DELAY: '0' };

/**
 * A new helper process, waiting for the message that names its compiled entry
 * (`{ entry: <file: URL> }`); `warm`: load the asset jobs' packages meanwhile.
 * @param {{ cwd: string, warm?: boolean }} options
 */
export function forkAssetHelper({ cwd, warm = false }) {
  return fork(THIS_FILE, warm ? ['--warm'] : [], {
    cwd, env: { ...ALLOCATOR_ENV, ...process.env }, execArgv: ['--enable-source-maps'], stdio: ['ignore', 'pipe', 'pipe', 'ipc'], serialization: 'json',
  });
}

const PRESTARTED = Symbol.for('bayshine.prestartedAssetHelper');

/**
 * Start the helper now, for runInAssetHelper to take when the build asks for its first job
 * (`takePrestartedAssetHelper`). Until then it keeps nothing alive: a command that never needs it
 * exits as before, and the helper with it.
 * @param {string} cwd
 */
export function prestartAssetHelper(cwd) {
  const child = forkAssetHelper({ cwd, warm: true });
  child.on('error', () => {}); // a helper that cannot start is started again when needed
  for (const handle of handlesOf(child)) handle.unref?.();
  /** @type {Record<symbol, unknown>} */ (globalThis)[PRESTARTED] = { child, cwd: path.resolve(cwd) };
}

/**
 * The prestarted helper for `cwd`, once: kept alive from now on by its user.
 * @param {string} cwd
 * @returns {import('node:child_process').ChildProcess | undefined}
 */
export function takePrestartedAssetHelper(cwd) {
  const prestarted = claim();
  if (prestarted?.cwd !== path.resolve(cwd) || !prestarted.child.connected) {
    if (prestarted?.child.connected) prestarted.child.disconnect();
    return undefined;
  }
  for (const handle of handlesOf(prestarted.child)) handle.ref?.();
  return prestarted.child;
}

/**
 * Ends a prestarted helper no job took: once a build has its assets, it will not be needed (a
 * long-running `npm run dev` or `npm start` would otherwise keep it idle for the whole session).
 */
export function dropPrestartedAssetHelper() {
  const prestarted = claim();
  if (prestarted?.child.connected) prestarted.child.disconnect();
}

/** The prestarted helper, if any, taken out of its slot. */
function claim() {
  const slot = /** @type {Record<symbol, { child: import('node:child_process').ChildProcess, cwd: string } | undefined>} */ (globalThis);
  const prestarted = slot[PRESTARTED];
  slot[PRESTARTED] = undefined;
  return prestarted;
}

/**
 * What keeps this process alive while the child runs: the child, its IPC channel and its pipes.
 * @param {import('node:child_process').ChildProcess} child
 * @returns {{ ref?: () => void, unref?: () => void }[]}
 */
const handlesOf = (child) => /** @type {never[]} */ ([child, child.channel, child.stdout, child.stderr].filter(Boolean));

/** The helper process itself: started by forkAssetHelper. */
function serve() {
  // Closed by the build once nothing is left (or because the build ended): nothing more to do.
  process.on('disconnect', () => process.exit(0));
  if (process.argv.includes('--warm')) for (const name of WARM) import(name).catch(() => {});
  /** @type {unknown[]} */
  const early = [];
  /** @type {((message: never) => void) | undefined} */
  let handle;
  process.on('message', (/** @type {{ entry?: string }} */ message) => {
    if (handle) return handle(/** @type {never} */ (message));
    if (early.length || !message.entry) return void early.push(message);
    const { entry } = message;
    early.push(message);
    // The entry finds itself in argv[1], as a process started from it directly would
    // (helper/entry.ts starts threads from it).
    process.argv[1] = fileURLToPath(entry);
    import(entry).then((/** @type {{ serveJobs: () => (message: never) => void }} */ mod) => {
      handle = mod.serveJobs();
      // The jobs that came while it loaded, in order (the first message named the entry).
      for (const job of early.slice(1)) handle(/** @type {never} */ (job));
    }, (/** @type {unknown} */ err) => {
      console.error(err);
      process.exit(1);
    });
  });
}

if (process.argv[1] && pathToFileURL(process.argv[1]).href === import.meta.url && process.send) serve();
