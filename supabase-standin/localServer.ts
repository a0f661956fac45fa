/**
 * `.data/local-server.json`: the `npm start` (or `npm run dev`) that holds the local database now.
 * PGlite allows one process per data folder, so `npm run staff` talks to that server instead of
 * opening the folder itself. The server announces itself before it touches the folder (`starting`)
 * and again once the database is open and migrated (`ready`); the file goes when the process exits.
 * Only node:fs here: `npm start` loads it before it opens anything.
 */
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export type LocalServerState = 'starting' | 'ready';

export type LocalServerAnnouncement =
  /** A live server: `url` answers the stand-in's API once `state` is `ready`. */
  | { kind: 'running'; url: string; pid: number; state: LocalServerState }
  /** A live process announced itself without a usable address. */
  | { kind: 'unusable'; file: string; pid: number };

export function localServerFile(root: string): string {
  return path.join(root, '.data', 'local-server.json');
}

const removedOnExit = new Set<string>();

/**
 * Announces this process as the holder of `<root>/.data/`: `starting` before it opens the database,
 * `ready` once it is open. Written whole (a reader never sees half a file).
 */
export function announceLocalServer(root: string, url: string, state: LocalServerState = 'ready'): void {
  const file = localServerFile(root);
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify({ url, pid: process.pid, state })}\n`, { mode: 0o600 });
  renameSync(tmp, file);
  if (removedOnExit.has(file)) return;
  removedOnExit.add(file);
  process.once('exit', () => withdrawLocalServer(root));
}

/** Removes this process's announcement (when it exits, or when its database could not be opened); another's stays. */
export function withdrawLocalServer(root: string): void {
  const file = localServerFile(root);
  try {
    const current = JSON.parse(readFileSync(file, 'utf8')) as { pid?: unknown };
    if (current.pid === process.pid) rmSync(file, { force: true });
  } catch {
    // already gone
  }
}

function isAlive(pid: unknown): pid is number {
  if (typeof pid !== 'number' || !Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The server holding `<root>/.data/` now, if one announced itself and is still alive. An
 * announcement without a state (written before states existed) counts as ready.
 */
export function readLocalServer(root: string): LocalServerAnnouncement | undefined {
  const file = localServerFile(root);
  let announced: { url?: unknown; pid?: unknown; state?: unknown };
  try {
    announced = JSON.parse(readFileSync(file, 'utf8')) as typeof announced;
  } catch {
    return undefined; // none, or damaged: no server to talk to
  }
  if (!isAlive(announced.pid)) return undefined;
  const url = typeof announced.url === 'string' && /^http:\/\/[^/?#@\s]+$/.test(announced.url) ? announced.url : undefined;
  if (!url) return { kind: 'unusable', file, pid: announced.pid };
  const state: LocalServerState = announced.state === 'starting' ? 'starting' : 'ready';
  return { kind: 'running', url: url.replace('//0.0.0.0', '//127.0.0.1'), pid: announced.pid, state };
}
