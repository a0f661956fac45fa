/**
import '../generator/env.js';
 * npm run bench: build time and memory at 1,000 and 10,000 city pages, the dev server's update
 * time for one edited city file, and the bytes each page type sends (gzipped). Medians of
 * several runs; the machine is shared, so compare ratios, not single figures.
 */
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
const sizes = (process.env.BENCH_SIZES ?? '1000,10000').split(',').map(Number);
const runs = Number(process.env.BENCH_RUNS ?? 3);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function buildScale() {
  console.log(`\n## Build: synthetic city pages (median of ${runs} runs, each a fresh process, cold)`);
  console.log('| cities | pages | wall time | pages/s | peak memory |\n|---:|---:|---:|---:|---:|');
  for (const cities of sizes) {
    const dir = await mkdtemp(path.join(os.tmpdir(), `bench-${cities}-`));
    try {
      const contentDir = await syntheticContent(root, dir, cities);
      const results: { ms: number; pages: number; maxRssMiB: number }[] = [];
      for (let i = 0; i < runs; i++) {
        const { stdout } = await run('npx', ['tsx', 'bench/buildOnce.ts', contentDir, path.join(dir, 'dist')], { cwd: root, maxBuffer: 1 << 24 });
        results.push(JSON.parse(stdout.trim().split('\n').at(-1)!));
      }
      const ms = median(results.map((r) => r.ms));
      const pages = results[0]!.pages;
      console.log(`| ${cities} | ${pages} | ${(ms / 1000).toFixed(2)} s | ${Math.round(pages / (ms / 1000))} | ${Math.round(median(results.map((r) => r.maxRssMiB)))} MiB |`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
}

async function devUpdate() {
  const cities = 1000;
  console.log(`\n## npm run dev: one city file edited (${cities} cities; median of 7 edits, save → page written)`);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bench-dev-'));
  try {
    const contentDir = await syntheticContent(root, dir, cities);
    let resolveUpdate: ((u: DevUpdate) => void) | undefined;
    const session = new DevSession({ root, contentDir, outDir: path.join(dir, 'dist'), skipIslands: true }, (u) => resolveUpdate?.(u));
    await session.start();
    const stop = session.watch();
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
      if (!html.includes(`Edited tagline number ${i}.`)) throw new Error('the edit did not reach the page');
    }
    stop();
    await session.close();
    console.log(`median ${Math.round(median(times))} ms (min ${Math.round(Math.min(...times))}, max ${Math.round(Math.max(...times))}); pages re-rendered per edit: ${median(pages)} (includes 25 ms of save debouncing)`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function pageWeight() {
  console.log('\n## Page weight: bytes a first visit transfers, gzipped (real site, Chromium, scrolled to the end)');
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
      await page.goto(server.url + route, { waitUntil: 'networkidle' });
      await page.evaluate(async () => {
        for (let y = 0; y < document.body.scrollHeight; y += 600) {
          window.scrollTo(0, y);
          await new Promise((r) => setTimeout(r, 50));
        }
      });
      await page.waitForTimeout(800);
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

const only = process.argv[2];
console.log(`# Benchmark (${os.cpus().length} cores, Node ${process.version}, ${new Date().toISOString().slice(0, 10)})`);
if (!only || only === 'build') await buildScale();
if (!only || only === 'dev') await devUpdate();
if (!only || only === 'weight') await pageWeight();
