/**
 * What became of the editor's last Publish, until it settles: waiting, building, live (with the
 * page that changed) or failed (the content problem in the words of `npm run check`, or the site
 * could not be deployed), or that it cannot tell.
 *
 * - On the deployed site: "live" is what visitors get, the live site's /build.json naming the
 *   published commit or a later one; the deploy workflow's run for that commit says waiting,
 *   building or failed (GitHub's API, with the token the editor signed in with). A newer push that
 *   overtakes the change (its run cancelled in favour of the next) is followed, since it holds it.
 * - Under `npm run dev`: the dev server's local backend says when the rebuild of the saved file is
 *   served (cms/localBackend.ts, action publishStatus).
 * Nothing here throws: what cannot be reached is "cannot tell", and the editor goes on editing.
 *
 * An article that is a draft, or dated later than the build's "now", is in no output of the build:
 * once live, the panel says so ("Saved as a draft", "Saved. It goes live on …") and links to no
 * page, which would be a 404. Under `npm run dev` the page is there, marked, and is linked.
 *
 * A translated entry (content/es/…) links to its page in its language, by that language's routes
 * (contracts/routes.ts ROUTE_TABLES): a Spanish service to /es/<its slug field>, a Spanish city to
 * its /es/ubicaciones/… page, a Spanish single page to its /es/… address.
 */
import { BUILD_INFO_PATH, type BuildInfo } from '../../contracts/buildInfo.js';
import { slugOf, type KindName } from '../../contracts/kinds.js';
import { DEFAULT_LANGUAGE, type Lang } from '../../contracts/languages.js';
import { articleRoute, entryRoute, ROUTE_TABLES, ROUTES, type FixedPage } from '../../contracts/routes.js';
import { parseZoned } from '../../contracts/zonedTime.js';
import { formatError, fromAnnotation } from '../../contracts/validate/errors.js';
import { entryFile, newTranslationSlug } from './check.js';
import { pruneEmpty } from './format.js';
import { repoPathOf } from './translations.js';
import { momentText } from './zonedDate.js';

/** Why a published entry is on no page for visitors yet: a draft, or an article dated later (`date`: when, as the editor reads it). */
export type Held = { reason: 'draft' } | { reason: 'scheduled'; date: string };

export type PublishState =
  | { state: 'waiting' }
  | { state: 'building' }
  /**
   * `url`: the page that changed; none when it cannot be known or is not there (the panel then
   * shows no link). `held`: the change is live but, as the entry asks, not shown to visitors yet.
   */
  | { state: 'live'; url?: string; held?: Held }
  /** `problems`: content problems as `npm run check` prints them; none: the deploy itself failed. */
  | { state: 'failed'; problems: string[] }
  | { state: 'unknown' };

export const isSettled = (s: PublishState) => s.state === 'live' || s.state === 'failed';

/** Live, with the link to `page` on the site at `origin` when the page is known. */
const live = (origin: string, page: string | undefined): PublishState => (page === undefined ? { state: 'live' } : { state: 'live', url: origin + page });

/**
 * Whether a published entry is held back from visitors, and why: the build leaves out a draft, and
 * an article whose date is after the build's `now` (generator/collections/articles.ts). Only
 * articles are ever held; their date is read in the business's `timeZone`.
 */
export type HeldAt = (now: number) => Held | undefined;

export function heldBack(kind: KindName | undefined, data: Record<string, unknown>, timeZone: string): HeldAt {
  if (kind !== 'article') return () => undefined;
  const saved = (pruneEmpty(data) ?? {}) as { draft?: unknown; date?: unknown };
  const at = typeof saved.date === 'string' ? parseZoned(saved.date, timeZone) : undefined;
  return (now) => {
    if (saved.draft === true) return { reason: 'draft' };
    return at && at.time > now ? { reason: 'scheduled', date: momentText(at.time, timeZone) } : undefined;
  };
}

