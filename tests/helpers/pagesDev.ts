/**
 * Cloudflare's own runtime for the tests: `wrangler pages dev` (workerd) serving a folder with the
 * repository's functions/, _headers and _redirects exactly as Cloudflare Pages does. Nothing is
 * imitated here; this file only starts and stops the real thing.
 *
 * Wrangler runs in a temporary folder of its own (it looks for functions/ in its working folder,
 * where a link to the repository's functions/ is placed, and writes .wrangler/ there), with its
 * state (--persist-to) and its global config (XDG_CONFIG_HOME) there too, so nothing lands in the
 * repository or in the home folder. Telemetry is off; without network it only warns that it
 * cannot fetch Request.cf and goes on with a placeholder.
 */
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startChildServer } from './childProcess.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const wranglerBin = path.join(path.dirname(createRequire(import.meta.url).resolve('wrangler/package.json')), 'bin', 'wrangler.js');

/**
 * The Workers compatibility date the functions run with. Cloudflare Pages takes it from the
 * project's settings (there is no wrangler.toml); a fixed date keeps the tests from changing
 * behaviour when wrangler is upgraded.
 */
export const COMPATIBILITY_DATE = '2025-01-01';

/** Longest wait for `wrangler pages dev` to say it is ready (it compiles functions/ first; slow on a busy machine). */
const START_TIMEOUT_MS = 150_000;

export interface PagesDev {
  /** http://127.0.0.1:<port> */
  url: string;
  /** Wrangler's output so far (stdout and stderr), for failure messages. */
  output(): string;
  close(): Promise<void>;
}

export interface PagesDevOptions {
  /** The folder of static files (dist/). */
  dir: string;
  /** Environment variables and secrets of the Pages project (`--binding NAME=VALUE`). */
  bindings?: Record<string, string>;
  /** A port of 127.0.0.1 to listen on (a site built for its own address needs it first); default: any free one. */
  port?: number;
}

/** A port of 127.0.0.1 that was free a moment ago, for a server whose address must be known before it starts. */
export async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as import('node:net').AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

// eslint-disable-next-line no-control-regex
const stripAnsi = (text: string) => text.replace(/\x1b\[[0-9;]*m/g, '');

/** Starts `wrangler pages dev` on a free port of 127.0.0.1 and resolves once it answers requests. */
export async function startPagesDev(options: PagesDevOptions): Promise<PagesDev> {
  const work = await mkdtemp(path.join(tmpdir(), 'pages-dev-'));
  await symlink(path.join(repoRoot, 'functions'), path.join(work, 'functions'), 'dir');
  const bindings = Object.entries(options.bindings ?? {}).flatMap(([name, value]) => ['--binding', `${name}=${value}`]);
  const server = await startChildServer(process.execPath, [
    wranglerBin, 'pages', 'dev', path.resolve(options.dir),
    '--ip', '127.0.0.1', '--port', String(options.port ?? 0), '--inspector-port', '0',
    '--persist-to', path.join(work, 'state'),
    '--compatibility-date', COMPATIBILITY_DATE,
    '--show-interactive-dev-session=false',
    ...bindings,
  ], {
    cwd: work,
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false', XDG_CONFIG_HOME: path.join(work, 'config') },
    // Wrangler names its address once it listens.
    ready: /Ready on (http:\/\/127\.0\.0\.1:\d+)/,
    timeoutMs: START_TIMEOUT_MS,
    what: 'wrangler pages dev',
    clean: stripAnsi,
    cleanup: () => rm(work, { recursive: true, force: true }),
  });
  const { url, child } = server;
  try {
    // And it answers: the first request goes through the whole worker.
    for (;;) {
      const answered = await fetch(url, { method: 'HEAD', redirect: 'manual' }).then(() => true, () => false);
      if (answered) break;
      if (child.exitCode !== null) throw new Error(`wrangler pages dev exited:\n${server.output()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return { url, output: server.output, close: server.close };
  } catch (err) {
    await server.close();
    throw err;
  }
}
