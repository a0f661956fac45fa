/**
 * npm run bench: build time and memory at 1,000, 10,000 and 50,000 city pages (BENCH_SIZES), the
 * dev server's update time for one edited city file, the bytes each page type sends (gzipped), and
 * Lighthouse performance on mobile for the six key pages. Medians of several runs; the machine is shared, so
 * compare ratios, not single figures. One section: npm run bench -- build|dev|weight|lighthouse.
 */
import '../generator/env.js';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { stringify } from 'yaml';
import { build } from '../generator/build.js';
import { DevSession, type DevUpdate } from '../generator/dev.js';
import { startServer } from '../generator/serve/server.js';
import { syntheticCity, syntheticContent } from './synthetic.js';

const run = promisify(execFile);
const root = process.cwd();
const sizes = (process.env.BENCH_SIZES ?? '1000,10000,50000').split(',').map(Number);
const runs = Number(process.env.BENCH_RUNS ?? 3);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

interface BuildRun { ms: number; pages: number; stages: Record<string, number>; maxRssMiB: number }

async function buildScale() {
  console.log(`\n## Build: synthetic city pages (each build a fresh process)`);
  console.log(`cold = .cache/ emptied first (nothing parsed or rendered before); warm = same input again, median of ${runs} runs. Times: build() from its start to dist/ in place (Node's start-up excluded). Peak memory: the whole process, render threads included.`);
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  const cold: BuildRun[] = [];
  console.log('| cities | pages | cold build | ms per page | cold peak memory | warm build | warm peak memory |\n|---:|---:|---:|---:|---:|---:|---:|');
  for (const cities of sizes) {
    const dir = await mkdtemp(path.join(os.tmpdir(), `bench-${cities}-`));
    try {
      const contentDir = await syntheticContent(root, dir, cities);
      const once = async () => {
        const { stdout } = await run('npx', ['tsx', 'bench/buildOnce.ts', contentDir, path.join(dir, 'dist')], { cwd: root, maxBuffer: 1 << 24 });
        return JSON.parse(stdout.trim().split('\n').at(-1)!) as BuildRun;
      };
      await rm(path.join(root, '.cache'), { recursive: true, force: true });
      const c = await once();
      cold.push(c);
      const warm: BuildRun[] = [];
      for (let i = 0; i < runs; i++) warm.push(await once());
      console.log(`| ${cities} | ${c.pages} | ${s(c.ms)} | ${(c.ms / c.pages).toFixed(2)} | ${Math.round(c.maxRssMiB)} MiB | ${s(median(warm.map((r) => r.ms)))} | ${Math.round(median(warm.map((r) => r.maxRssMiB)))} MiB |`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  // Linear means: ten times the pages, at most eleven times the time, in every stage.
  const stages = Object.keys(cold[0]?.stages ?? {});
  console.log(`\nCold build, time per stage${cold.length > 1 ? ', and its growth from one size to the next (pages ratio in the header)' : ''}:`);
  const header = ['stage', ...cold.map((c, i) => `${sizes[i]} cities${i ? ` (×${(c.pages / cold[i - 1]!.pages).toFixed(1)})` : ''}`)];
  console.log(`| ${header.join(' | ')} |\n|---|${cold.map(() => '---:').join('|')}|`);
  for (const stage of [...stages, 'total']) {
    const ms = (c: BuildRun) => (stage === 'total' ? c.ms : c.stages[stage] ?? 0);
    const cells = cold.map((c, i) => `${s(ms(c))}${i ? ` (×${(ms(c) / Math.max(1, ms(cold[i - 1]!))).toFixed(1)})` : ''}`);
    console.log(`| ${stage} | ${cells.join(' | ')} |`);
  }
}

async function devUpdate() {
  const cities = Number(process.env.BENCH_DEV_CITIES ?? 10000);
  console.log(`\n## npm run dev: one city file edited (${cities} cities; median of 7 edits, save → page written)`);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bench-dev-'));
  try {
    const contentDir = await syntheticContent(root, dir, cities);
    let resolveUpdate: ((u: DevUpdate) => void) | undefined;
    const session = new DevSession({ root, contentDir, outDir: path.join(dir, 'dist'), skipIslands: true }, (u) => {
      // Only this edit's update counts: other engineers may touch templates/ meanwhile.
      // A save is a truncate then a write: an update that saw the empty file in between is not the one.
      if (u.reason.includes('benchville-42') && !u.errors.length) resolveUpdate?.(u);
    });
    await session.start();
    const stop = await session.watch();
    const times: number[] = [];
    const pages: number[] = [];
    for (let i = 0; i < 7; i++) {
      const city = syntheticCity(42);
      city.page.tagline = `Edited tagline number ${i}.`;
      const updated = new Promise<DevUpdate>((resolve) => { resolveUpdate = resolve; });
      const started = performance.now();
      await writeFile(path.join(contentDir, 'cities/benchville-42.yaml'), stringify(city));
      const u = await updated;
      times.push(performance.now() - started);
      pages.push(u.pages);
      const html = await readFile(path.join(dir, 'dist/locations/deep-cleaning-benchville-42-ca.html'), 'utf8');
      if (!html.includes(`Edited tagline number ${i}.`)) throw new Error(`the edit did not reach the page: ${JSON.stringify(u).slice(0, 600)}`);
    }
    await stop();
    await session.close();
    console.log(`median ${Math.round(median(times))} ms (min ${Math.round(Math.min(...times))}, max ${Math.round(Math.max(...times))}); pages re-rendered per edit: ${median(pages)} (includes 10 ms of waiting for the save's events to settle)`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function pageWeight() {
  console.log('\n## Page weight: bytes a first visit transfers, gzipped (real site, Chromium, scrolled to the end and 7.5 s on the page: the popup opens at 5 s; no click, no typing)');
  if (!existsSync('/usr/bin/chromium')) {
    console.log('(skipped: /usr/bin/chromium is not installed)');
    return;
  }
  const { launchBrowser } = await import('../tests/helpers/browser.js');
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bench-weight-'));
  const dist = path.join(dir, 'dist');
  await build({ root, outDir: dist });
  const server = await startServer({ distDir: dist });
  const browser = await launchBrowser();
  const kinds: [string, string][] = [
    ['home', '/'], ['service', '/routine-cleaning-bay-area'], ['city', '/locations/deep-cleaning-san-jose-ca'], ['locations', '/locations'],
    ['services', '/services'], ['checklist', '/checklist'], ['contact', '/contact'], ['legal', '/terms-of-service'],
    ['customer-login', '/customer-login'], ['book-online', '/book-online'], ['404', '/no-such-page'],
  ];
  console.log('| page type | HTML | CSS | JS | fonts | images |\n|---|---:|---:|---:|---:|---:|');
  try {
    for (const [kind, route] of kinds) {
      const context = await browser.newContext({ viewport: { width: 375, height: 800 } });
      const page = await context.newPage();
      const bytes = { html: 0, css: 0, js: 0, font: 0, image: 0 };
      page.on('response', async (response) => {
        if (!response.url().startsWith(server.url)) return;
        const body = await response.body().catch(() => undefined);
        if (!body) return;
        const type = response.headers()['content-type'] ?? '';
        const key = type.includes('html') ? 'html' : type.includes('css') ? 'css' : type.includes('javascript') ? 'js' : type.includes('font') ? 'font' : type.startsWith('image') ? 'image' : undefined;
        if (key) bytes[key] += gzipSync(body).length;
      });
      const started = Date.now();
      await page.goto(server.url + route, { waitUntil: 'networkidle' });
      await page.evaluate(async () => {
        for (let y = 0; y < document.body.scrollHeight; y += 600) {
          window.scrollTo(0, y);
          await new Promise((r) => setTimeout(r, 50));
        }
      });
      // A reader who never clicks or types: what has loaded once the popup has opened.
      await page.waitForTimeout(Math.max(800, 7500 - (Date.now() - started)));
      await page.waitForLoadState('networkidle');
      const kb = (n: number) => (n ? `${(n / 1024).toFixed(1)} KB` : '0');
      console.log(`| ${kind} | ${kb(bytes.html)} | ${kb(bytes.css)} | ${kb(bytes.js)} | ${kb(bytes.font)} | ${kb(bytes.image)} |`);
      await context.close();
    }
  } finally {
    await browser.close();
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
}

async function lighthousePerformance() {
  const lhRuns = Number(process.env.BENCH_LH_RUNS ?? 3);
  // BENCH_LH_CPU overrides the 4x CPU slowdown (Lighthouse calibrates it for a fast desktop).
  const cpu = process.env.BENCH_LH_CPU ? Number(process.env.BENCH_LH_CPU) : undefined;
  console.log(`\n## Lighthouse performance (mobile: Moto G Power, simulated slow 4G and ${cpu ?? 4}x CPU; median of ${lhRuns} runs per figure; served with _headers and brotli like the hosts)`);
  if (!existsSync('/usr/bin/chromium') && !process.env.CHROMIUM_PATH) {
    console.log('(skipped: /usr/bin/chromium is not installed)');
    return;
  }
  const { LIGHTHOUSE_PAGES, runLighthouse, startChromium } = await import('../tests/helpers/lighthouse.js');
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bench-lighthouse-'));
  const dist = path.join(dir, 'dist');
  await build({ root, outDir: dist, ...(process.env.CONTENT_DIR && { contentDir: path.resolve(process.env.CONTENT_DIR) }) });
  // The local server compresses (brotli) and applies _headers as the hosts do.
  const server = await startServer({ distDir: dist });
  const chromium = await startChromium();
  // CLS: Lighthouse's "good". The web font swaps in after the first paint (generator/assets/fonts.ts):
  // its fallback has Inter's metrics, but a paragraph may still wrap onto one line more or less.
  const targets = { score: 100, lcpMs: 1200, cls: 0.1, tbtMs: 50 };
  const mark = (ok: boolean) => (ok ? '' : ' ✗');
  console.log(`Targets: performance ${targets.score}, LCP ≤ ${targets.lcpMs / 1000} s, CLS ≤ ${targets.cls}, TBT < ${targets.tbtMs} ms (✗ = missed)\n`);
  console.log('| page | performance | LCP | CLS | TBT | FCP | LCP element |\n|---|---:|---:|---:|---:|---:|---|');
  const benchmarkIndexes: number[] = [];
  try {
    // BENCH_LH_PAGES=/checklist,/ measures only those pages (say, more runs of the one being tuned).
    const routes = process.env.BENCH_LH_PAGES ? process.env.BENCH_LH_PAGES.split(',') : LIGHTHOUSE_PAGES;
    for (const route of routes) {
      const results = [];
      for (let i = 0; i < lhRuns; i++) results.push(await runLighthouse(server.url + route, chromium.port, ['performance'], cpu ? { cpuSlowdownMultiplier: cpu } : {}));
      benchmarkIndexes.push(...results.map((r) => r.benchmarkIndex));
      const failed = results.find((r) => r.runtimeError);
      if (failed) {
        console.log(`| ${route} | error: ${failed.runtimeError} | | | | | |`);
        continue;
      }
      const score = Math.round(median(results.map((r) => r.scores.performance ?? 0)) * 100);
      const lcp = median(results.map((r) => r.metrics.lcpMs ?? NaN));
      const cls = median(results.map((r) => r.metrics.cls ?? NaN));
      const tbt = median(results.map((r) => r.metrics.tbtMs ?? NaN));
      const fcp = median(results.map((r) => r.metrics.fcpMs ?? NaN));
      // The element of the median run, as Lighthouse names it (tag and its text or image).
      const lcpElement = [...results].sort((a, b) => (a.metrics.lcpMs ?? 0) - (b.metrics.lcpMs ?? 0))[Math.floor(results.length / 2)]!.lcpElement ?? '?';
      console.log(`| ${route} | ${score}${mark(score >= targets.score)} | ${(lcp / 1000).toFixed(2)} s${mark(lcp <= targets.lcpMs)} | ${cls.toFixed(3)}${mark(cls <= targets.cls)} | ${Math.round(tbt)} ms${mark(tbt < targets.tbtMs)} | ${(fcp / 1000).toFixed(2)} s | ${lcpElement} |`);
    }
    console.log(`\nLighthouse benchmarkIndex of this machine: median ${Math.round(median(benchmarkIndexes))} (the 4x CPU slowdown assumes a fast desktop: on a slower or busy machine TBT and LCP come out higher than on the phone it emulates; BENCH_LH_CPU=<n> sets another slowdown)`);
  } finally {
    await chromium.close();
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
}

const only = process.argv[2];
console.log(`# Benchmark (${os.cpus().length} cores, Node ${process.version}, ${new Date().toISOString().slice(0, 10)})`);
if (!only || only === 'build') await buildScale();
if (!only || only === 'dev') await devUpdate();
if (!only || only === 'weight') await pageWeight();
if (!only || only === 'lighthouse') await lighthousePerformance();