/** Where the state of one publish is read from: begin() right after Publish, then check() until it settles. */
export interface PublishSource {
  begin(): Promise<void>;
  check(): Promise<PublishState>;
}

/** The deploy workflow's file and the name of its content gate job (.github/workflows/deploy.yml; tests/tools/workflows.test.ts holds them together). */
export const DEPLOY_WORKFLOW = 'deploy.yml';
export const GATE_JOB = 'Content gate';

/** The page a single file shows in, by name in each language's routes (the articles' page is English only). */
const PAGE_OF_KIND: Partial<Record<KindName, FixedPage>> = {
  site: 'home', home: 'home', servicesIndex: 'services', locations: 'locations', contact: 'contact',
  checklist: 'checklist', forms: 'contact', customerLogin: 'customerLogin', bookOnline: 'bookOnline',
};

/**
 * The page that shows an entry's change in its language (`lang`): its own page, or where it
 * appears (a city with only a card: its language's /locations), by the rule the build applies
 * (generator/model/assemble.ts: a service's address is its slug field where it has one, else its
 * file name) to the data as it is saved (cms/app/format.ts drops empty values: a page left with
 * empty lists is no page). An entry of a folder whose file name is not known yet: its collection's
 * listing, or undefined (no link), never an address with an empty slug.
 */
export function changedPage(kind: KindName, slug: string, data: Record<string, unknown>, lang: Lang = DEFAULT_LANGUAGE): string | undefined {
  const routes = ROUTE_TABLES[lang];
  const saved = pruneEmpty(data) as { page?: unknown; slug?: unknown } | undefined;
  switch (kind) {
    case 'article':
      return slug ? articleRoute(slug) : ROUTES.articles;
    case 'articlesIndex':
      return ROUTES.articles;
    case 'legal':
      return slug ? entryRoute(slug) : undefined;
    case 'service': {
      const own = typeof saved?.slug === 'string' ? saved.slug : slug;
      return own ? routes.service(own) : routes.fixed.services;
    }
    case 'city':
      return slug && saved?.page ? routes.city(slug) : routes.fixed.locations;
    default:
      return routes.fixed[PAGE_OF_KIND[kind] ?? 'home'];
  }
}

/** The page that shows the change saved to `file` (its path in the repository: content/…, content/es/…); undefined for a file that is no entry's (a picture). */
export function pageOfFile(file: string, data: Record<string, unknown>): string | undefined {
  const at = repoPathOf(file);
  return at && changedPage(at.kind, slugOf(at.rel), data, at.lang);
}

/** The first page named by the files one Publish wrote (pictures name none). */
export const pageOfFiles = (files: readonly string[], data: Record<string, unknown>) =>
  files.map((f) => pageOfFile(f, data)).find((p) => p !== undefined);

/** What Decap's postPublish event says of the entry, as plain values. */
export interface PublishedEntry { collection: string; slug: string; path: string; data: Record<string, unknown> }

/**
 * The page of a published entry, as far as the postPublish event tells: from its file, or from its
 * slug. An entry created and published at once (no editorial workflow: the local backend of `npm
 * run dev`) still has an empty slug and path then: Decap makes them from the identifier field while
 * saving and does not hand them to the event; that page is its collection's listing until the
 * source says which file was written (localSource), but for a new translation, whose identifier
 * is the English original's file name.
 */
export function publishedPage(config: { collections?: readonly object[] }, entry: PublishedEntry): string | undefined {
  const fromPath = entry.path ? pageOfFile(entry.path, entry.data) : undefined;
  if (fromPath) return fromPath;
  // A new translation's file name is the English original chosen in its first field.
  const slug = entry.slug || newTranslationSlug(config, entry.collection, entry.data);
  const target = entryFile(config, entry.collection, slug);
  return target && changedPage(target.kind, slug && slugOf(target.file), entry.data, target.lang);
}

