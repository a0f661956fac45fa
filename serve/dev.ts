/**
 * `npm run dev`: build once, then keep everything in memory and redo only what a change touches.
 * - a content file: re-parse that file alone, re-plan, re-render only the pages whose data changed;
 * - templates/: restart the render worker (fresh modules), rebuild CSS, re-render every page;
 * - src/: rebuild the island bundle and CSS, re-render every page.
 * The open browser tab reloads through server-sent events once an update is written whole (pages,
 * /locations, the sitemap, the host files, the admin page); `updateFor` is the same signal for
 * tests and scripts.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import chokidar from 'chokidar';
import path from 'node:path';
import type { ContentError } from '../contracts/errors.js';
import { kindOf } from '../contracts/kinds.js';
import { LANGUAGE_INFO, TRANSLATIONS } from '../contracts/languages.js';
import { Rebuild, type BuildOptions } from '../generator/build.js';
import { formatError } from '../contracts/validate/errors.js';

/** The open tab's reload script: the server adds it to every page it serves (startServer's htmlScript), so dist/ stays what a build writes. */
export const RELOAD_SCRIPT = '/__dev/reload.js';
/** How long a save's events are gathered before the update starts. */
const SAVE_SETTLE_MS = 10;
/**
 * chokidar drops a file's events for up to 100 ms after one it reported (change: 50 ms, unlink:
 * 100 ms), so a second save that soon would go unseen: a file is looked at again this long after
 * each event (a timer set after chokidar's own, so it fires after chokidar's window closed).
 */
const CHOKIDAR_QUIET_MS = 100;

export interface DevUpdate {
  reason: string;
  /** What the update re-read: content paths ('cities/colma.yaml'), or 'templates' / 'src'. */
  changed: readonly string[];
  pages: number;
  ms: number;
  errors: ContentError[];
}

/** A caller of updateFor: `after` is how many updates had begun when it asked. */
interface UpdateWaiter { after: number; change: string; resolve: (u: DevUpdate) => void; reject: (err: unknown) => void }

export class DevSession {
  /** The build, given the files each save changed. */
  private readonly rebuild: Rebuild;
  private clients = new Set<ServerResponse>();
  private queue: Promise<unknown> = Promise.resolve();
  /** How many updates have begun: an update answers the waiters registered before it began. */
  private begun = 0;
  private readonly waiters = new Set<UpdateWaiter>();
  /** The last update that re-read each change, with its number. */
  private readonly latest = new Map<string, { number: number; update: DevUpdate }>();
  /** Whether the watcher may still hand `change` to an update (a save seen, or not yet looked at again). */
  private watching: (change: string) => boolean = () => false;

  constructor(private readonly opts: BuildOptions & { outDir: string }, private readonly onUpdate: (u: DevUpdate) => void = () => {}) {
    this.rebuild = new Rebuild(opts);
  }

  /** First full build into outDir. */
  async start(): Promise<DevUpdate> {
    const started = performance.now();
    return this.report('start', [], started, await this.rebuild.start());
  }

  /**
   * The update that re-reads `change` (a path in the content folder such as 'cities/colma.yaml', or
   * 'templates' / 'src'), began after this call and is the last one the watcher hands that file to
   * (a save seen half-written is followed by another update), once everything it writes is written
   * and the open tabs were told to reload. Call it before making the change, so the update cannot
   * be missed; it rejects if an update of that change fails.
   */
  updateFor(change: string): Promise<DevUpdate> {
    return new Promise((resolve, reject) => this.waiters.add({ after: this.begun, change, resolve, reject }));
  }

  /** Resolves the waiters whose change has an update since they asked and nothing more to come. */
  private settleWaiters() {
    for (const w of this.waiters) {
      const last = this.latest.get(w.change);
      if (!last || last.number <= w.after || this.watching(w.change)) continue;
      this.waiters.delete(w);
      w.resolve(last.update);
    }
  }

  /** Serialize updates: a burst of saves is handled one after another, never interleaved. */
  private enqueue(changed: readonly string[], task: () => Promise<DevUpdate>): Promise<DevUpdate> {
    const run = async () => {
      const number = ++this.begun;
      try {
        const update = await task();
        for (const change of changed) this.latest.set(change, { number, update });
        this.settleWaiters();
        return update;
      } catch (err) {
        for (const w of this.waiters) if (w.after < number && changed.includes(w.change)) {
          this.waiters.delete(w);
          w.reject(err);
        }
        throw err;
      }
    };
    const next = this.queue.then(run, run);
    this.queue = next.catch(() => undefined);
    return next;
  }

  contentChanged(rels: readonly string[]): Promise<DevUpdate> {
    return this.enqueue(rels, async () => {
      const started = performance.now();
      return this.report(rels.join(', '), rels, started, await this.rebuild.contentChanged(rels));
    });
  }

  /** Templates or browser code changed: CSS, islands and every page are redone with fresh modules. */
  codeChanged(kind: 'templates' | 'src'): Promise<DevUpdate> {
    return this.enqueue([kind], async () => {
      const started = performance.now();
      return this.report(kind, [kind], started, await this.rebuild.codeChanged());
    });
  }

  /** Once an update is written whole: the open tabs are told to reload (unless it found problems). */
  private report(reason: string, changed: readonly string[], started: number, done: { pages: number; errors: ContentError[] }): DevUpdate {
    const update = { reason, changed, pages: done.pages, ms: performance.now() - started, errors: done.errors };
    if (!update.errors.length) for (const client of this.clients) client.write('data: reload\n\n');
    this.onUpdate(update);
    return update;
  }

