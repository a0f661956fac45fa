/** Builds the real site once per test run; browser tests serve this dist/ with their own server. */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { build } from '../generator/build.js';

declare module 'vitest' {
  export interface ProvidedContext {
    siteDist: string;
  }
}

let tmp: string | undefined;

export async function setup(project: TestProject) {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'site-test-'));
  const outDir = path.join(tmp, 'dist');
  await build({ root: process.cwd(), outDir, siteUrl: 'https://www.bayshinecleaning.com' });
  project.provide('siteDist', outDir);
}

export async function teardown() {
  if (tmp) await rm(tmp, { recursive: true, force: true });
}