/** Whether a published entry is held back from visitors (heldBack), from what the postPublish event tells of it. */
export function publishedHeld(config: { collections?: readonly object[] }, entry: PublishedEntry, timeZone: string): HeldAt {
  const kind = entry.path ? repoPathOf(entry.path)?.kind : entryFile(config, entry.collection, entry.slug)?.kind;
  return heldBack(kind, entry.data, timeZone);
}

interface Run { id: number; event: string; status: string; conclusion: string | null }
interface Job { id: number; name: string; conclusion: string | null }
interface Annotation { path: string; start_line?: number | null; start_column?: number | null; title?: string | null; message: string; annotation_level: string }

export interface GitHubSourceOptions {
  /** https://api.github.com, or the backend's api_root. */
  api: string;
  /** owner/name */
  repo: string;
  branch: string;
  /** The editor's token, read when needed (the content manager keeps it). */
  token: () => string | undefined;
  /** The live site: its /build.json says what visitors get. */
  siteOrigin: string;
  /** The page that changed, a path; none: the panel shows no link. */
  page: string | undefined;
  /** Whether the entry is held back from visitors at the live build's "now" (heldBack); none: never. */
  held?: HeldAt;
  fetch?: typeof fetch;
}

export function gitHubSource(o: GitHubSourceOptions): PublishSource {
  const get = o.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args));
  /** The commit that holds the change: the branch's head right after Publish, or a later one that overtook it. */
  let target: string | undefined;
  /** Live commit → whether it holds the target (GitHub's compare, asked once per commit). */
  const holds = new Map<string, boolean>();
  const gh = async <T>(path: string): Promise<T> => {
    const token = o.token();
    const res = await get(`${o.api}/repos/${o.repo}${path}`, {
      headers: { accept: 'application/vnd.github+json', ...(token && { authorization: `Bearer ${token}` }) },
      cache: 'no-store',
    });
    if (!res.ok) throw new Error(`GitHub answered ${res.status} for ${path}`);
    return (await res.json()) as T;
  };
  const head = async () => (await gh<{ sha: string }>(`/commits/${encodeURIComponent(o.branch)}`)).sha;
  const liveBuild = async (): Promise<Partial<BuildInfo> | undefined> => {
    try {
      const res = await get(o.siteOrigin + BUILD_INFO_PATH, { cache: 'no-store' });
      return res.ok ? ((await res.json()) as Partial<BuildInfo>) : undefined;
    } catch {
      return undefined;
    }
  };
  /** Live: with the page, or, for an entry the live build held back (its "now" before the article's date), why there is none. */
  const liveState = (build: Partial<BuildInfo>): PublishState => {
    const now = typeof build.now === 'string' && !Number.isNaN(Date.parse(build.now)) ? Date.parse(build.now) : Date.now();
    const held = o.held?.(now);
    return held ? { state: 'live', held } : live(o.siteOrigin, o.page);
  };
  const isLive = async (live: string | undefined, wanted: string) => {
    if (!live) return false;
    if (live === wanted) return true;
    if (!holds.has(`${wanted}…${live}`)) {
      const { status } = await gh<{ status: string }>(`/compare/${wanted}...${live}`);
      holds.set(`${wanted}…${live}`, status === 'ahead' || status === 'identical');
    }
    return holds.get(`${wanted}…${live}`)!;
  };
  return {
    async begin() {
      target = await head().catch(() => undefined);
    },
    async check() {
      try {
        const wanted = (target ??= await head());
        const build = await liveBuild();
        if (build && await isLive(build.commit ?? undefined, wanted)) return liveState(build);
        const { workflow_runs: runs } = await gh<{ workflow_runs: Run[] }>(`/actions/workflows/${DEPLOY_WORKFLOW}/runs?head_sha=${wanted}&event=push&per_page=5`);
        const run = runs[0]; // newest first
        if (!run || run.status !== 'completed') return { state: run?.status === 'in_progress' ? 'building' : 'waiting' };
        // Deployed: the live site shows it at the next look.
        if (run.conclusion === 'success') return { state: 'building' };
        if (run.conclusion === 'cancelled' || run.conclusion === 'skipped') {
          // A newer push took its place (deploy.yml's concurrency): that one holds this change too.
          const now = await head();
          if (now !== wanted) {
            target = now;
            return { state: 'building' };
          }
          return { state: 'failed', problems: [] };
        }
        return { state: 'failed', problems: await contentProblems(run) };
      } catch {
        return { state: 'unknown' };
      }
    },
  };

  /** The content gate's problems, read back from its annotations; [] when something else failed. */
  async function contentProblems(run: Run): Promise<string[]> {
    const { jobs } = await gh<{ jobs: Job[] }>(`/actions/runs/${run.id}/jobs?per_page=100`);
    const gate = jobs.find((j) => j.name === GATE_JOB && j.conclusion === 'failure');
    if (!gate) return [];
    const annotations = await gh<Annotation[]>(`/check-runs/${gate.id}/annotations?per_page=100`);
    return annotations.filter((a) => a.annotation_level === 'failure' && a.path.startsWith('content/')).map((a) => formatError(fromAnnotation(a)));
  }
}

