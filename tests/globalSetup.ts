/**
 * Builds the real site once per test run; browser tests serve this dist/ with their own server
 * (tests/helpers/site.ts). The build's lead webhook (a build-time constant the Content-Security-Policy
 * must allow) points at a receiver on 127.0.0.1 started here: it records every request to /hook with
 * the page origin that sent it, answers GET /log?origin=… with what that origin sent (DELETE forgets
 * it), so test files running side by side each see only their own site's requests, and no test file
 * builds the site again.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { build } from '../generator/build.js';
import { SHARED_BUILD_NOW } from './helpers/buildNow.js';

declare module 'vitest' {
  export interface ProvidedContext {
    siteDist: string;
    /** The webhook URL the shared build posts discount sign-ups to. */
    hookUrl: string;
    /** The receiver's log of what reached hookUrl, by page origin (GET ?origin=: JSON list of ReceivedHook; DELETE: clear). */
    hookLogUrl: string;
  }
}

export interface ReceivedHook { origin: string | undefined; method: string; contentType: string | undefined; body: string }

let tmp: string | undefined;
let receiver: Server | undefined;

function startReceiver(): Promise<string> {
  const received: ReceivedHook[] = [];
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const origin = url.searchParams.get('origin');
      if (url.pathname === '/hook') {
        received.push({ origin: req.headers.origin, method: req.method ?? '', contentType: req.headers['content-type'], body: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(200).end('ok');
      } else if (url.pathname === '/log' && req.method === 'GET') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(received.filter((h) => h.origin === origin)));
      } else if (url.pathname === '/log' && req.method === 'DELETE') {
        received.splice(0, received.length, ...received.filter((h) => h.origin !== origin));
        res.writeHead(204).end();
      } else {
        res.writeHead(404).end();
      }
    });
  });
  return new Promise((resolve) => receiver!.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(receiver!.address() as AddressInfo).port}`)));
}

export async function setup(project: TestProject) {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'site-test-'));
  const outDir = path.join(tmp, 'dist');
  const receiverOrigin = await startReceiver();
  const hookUrl = `${receiverOrigin}/hook`;
  await build({ root: process.cwd(), outDir, siteUrl: 'https://www.bayshinecleaning.com', webhookUrl: hookUrl, now: SHARED_BUILD_NOW });
  project.provide('siteDist', outDir);
  project.provide('hookUrl', hookUrl);
  project.provide('hookLogUrl', `${receiverOrigin}/log`);
}

export async function teardown() {
  await new Promise((r) => (receiver ? receiver.close(r) : r(undefined)));
  if (tmp) await rm(tmp, { recursive: true, force: true });
}
