/**
 * Lighthouse (npm `lighthouse` 12.8, the last line that runs on Node 20) driving Debian's Chromium,
 * launched here with a DevTools port. Used by tests/browser/lighthouse.test.ts (accessibility,
 * best practices, SEO) and by `npm run bench -- lighthouse` (performance).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import lighthouse from 'lighthouse';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './browser.js';

/** The six pages the issue names: home, one city page, contact, checklist, services, locations. */
export const LIGHTHOUSE_PAGES = ['/', '/locations/deep-cleaning-san-jose-ca', '/contact', '/checklist', '/services', '/locations', '/articles/how-long-does-a-deep-cleaning-take', '/articles'] as const;

export interface Chromium {
  port: number;
  close(): Promise<void>;
}

/** Starts headless Chromium with remote debugging on a free port, in a profile of its own. */
export async function startChromium(extraArgs: string[] = []): Promise<Chromium> {
  const profile = await mkdtemp(path.join(os.tmpdir(), 'lh-chromium-'));
  const child: ChildProcess = spawn(CHROMIUM_PATH, [
    ...CHROMIUM_ARGS,
    '--remote-debugging-port=0',
    '--remote-debugging-address=127.0.0.1',
    `--user-data-dir=${profile}`,
    '--disable-dev-shm-usage',
    '--disable-extensions',
    '--disable-default-apps',
    '--mute-audio',
    '--no-default-browser-check',
    ...extraArgs,
    'about:blank',
  ], { stdio: ['ignore', 'ignore', 'pipe'] });
  const port = await new Promise<number>((resolve, reject) => {
    let err = '';
    const timer = setTimeout(() => reject(new Error(`Chromium gave no DevTools port within 20 s:\n${err}`)), 20_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      err += chunk.toString();
      const m = /DevTools listening on ws:\/\/[^:]+:(\d+)\//.exec(err);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Chromium exited (${code}) before it listened:\n${err}`));
    });
  });
  child.stderr!.resume();
  return {
    port,
    close: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      await rm(profile, { recursive: true, force: true });
    },
  };
}

export type Category = 'performance' | 'accessibility' | 'best-practices' | 'seo';

export interface LighthouseRun {
  url: string;
  scores: Record<string, number | null>;
  /** Audits that lost points in the categories run: id, title, score and the category's weight of it. */
  failing: { category: string; id: string; title: string; score: number | null; weight: number; display?: string }[];
  metrics: { lcpMs?: number; cls?: number; tbtMs?: number; fcpMs?: number; si?: number };
  /** The largest contentful paint's element: its selector and a snippet of it. */
  lcpElement?: string;
  warnings: string[];
  /** Lighthouse's measure of this machine's CPU (its 4x CPU slowdown assumes a fast desktop). */
  benchmarkIndex: number;
  runtimeError?: string;
}

/**
 * One Lighthouse run on mobile settings (Moto G Power emulation, simulated slow 4G and 4x CPU
 * throttling: Lighthouse's defaults) for the given categories.
 */
export async function runLighthouse(url: string, port: number, categories: Category[], opts: { cpuSlowdownMultiplier?: number } = {}): Promise<LighthouseRun> {
  const result = await lighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: categories,
    formFactor: 'mobile',
    throttlingMethod: 'simulate',
    // A picture of the whole page for the HTML report's element thumbnails: no score reads it, and it
    // cost 1.2 s of every run.
    disableFullPageScreenshot: true,
  }, opts.cpuSlowdownMultiplier ? {
    extends: 'lighthouse:default',
    settings: { throttling: { rttMs: 150, throughputKbps: 1638.4, requestLatencyMs: 562.5, downloadThroughputKbps: 1474.56, uploadThroughputKbps: 675, cpuSlowdownMultiplier: opts.cpuSlowdownMultiplier } },
  } : undefined);
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  const lhr = result.lhr;
  const scores: Record<string, number | null> = {};
  const failing: LighthouseRun['failing'] = [];
  for (const [id, category] of Object.entries(lhr.categories)) {
    scores[id] = category.score;
    for (const ref of category.auditRefs) {
      const audit = lhr.audits[ref.id];
      if (!audit || ref.weight === 0 || audit.scoreDisplayMode === 'notApplicable' || audit.scoreDisplayMode === 'informative' || audit.scoreDisplayMode === 'manual') continue;
      if (audit.score !== null && audit.score >= 1) continue;
      failing.push({ category: id, id: ref.id, title: audit.title, score: audit.score, weight: ref.weight, ...(audit.displayValue && { display: audit.displayValue }) });
    }
  }
  const numeric = (id: string) => lhr.audits[id]?.numericValue;
  const metrics: LighthouseRun['metrics'] = {};
  const lcp = numeric('largest-contentful-paint');
  const cls = numeric('cumulative-layout-shift');
  const tbt = numeric('total-blocking-time');
  const fcp = numeric('first-contentful-paint');
  const si = numeric('speed-index');
  if (lcp !== undefined) metrics.lcpMs = lcp;
  if (cls !== undefined) metrics.cls = cls;
  if (tbt !== undefined) metrics.tbtMs = tbt;
  if (fcp !== undefined) metrics.fcpMs = fcp;
  if (si !== undefined) metrics.si = si;
  // The LCP element audit holds a table whose first item's node names the element.
  const lcpItems = (lhr.audits['largest-contentful-paint-element']?.details as { items?: { items?: { node?: { selector?: string; snippet?: string; nodeLabel?: string } }[] }[] } | undefined)?.items;
  const lcpNode = lcpItems?.[0]?.items?.[0]?.node;
  return {
    url, scores, failing,
    ...(lcpNode && { lcpElement: `${lcpNode.snippet?.slice(0, 60) ?? lcpNode.selector} “${(lcpNode.nodeLabel ?? '').slice(0, 40)}”` }), metrics, warnings: lhr.runWarnings, benchmarkIndex: lhr.environment.benchmarkIndex,
    ...(lhr.runtimeError && { runtimeError: `${lhr.runtimeError.code}: ${lhr.runtimeError.message}` }),
  };
}

/** Details of a failing audit, for a readable test failure. */
export function describeFailing(run: LighthouseRun): string {
  return run.failing.map((f) => `  [${f.category}] ${f.id} (score ${f.score ?? 'error'}, weight ${f.weight}): ${f.title}${f.display ? ` — ${f.display}` : ''}`).join('\n');
}