/**
 * What the dev server's local backend answers for publishStatus (cms/localBackend.ts); `files`:
 * the entry files that Publish wrote, as the CMS names them (content/cities/colma.yaml).
 */
export interface LocalPublishStatus { state: 'none' | 'building' | 'live' | 'failed'; problems?: string[]; files?: string[] }

/**
 * `page`: what the postPublish event knew (publishedPage); the file the local backend says it
 * wrote names the page better (a new entry's slug is known only once saved), with the entry's `data`.
 */
export function localSource(o: { endpoint: string; siteOrigin: string; page: string | undefined; data?: Record<string, unknown>; held?: HeldAt; fetch?: typeof fetch }): PublishSource {
  const get = o.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args));
  return {
    async begin() {},
    async check() {
      try {
        const res = await get(o.endpoint, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ action: 'publishStatus', params: {} }) });
        if (!res.ok) return { state: 'unknown' };
        const status = (await res.json()) as LocalPublishStatus;
        if (status.state === 'live') {
          // npm run dev shows drafts and articles dated later, marked: their page is there to look at.
          const state = live(o.siteOrigin, pageOfFiles(status.files ?? [], o.data ?? {}) ?? o.page);
          const held = o.held?.(Date.now());
          return held ? { ...state, held } : state;
        }
        if (status.state === 'failed') return { state: 'failed', problems: status.problems ?? [] };
        return { state: status.state === 'building' ? 'building' : 'waiting' };
      } catch {
        return { state: 'unknown' };
      }
    },
  };
}

export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const realClock: Clock = { now: () => Date.now(), sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)) };

/**
 * Reads the source every `everyMs` and tells each new state, until it settles, the signal aborts
 * (a newer Publish took over) or `giveUpMs` passed (then: cannot tell).
 */
export async function followPublish(source: PublishSource, onState: (s: PublishState) => void, opts: { signal: AbortSignal; clock?: Clock; everyMs?: number; giveUpMs?: number }): Promise<void> {
  const { signal, clock = realClock, everyMs = 5_000, giveUpMs = 30 * 60_000 } = opts;
  const started = clock.now();
  let last = '';
  const tell = (s: PublishState) => {
    if (signal.aborted || JSON.stringify(s) === last) return;
    last = JSON.stringify(s);
    onState(s);
  };
  tell({ state: 'waiting' });
  await source.begin();
  for (;;) {
    if (signal.aborted) return;
    const state = await source.check();
    tell(state);
    if (isSettled(state) || signal.aborted) return;
    if (clock.now() - started >= giveUpMs) return tell({ state: 'unknown' });
    await clock.sleep(everyMs);
  }
}