  /** Serves the reload script and the event stream the open tabs listen to. */
  readonly handle = async (req: IncomingMessage, res: ServerResponse): Promise<boolean> => {
    if (req.url === RELOAD_SCRIPT) {
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' });
      res.end("new EventSource('/__dev/events').onmessage = () => location.reload();\n");
      return true;
    }
    if (req.url === '/__dev/events') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
      res.write(': connected\n\n');
      this.clients.add(res);
      req.on('close', () => this.clients.delete(res));
      return true;
    }
    return false;
  };

  /**
   * Watch content/, templates/, src/ and cms/app/ (chokidar: it follows a file an editor saves by writing a
   * new one and renaming it over the old, as VS Code and vim do; node's own watcher lost it after the
   * first such save). Resolves once watching; the function it gives stops watching.
   */
  async watch(): Promise<() => Promise<void>> {
    /** Files seen changing since the last flush → what they are ('content:cities/colma.yaml', 'templates', 'src'). */
    const pending = new Map<string, string>();
    /** Each file's bytes (a digest) as they were when last handed to an update. */
    const handed = new Map<string, string>();
    /** Files to look at again once chokidar's quiet window is over → what they are. */
    const rechecks = new Map<NodeJS.Timeout, string>();
    let timer: NodeJS.Timeout | undefined;
    // The update's own errors are content errors, reported by onUpdate; anything else is a bug to show.
    const report = (err: unknown) => console.error(err);
    const flush = () => {
      const keys = [...new Set(pending.values())];
      // Digests first: the update reads the files after this, so it sees these bytes or newer ones.
      for (const file of pending.keys()) handed.set(file, fingerprint(file));
      pending.clear();
      const content = keys.filter((p) => p.startsWith('content:')).map((p) => p.slice('content:'.length));
      const code = keys.filter((p) => !p.startsWith('content:'));
      if (code.includes('src')) this.codeChanged('src').catch(report);
      else if (code.includes('templates')) this.codeChanged('templates').catch(report);
      if (content.length) this.contentChanged(content).catch(report);
    };
    const changed = (file: string, key: string) => {
      pending.set(file, key);
      clearTimeout(timer);
      // A save can be several events (truncate, write; or write, rename): one update for all.
      timer = setTimeout(flush, SAVE_SETTLE_MS);
    };
    const { contentDir } = this.rebuild;
    // Browser code is the islands (src/) and the content manager's script (cms/app/): both are
    // bundled, and the site's stylesheet takes classes from both.
    const code: [dir: string, kind: 'templates' | 'src'][] = [
      [path.join(this.opts.root, 'templates'), 'templates'],
      [path.join(this.opts.root, 'src'), 'src'],
      [path.join(this.opts.root, 'cms', 'app'), 'src'],
    ];
    // Editors' backup and swap files (colma.yaml~, .colma.yaml.swp) are not content: only files
    // the generator reads count, a translation's (content/es/home.yaml) among them.
    const translated = TRANSLATIONS.map((lang) => `${LANGUAGE_INFO[lang].folder}/`);
    const keyOf = (file: string): string | undefined => {
      for (const [dir, kind] of code) if (!path.relative(dir, file).startsWith('..')) return kind;
      const rel = path.relative(contentDir, file).split(path.sep).join('/');
      const own = translated.find((folder) => rel.startsWith(folder));
      return kindOf(own ? rel.slice(own.length) : rel) || rel.startsWith('images/') || rel.startsWith('static/') ? `content:${rel}` : undefined;
    };
    const watcher = chokidar.watch([contentDir, ...code.map(([dir]) => dir)], { ignoreInitial: true });
    watcher.on('all', (event, file) => {
      const key = event === 'addDir' || event === 'unlinkDir' ? undefined : keyOf(file);
      if (!key) return;
      changed(file, key);
      // Once chokidar's quiet window is over: a save it dropped shows as bytes other than those handed on.
      const recheck = setTimeout(() => {
        rechecks.delete(recheck);
        const seen = handed.get(file);
        if (!pending.has(file) && seen !== undefined && fingerprint(file) !== seen) changed(file, key);
        else this.settleWaiters();
      }, CHOKIDAR_QUIET_MS);
      rechecks.set(recheck, key);
    });
    await new Promise<void>((resolve, reject) => watcher.once('ready', resolve).once('error', reject));
    this.watching = (change) => [...pending.values(), ...rechecks.values()].some((key) => key === change || key === `content:${change}`);
    return async () => {
      clearTimeout(timer);
      for (const recheck of rechecks.keys()) clearTimeout(recheck);
      rechecks.clear();
      pending.clear();
      this.watching = () => false;
      this.settleWaiters();
      await watcher.close();
    };
  }

  /** Ends the session once the update under way (if any) is done: it may still be writing into outDir. */
  async close() {
    for (const client of this.clients) client.end();
    await this.queue;
    await this.rebuild.close();
  }
}

/** A file's bytes in short, or '' when it is gone. */
function fingerprint(file: string): string {
  try {
    return createHash('sha1').update(readFileSync(file)).digest('base64');
  } catch {
    return '';
  }
}

export function printUpdate(u: DevUpdate) {
  if (u.errors.length) {
    console.error(`\n${u.errors.length} problem${u.errors.length === 1 ? '' : 's'} (${u.reason}); the pages keep their last good version:`);
    for (const e of u.errors) console.error(formatError(e));
  } else {
    console.log(`${u.reason}: ${u.pages} page${u.pages === 1 ? '' : 's'} updated in ${Math.round(u.ms)} ms`);
  }
}

