// @ts-check
/**
 * The content gate of .github/workflows/deploy.yml replayed on a clean clone, everything but the
 * upload: clone the committed HEAD, `npm install` as the workflow does, `npm run content-gate`
 * (check, production build, checks of the built pages), each step timed.
 *
 *   npm run content-gate:replay [-- --runs 3]
 *
 * With several runs it prints each step's median. The target (issue 32): within 90 s here, about
 * three minutes from push to live on GitHub's runner. No .cache/: a clean clone builds cold, as a
 * first deploy does (the workflow restores the previous deploy's .cache/, so it is faster there).
 */
import { spawn, execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

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
async function replay() {
  const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
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
    await timed('npm install', () => run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline'], clone));
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
console.log(`\nContent gate replayed on a clean clone of ${execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim()} (${runs === 1 ? '1 run' : `median of ${runs} runs`}, everything but the upload):`);
for (const name of all[0]?.keys() ?? []) console.log(`${median(all.map((r) => r.get(name) ?? 0)).toFixed(1).padStart(7)} s  ${name}`);
const total = median(all.map((r) => [...r].filter(([k]) => !k.startsWith(' ')).reduce((sum, [, s]) => sum + s, 0)));
console.log(`${total.toFixed(1).padStart(7)} s  in all (target: 90 s)`);
