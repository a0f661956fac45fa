// @ts-check
/**
 * The content gate of .github/workflows/deploy.yml replayed on a clean clone, everything but the
 * upload: clone the committed HEAD, node_modules as the workflow gets it, `npm run content-gate`
 * (check, production build, checks of the built pages), each step timed.
 *
 *   npm run content-gate:replay [-- --runs 3] [-- --cold]
 *
 * node_modules: the workflow restores the last install of the same lockfile from its cache and
 * installs only when the lockfile changed (a change that is not content-only anyway). Here the
 * cache is a tar of node_modules in the system's temporary folder, keyed the same way, made by the
 * first run (whose install is then timed as a cache miss); --cold installs every time. No .cache/:
 * a clean clone builds cold, as a first deploy does (the workflow restores the previous deploy's
 * .cache/, so it builds faster there). With several runs it prints each step's median. The target
 * (issue 32): within 90 s here; about three minutes from push to live on GitHub's runner.
 */
import { spawn, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rename, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const COLD = process.argv.includes('--cold');
/** The workflow's cache key: OS, Node's major version, the lockfile. */
const MODULES_TAR = path.join(os.tmpdir(), `content-gate-modules-${process.platform}-node${process.versions.node.split('.')[0]}-${createHash('sha256').update(readFileSync(path.join(ROOT, 'package-lock.json'))).digest('hex').slice(0, 16)}.tar`);

/**
 * @param {string} cmd @param {string[]} args @param {string} cwd
 * @returns {Promise<string>} what it printed
 */
function run(cmd, args, cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env: { ...process.env, SITE_URL: process.env.SITE_URL ?? 'https://www.bayshinecleaning.com' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { out += d; });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`${cmd} ${args.join(' ')} failed (${code}):\n${out.slice(-4000)}`))));
  });
}

/** @returns {Promise<Map<string, number>>} step → seconds */
const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();

async function replay() {
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'content-gate-replay-'));
  const clone = path.join(tmp, 'site');
  /** @type {Map<string, number>} */
  const steps = new Map();
  const timed = async (/** @type {string} */ name, /** @type {() => Promise<string>} */ step) => {
    const start = performance.now();
    const out = await step();
    steps.set(name, (performance.now() - start) / 1000);
    return out;
  };
  try {
    await timed('git clone', async () => {
      await run('git', ['clone', '--quiet', '--no-checkout', ROOT, clone], tmp);
      return run('git', ['checkout', '--quiet', head], clone);
    });
    if (!COLD && existsSync(MODULES_TAR)) {
      await timed('node_modules from the cache', () => run('tar', ['-xf', MODULES_TAR], clone));
    } else {
      await timed(COLD ? 'npm install' : 'npm install (cache miss)', () => run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline'], clone));
      if (!COLD) {
        // Saved after the job, as actions/cache does: not timed.
        await run('tar', ['-cf', `${MODULES_TAR}.tmp`, 'node_modules'], clone);
        await rename(`${MODULES_TAR}.tmp`, MODULES_TAR);
      }
    }
    const out = await timed('npm run content-gate', () => run('npm', ['run', 'content-gate'], clone));
    // The gate's own lines: "   2.31 s  production build"
    for (const m of out.matchAll(/^ +(\d+\.\d+) s {2}(.+)$/gm)) steps.set(`  ${m[2]}`, Number(m[1]));
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
  return steps;
}

const runsArg = process.argv.indexOf('--runs');
const runs = runsArg > 0 ? Math.max(1, Number(process.argv[runsArg + 1]) || 1) : 1;
/** @type {Map<string, number>[]} */
const all = [];
for (let i = 0; i < runs; i++) {
  all.push(await replay());
  console.error(`run ${i + 1}/${runs}: ${[...all.at(-1)?.entries() ?? []].filter(([k]) => !k.startsWith(' ')).map(([k, v]) => `${k} ${v.toFixed(1)} s`).join(', ')}`);
}
const median = (/** @type {number[]} */ xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
console.log(`\nContent gate replayed on a clean clone of ${head.slice(0, 7)} (${runs === 1 ? '1 run' : `median of ${runs} runs`}, everything but the upload):`);
// In the order of the last run (a cache hit after the first), then what only other runs had.
const names = [...new Set([...(all.at(-1)?.keys() ?? []), ...all.flatMap((r) => [...r.keys()])])];
for (const name of names) {
  const times = all.flatMap((r) => (r.has(name) ? [r.get(name) ?? 0] : []));
  console.log(`${median(times).toFixed(1).padStart(7)} s  ${name}${times.length < all.length ? ` (${times.length} of ${all.length} runs)` : ''}`);
}
const total = median(all.map((r) => [...r].filter(([k]) => !k.startsWith(' ')).reduce((sum, [, s]) => sum + s, 0)));
console.log(`${total.toFixed(1).padStart(7)} s  in all (target: 90 s)`);
