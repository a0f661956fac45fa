/**
 * The content manager's publish panel, its state read from local fakes of GitHub's API and of the
 * live site (tests/helpers/fakeGitHub.ts): waiting and building from the deploy workflow's run,
 * live only once the live site's /build.json holds the commit, failed with the content problem as
 * `npm run check` prints it or with "the site could not be deployed", a second publish overtaking
 * the first, and GitHub unreachable (it cannot tell, and nothing throws).
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { createElement } from 'react';
import {
  changedPage, followPublish, gitHubSource, heldBack, localSource, pageOfFile, publishedHeld, publishedPage, type Clock, type LocalPublishStatus, type PublishSource, type PublishState,
} from '../../cms/app/publishState.js';
import { TWIN_FIELD } from '../../cms/app/translations.js';
import { cmsConfig } from '../../cms/config.js';
import { describeState, PublishStatus } from '../../cms/app/publishStatus.js';
import { checkContent } from '../../generator/build.js';
import { ContentErrors, githubAnnotation } from '../../contracts/validate/errors.js';
import { contentCopy, problems, withTempDir } from '../helpers/content.js';
import { fakeGitHubApi, fakeLiveSite, type FakeAnnotation, type FakeGitHubApi } from '../helpers/fakeGitHub.js';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const OLD = '0'.repeat(39) + '1';
const TOKEN = 'gho_editor';

let github: FakeGitHubApi;
let live: Awaited<ReturnType<typeof fakeLiveSite>>;
beforeAll(async () => {
  [github, live] = await Promise.all([fakeGitHubApi(), fakeLiveSite()]);
});
afterAll(async () => {
  await Promise.all([github?.close(), live?.close()]);
});
beforeEach(() => {
  // The site runs OLD; the editor's Publish made A on top of it.
  Object.assign(github, { head: A, down: false, requests: [] });
  github.parents.clear();
  github.parents.set(A, OLD);
  github.runs.clear();
  github.jobs.clear();
  github.annotations.clear();
  live.commit = OLD;
});

const PAGE = '/locations/deep-cleaning-colma-ca';
const source = (token: string | undefined = TOKEN) => gitHubSource({ api: github.url, repo: github.repo, branch: 'main', token: () => token, siteOrigin: live.url, page: PAGE });

async function begun(s = source()): Promise<PublishSource> {
  await s.begin();
  return s;
}

/** What GitHub stores for a `::error …::…` line a step printed (its workflow-command parsing). */
function annotationOf(command: string): FakeAnnotation {
  const m = /^::error ([^:]*)::(.*)$/.exec(command)!;
  const unescape = (s: string) => s.replace(/%0A/g, '\n').replace(/%0D/g, '\r').replace(/%3A/g, ':').replace(/%2C/g, ',').replace(/%25/g, '%');
  const props = Object.fromEntries(m[1]!.split(',').map((kv) => [kv.slice(0, kv.indexOf('=')), unescape(kv.slice(kv.indexOf('=') + 1))]));
  return { path: props.file!, start_line: Number(props.line), start_column: props.col ? Number(props.col) : null, title: props.title ?? null, message: unescape(m[2]!), annotation_level: 'failure' };
}

describe('the publish panel, from GitHub and the live site', () => {
  it('waits for the run, builds while it runs and after it deployed, and says live only once the live site serves the commit, with the page that changed', async () => {
    const s = await begun();
    expect(await s.check()).toEqual({ state: 'waiting' });
    github.runs.set(A, [{ id: 1, head_sha: A, event: 'push', status: 'queued', conclusion: null }]);
    expect(await s.check()).toEqual({ state: 'waiting' });
    github.runs.get(A)![0]!.status = 'in_progress';
    expect(await s.check()).toEqual({ state: 'building' });
    Object.assign(github.runs.get(A)![0]!, { status: 'completed', conclusion: 'success' });
    // The workflow says it deployed; visitors still get OLD: not live yet.
    expect(await s.check()).toEqual({ state: 'building' });
    live.commit = A;
    expect(await s.check()).toEqual({ state: 'live', url: `${live.url}${PAGE}` });
    expect(describeState({ state: 'live', url: '' }).title).toBe('Your change is live.');
    // Every call to GitHub carried the editor's own token.
    expect(github.requests.length).toBeGreaterThan(5);
    expect(new Set(github.requests.map((r) => r.authorization))).toEqual(new Set([`Bearer ${TOKEN}`]));
  });

  it('says live when the live site runs a later commit that holds the change', async () => {
    const s = await begun();
    github.parents.set(B, A);
    live.commit = B;
    expect(await s.check()).toEqual({ state: 'live', url: `${live.url}${PAGE}` });
  });

  it('shows the content gate\'s problems exactly as npm run check prints them', async () => {
    await withTempDir('publish-failed-', async (dir) => {
      const contentDir = await contentCopy(dir);
      await writeFile(path.join(contentDir, 'cities/colma.yaml'), (await import('node:fs/promises').then((fs) => fs.readFile(path.join(contentDir, 'cities/colma.yaml'), 'utf8'))).replace(/^population: .*\n/m, ''));
      const expected = await problems(contentDir);
      expect(expected.length).toBeGreaterThan(0);
      // The gate printed its annotations (cli/commands.ts); GitHub stored them on the job.
      const errors = await checkContent({ root: dir, contentDir }).then(() => [], (e: unknown) => (e as ContentErrors).errors);
      github.runs.set(A, [{ id: 2, head_sha: A, event: 'push', status: 'completed', conclusion: 'failure' }]);
      github.jobs.set(2, [{ id: 21, name: 'Changed files', conclusion: 'success' }, { id: 22, name: 'Content gate', conclusion: 'failure' }, { id: 23, name: 'Full test suite', conclusion: 'skipped' }]);
      github.annotations.set(22, [
        ...errors.map((e) => annotationOf(githubAnnotation({ ...e, file: path.relative(dir, path.resolve(dir, e.file)) }))),
        { path: '.github', start_line: 1, start_column: null, title: null, message: 'Process completed with exit code 1.', annotation_level: 'failure' },
      ]);
      const state = await (await begun()).check();
      expect(state).toEqual({ state: 'failed', problems: expected });
      expect(describeState(state).title).toBe('Not published: the site refused this content.');
    });
  });

  it('says the site could not be deployed when anything but the content failed', async () => {
    github.runs.set(A, [{ id: 3, head_sha: A, event: 'push', status: 'completed', conclusion: 'failure' }]);
    github.jobs.set(3, [{ id: 31, name: 'Content gate', conclusion: 'success' }, { id: 32, name: 'deploy', conclusion: 'failure' }]);
    const state = await (await begun()).check();
    expect(state).toEqual({ state: 'failed', problems: [] });
    expect(describeState(state).title).toBe('The site could not be deployed, nothing changed for visitors.');
  });

  it('follows a newer publish that overtook this one (its run cancelled for the next), and says live when that one is', async () => {
    const s = await begun();
    github.runs.set(A, [{ id: 4, head_sha: A, event: 'push', status: 'in_progress', conclusion: null }]);
    expect(await s.check()).toEqual({ state: 'building' });
    // A second publish: B on top of A; A's run is cancelled in favour of B's.
    github.head = B;
    github.parents.set(B, A);
    Object.assign(github.runs.get(A)![0]!, { status: 'completed', conclusion: 'cancelled' });
    github.runs.set(B, [{ id: 5, head_sha: B, event: 'push', status: 'in_progress', conclusion: null }]);
    expect(await s.check()).toEqual({ state: 'building' });
    expect(await s.check()).toEqual({ state: 'building' });
    expect(github.requests.at(-1)!.path).toContain(`head_sha=${B}`);
    live.commit = B;
    expect(await s.check()).toEqual({ state: 'live', url: `${live.url}${PAGE}` });
  });

  it('a cancelled run with nothing newer is a failed deploy, not a wait forever', async () => {
    github.runs.set(A, [{ id: 6, head_sha: A, event: 'push', status: 'completed', conclusion: 'cancelled' }]);
    expect(await (await begun()).check()).toEqual({ state: 'failed', problems: [] });
  });

  it('cannot tell while GitHub cannot be reached or refuses the token, and carries on when it answers again', async () => {
    github.down = true;
    const s = await begun();
    expect(await s.check()).toEqual({ state: 'unknown' });
    expect(describeState({ state: 'unknown' }).title).toBe('Cannot tell whether your change is live: GitHub cannot be reached.');
    expect(describeState({ state: 'unknown' }, true).title).toBe('Cannot tell whether your change is live: the dev server does not answer.');
    github.down = false;
    live.commit = A;
    expect(await s.check()).toEqual({ state: 'live', url: `${live.url}${PAGE}` });
    expect(await (await begun(source(''))).check()).toEqual({ state: 'unknown' }); // signed out: GitHub answers 401
  });

  it('names the page that changed for each kind of entry', () => {
    expect(changedPage('city', 'colma', { page: { tagline: 'Colma homes, cleaned like our own' } })).toBe('/locations/deep-cleaning-colma-ca');
    expect(changedPage('city', 'atherton', {})).toBe('/locations');
    // The form starts a city's optional page with empty lists; saved, that is no page (cms/app/format.ts).
    expect(changedPage('city', 'atherton', { page: { intro: [], benefits: [], faqs: [], tagline: '' } })).toBe('/locations');
    expect(changedPage('service', 'move-in-out-cleaning', {})).toBe('/move-in-out-cleaning');
    expect(changedPage('contact', 'contact', {})).toBe('/contact');
    expect(changedPage('site', 'site', {})).toBe('/');
  });
});

/**
 * A new entry published at once (the local backend of `npm run dev`: no editorial workflow): Decap
 * makes its slug and path while saving and hands the postPublish event the entry as typed, slug and
 * path still empty. The page is named from the file written, never as an address with an empty slug.
 */
describe('the page that changed, for a new entry', () => {
  const config = cmsConfig();
  const city = { name: 'Mountain View', population: '~82,000', page: { tagline: 'Spotless homes from Castro Street to Shoreline Park', intro: ['One.', 'Two.'] } };
  const service = { title: 'Window Cleaning', description: 'Streak-free windows inside and out.' };
  /** The local backend answering publishStatus with `status` (its endpoint, without a server). */
  const answering = (status: LocalPublishStatus): typeof fetch => async () => new Response(JSON.stringify(status), { headers: { 'content-type': 'application/json' } });
  const origin = 'http://127.0.0.1:8080';
  const localCheck = (page: string | undefined, data: Record<string, unknown>, status: LocalPublishStatus) =>
    localSource({ endpoint: `${origin}/admin/api/v1`, siteOrigin: origin, page, data, fetch: answering(status) }).check();

  it('what the event tells: the collection\'s listing for a new entry (no slug yet), the entry\'s own page once it has a slug or a path', () => {
    const newEntry = (collection: string, data: Record<string, unknown>) => publishedPage(config, { collection, slug: '', path: '', data });
    expect(newEntry('cities', city)).toBe('/locations');
    expect(newEntry('services', service)).toBe('/services');
    expect(newEntry('legal', { title: 'Cookie policy' })).toBeUndefined(); // no listing page: no link
    // A saved entry (edited, or published from the editorial workflow): its slug and path are known.
    expect(publishedPage(config, { collection: 'cities', slug: 'mountain-view', path: '', data: city })).toBe('/locations/deep-cleaning-mountain-view-ca');
    expect(publishedPage(config, { collection: 'cities', slug: 'mountain-view', path: 'content/cities/mountain-view.yaml', data: city })).toBe('/locations/deep-cleaning-mountain-view-ca');
    expect(publishedPage(config, { collection: 'services', slug: '', path: 'content/services/window-cleaning.yaml', data: service })).toBe('/window-cleaning');
    expect(publishedPage(config, { collection: 'legal', slug: 'privacy-policy', path: '', data: { title: 'Privacy policy' } })).toBe('/privacy-policy');
    expect(publishedPage(config, { collection: 'pages', slug: 'contact', path: '', data: {} })).toBe('/contact');
    expect(publishedPage(config, { collection: 'cities', slug: 'fremont', path: '', data: { name: 'Fremont' } })).toBe('/locations');
  });

  it('a new city published under npm run dev links to its page, named from the file the local backend wrote', async () => {
    const page = publishedPage(config, { collection: 'cities', slug: '', path: '', data: city });
    expect(await localCheck(page, city, { state: 'live', files: ['content/cities/mountain-view.yaml'] })).toEqual({ state: 'live', url: `${origin}/locations/deep-cleaning-mountain-view-ca` });
    // A new city with only a card: its change shows on /locations.
    const card = { name: 'Los Altos', population: '~31,000', page: { intro: [], faqs: [] } };
    expect(await localCheck(page, card, { state: 'live', files: ['content/cities/los-altos.yaml'] })).toEqual({ state: 'live', url: `${origin}/locations` });
    // Not live yet: no link at all.
    expect(await localCheck(page, city, { state: 'building', files: ['content/cities/mountain-view.yaml'] })).toEqual({ state: 'building' });
  });

  it('a new service published under npm run dev links to its page, a picture saved with it names none', async () => {
    const page = publishedPage(config, { collection: 'services', slug: '', path: '', data: service });
    const files = ['content/images/services/window.jpg', 'content/services/window-cleaning.yaml'];
    expect(await localCheck(page, service, { state: 'live', files })).toEqual({ state: 'live', url: `${origin}/window-cleaning` });
  });

  it('without the file written (an older dev server), the listing, or no link: never an address with an empty slug', async () => {
    const cityPage = publishedPage(config, { collection: 'cities', slug: '', path: '', data: city });
    expect(await localCheck(cityPage, city, { state: 'live' })).toEqual({ state: 'live', url: `${origin}/locations` });
    const legalPage = publishedPage(config, { collection: 'legal', slug: '', path: '', data: { title: 'Cookie policy' } });
    const state = await localCheck(legalPage, {}, { state: 'live', files: ['content/images/legal/x.png'] });
    expect(state).toEqual({ state: 'live' });
    expect(describeState(state).title).toBe('Your change is live.');
    expect([changedPage('city', '', city), changedPage('service', '', service), changedPage('legal', '', {})]).toEqual(['/locations', '/services', undefined]);
  });
});

/**
 * A Spanish entry's page after Publish is its Spanish page (contracts/routes.ts ROUTE_TABLES.es): a
 * service's at /es/<its slug field>, a city's at /es/ubicaciones/limpieza-profunda-<file>-ca when it
 * has a page (else /es/ubicaciones), a single page's at its Spanish address; a new one's file name
 * is the English original it was started from.
 */
describe('the page of a published Spanish entry', () => {
  const config = cmsConfig();
  const origin = 'http://127.0.0.1:8080';
  const answering = (status: LocalPublishStatus): typeof fetch => async () => new Response(JSON.stringify(status), { headers: { 'content-type': 'application/json' } });
  const service = { slug: 'limpieza-de-mudanza', name: 'Limpieza de mudanza' };
  const city = { name: 'San José', page: { tagline: 'Nacidos en San José' } };

  it('is the Spanish service page, at its slug field: from the file, the slug, or a new entry\'s English original', () => {
    expect(changedPage('service', 'move-in-out-cleaning', service, 'es')).toBe('/es/limpieza-de-mudanza');
    expect(pageOfFile('content/es/services/move-in-out-cleaning.yaml', service)).toBe('/es/limpieza-de-mudanza');
    expect(publishedPage(config, { collection: 'services-es', slug: 'move-in-out-cleaning', path: '', data: service })).toBe('/es/limpieza-de-mudanza');
    expect(publishedPage(config, { collection: 'services-es', slug: '', path: '', data: { [TWIN_FIELD]: 'move-in-out-cleaning', ...service } })).toBe('/es/limpieza-de-mudanza');
    // No slug typed yet: the Spanish services page.
    expect(changedPage('service', '', {}, 'es')).toBe('/es/servicios');
    // The English service is still at its file name.
    expect(pageOfFile('content/services/move-in-out-cleaning.yaml', { name: 'Move-In/Out Cleaning' })).toBe('/move-in-out-cleaning');
  });

  it('is the Spanish city page, or the Spanish /locations for a city with only a card', () => {
    expect(pageOfFile('content/es/cities/san-jose.yaml', city)).toBe('/es/ubicaciones/limpieza-profunda-san-jose-ca');
    expect(publishedPage(config, { collection: 'cities-es', slug: 'san-jose', path: '', data: city })).toBe('/es/ubicaciones/limpieza-profunda-san-jose-ca');
    expect(publishedPage(config, { collection: 'cities-es', slug: '', path: '', data: { [TWIN_FIELD]: 'san-jose', ...city } })).toBe('/es/ubicaciones/limpieza-profunda-san-jose-ca');
    expect(pageOfFile('content/es/cities/fremont.yaml', { name: 'Fremont' })).toBe('/es/ubicaciones');
    expect(publishedPage(config, { collection: 'cities-es', slug: '', path: '', data: city })).toBe('/es/ubicaciones');
  });

  it('is the Spanish address of each single page', () => {
    const page = (collection: string, slug: string) => publishedPage(config, { collection, slug, path: '', data: {} });
    expect(page('pages-es', 'home')).toBe('/es');
    expect(page('pages-es', 'servicesIndex')).toBe('/es/servicios');
    expect(page('pages-es', 'locations')).toBe('/es/ubicaciones');
    expect(page('pages-es', 'contact')).toBe('/es/contacto');
    expect(page('pages-es', 'customerLogin')).toBe('/es/acceso-clientes');
    expect(page('pages-es', 'bookOnline')).toBe('/es/reservar');
    expect(page('checklist-es', 'checklist')).toBe('/es/lista-de-limpieza');
    expect(page('settings-es', 'site')).toBe('/es');
    expect(page('settings-es', 'forms')).toBe('/es/contacto');
    expect(pageOfFile('content/es/contact.yaml', {})).toBe('/es/contacto');
    // An English-only kind under content/es/ is no entry of the site: no page.
    expect(pageOfFile('content/es/articles/x.md', {})).toBeUndefined();
  });

  it('a new Spanish city published under npm run dev links to its Spanish page, named from the file written', async () => {
    const page = publishedPage(config, { collection: 'cities-es', slug: '', path: '', data: city });
    const state = await localSource({ endpoint: `${origin}/admin/api/v1`, siteOrigin: origin, page, data: city, fetch: answering({ state: 'live', files: ['content/es/cities/san-jose.yaml'] }) }).check();
    expect(state).toEqual({ state: 'live', url: `${origin}/es/ubicaciones/limpieza-profunda-san-jose-ca` });
  });

  it('on the deployed site, once live, links to the Spanish page', async () => {
    live.commit = A;
    const page = publishedPage(config, { collection: 'services-es', slug: 'move-in-out-cleaning', path: 'content/es/services/move-in-out-cleaning.yaml', data: service });
    const s = gitHubSource({ api: github.url, repo: github.repo, branch: 'main', token: () => TOKEN, siteOrigin: live.url, page });
    await s.begin();
    expect(await s.check()).toEqual({ state: 'live', url: `${live.url}/es/limpieza-de-mudanza` });
  });
});

/**
 * An article's page after Publish: /articles/<slug>, named from the file written like any new
 * entry's; but a draft, or an article dated after the build's "now", is in no output of the build,
 * so once live the panel says so and links to no page (which would be a 404). Under npm run dev
 * the page is there, marked, and is linked.
 */
describe('the page of a published article', () => {
  const config = cmsConfig();
  const LA = 'America/Los_Angeles';
  const article = { title: 'How Often Should You Deep Clean?', date: '2026-11-20T09:30', tags: ['planning'], draft: false };
  const NOW = Date.parse('2026-11-25T12:00:00Z');
  const origin = 'http://127.0.0.1:8080';
  const answering = (status: LocalPublishStatus): typeof fetch => async () => new Response(JSON.stringify(status), { headers: { 'content-type': 'application/json' } });

  it('is /articles/<slug>: from the file written, the slug or the path; a new one without either is the listing', async () => {
    expect(changedPage('article', 'how-often', article)).toBe('/articles/how-often');
    expect(changedPage('article', '', article)).toBe('/articles');
    expect(changedPage('articlesIndex', 'articlesIndex', {})).toBe('/articles');
    expect(publishedPage(config, { collection: 'articles', slug: '', path: '', data: article })).toBe('/articles');
    expect(publishedPage(config, { collection: 'articles', slug: 'how-often', path: '', data: article })).toBe('/articles/how-often');
    expect(publishedPage(config, { collection: 'articles', slug: '', path: 'content/articles/how-often.md', data: article })).toBe('/articles/how-often');
    expect(publishedPage(config, { collection: 'pages', slug: 'articlesIndex', path: '', data: {} })).toBe('/articles');
    const page = publishedPage(config, { collection: 'articles', slug: '', path: '', data: article });
    const state = await localSource({ endpoint: `${origin}/admin/api/v1`, siteOrigin: origin, page, data: article, fetch: answering({ state: 'live', files: ['content/images/articles/k.jpg', 'content/articles/how-often.md'] }) }).check();
    expect(state).toEqual({ state: 'live', url: `${origin}/articles/how-often` });
  });

  it('a draft is held back, whenever; an article dated later until its date, read on the business\'s clock', () => {
    expect(heldBack('article', { ...article, draft: true }, LA)(NOW)).toEqual({ reason: 'draft' });
    expect(heldBack('article', article, LA)(NOW)).toBeUndefined();
    const later = heldBack('article', { ...article, date: '2026-12-24T09:00' }, LA);
    expect(later(NOW)).toEqual({ reason: 'scheduled', date: 'December 24, 2026 at 9:00 AM' });
    expect(later(Date.parse('2026-12-24T16:59:59Z'))).toEqual({ reason: 'scheduled', date: 'December 24, 2026 at 9:00 AM' });
    expect(later(Date.parse('2026-12-24T17:00:00Z'))).toBeUndefined(); // 9:00 in California
    // Other entries are never held; a draft switch left false is no draft.
    expect(heldBack('city', { draft: true }, LA)(NOW)).toBeUndefined();
    expect(publishedHeld(config, { collection: 'articles', slug: '', path: '', data: { ...article, draft: true } }, LA)(NOW)).toEqual({ reason: 'draft' });
    expect(publishedHeld(config, { collection: 'cities', slug: '', path: 'content/cities/colma.yaml', data: { draft: true } }, LA)(NOW)).toBeUndefined();
  });

  it('on the deployed site: live, with no link, "Saved as a draft" or "Saved. It goes live on …", as of the live build\'s "now"', async () => {
    live.commit = A;
    /** The live site's /build.json with the build's "now" (contracts/buildInfo.ts), the rest from the fakes. */
    const withNow = (now: string): typeof fetch => async (input, init) => {
      const url = String(input);
      if (url === `${live.url}/build.json`) return new Response(JSON.stringify({ commit: A, time: null, now }), { headers: { 'content-type': 'application/json' } });
      return fetch(input, init);
    };
    const sourceFor = (data: Record<string, unknown>, now: string) => gitHubSource({
      api: github.url, repo: github.repo, branch: 'main', token: () => TOKEN, siteOrigin: live.url, fetch: withNow(now),
      page: publishedPage(config, { collection: 'articles', slug: 'how-often', path: '', data }), held: heldBack('article', data, LA),
    });
    const draft = await (await begun(sourceFor({ ...article, draft: true }, '2026-11-25T04:00:00-08:00'))).check();
    expect(draft).toEqual({ state: 'live', held: { reason: 'draft' } });
    expect(describeState(draft)).toEqual({ title: 'Saved as a draft.', detail: 'Visitors do not see it. To publish it, untick Draft and publish again.' });
    const dated = { ...article, date: '2026-12-24T09:00' };
    const scheduled = await (await begun(sourceFor(dated, '2026-11-25T04:00:00-08:00'))).check();
    expect(scheduled).toEqual({ state: 'live', held: { reason: 'scheduled', date: 'December 24, 2026 at 9:00 AM' } });
    expect(describeState(scheduled).title).toBe('Saved. It goes live on December 24, 2026 at 9:00 AM.');
    // The panel: no link to a page that is not there.
    const html = renderToStaticMarkup(createElement(PublishStatus, { state: scheduled, local: false, onDismiss: () => undefined }));
    expect(html).toContain('Saved. It goes live on December 24, 2026 at 9:00 AM.');
    expect(html).not.toContain('<a ');
    // Built once its date has come: the page, linked.
    expect(await (await begun(sourceFor(dated, '2026-12-24T09:05:00-08:00'))).check()).toEqual({ state: 'live', url: `${live.url}/articles/how-often` });
    expect(await (await begun(sourceFor(article, '2026-11-25T04:00:00-08:00'))).check()).toEqual({ state: 'live', url: `${live.url}/articles/how-often` });
  });

  it('under npm run dev: the page is there, marked, and linked, and the panel still says it is a draft', async () => {
    const data = { ...article, draft: true };
    const state = await localSource({
      endpoint: `${origin}/admin/api/v1`, siteOrigin: origin, page: '/articles', data, held: heldBack('article', data, LA),
      fetch: answering({ state: 'live', files: ['content/articles/how-often.md'] }),
    }).check();
    expect(state).toEqual({ state: 'live', url: `${origin}/articles/how-often`, held: { reason: 'draft' } });
    expect(describeState(state, true).title).toBe('Saved as a draft.');
    const html = renderToStaticMarkup(createElement(PublishStatus, { state, local: true, onDismiss: () => undefined }));
    expect(html).toContain(`href="${origin}/articles/how-often"`);
    expect(html).toContain('View the page as npm run dev shows it');
  });
});

/** A clock the test moves: sleep() waits until wake(), so each check happens when the test says. */
function manualClock() {
  let t = 0;
  let wake: (() => void) | undefined;
  let asleep: (() => void) | undefined;
  let sleeping = new Promise<void>((r) => { asleep = r; });
  const clock: Clock = {
    now: () => t,
    sleep: (ms) => new Promise<void>((resolve) => {
      t += ms;
      wake = resolve;
      asleep?.();
    }),
  };
  return {
    clock,
    /** Resolves once the follower sleeps between two checks. */
    sleeping: () => sleeping,
    wake: () => {
      sleeping = new Promise<void>((r) => { asleep = r; });
      wake?.();
    },
  };
}

describe('following a publish', () => {
  const controllers: AbortController[] = [];
  afterEach(() => controllers.splice(0).forEach((c) => c.abort()));
  const follow = (s: PublishSource, states: PublishState[], clock: Clock, giveUpMs?: number) => {
    const controller = new AbortController();
    controllers.push(controller);
    return { controller, done: followPublish(s, (x) => states.push(x), { signal: controller.signal, clock, everyMs: 5_000, ...(giveUpMs && { giveUpMs }) }) };
  };

  it('tells each new state once, and stops when it settles', async () => {
    const { clock, sleeping, wake } = manualClock();
    const states: PublishState[] = [];
    const { done } = follow(source(), states, clock);
    await sleeping();
    github.runs.set(A, [{ id: 7, head_sha: A, event: 'push', status: 'in_progress', conclusion: null }]);
    wake();
    await sleeping();
    wake();
    await sleeping();
    live.commit = A;
    wake();
    await done;
    expect(states).toEqual([{ state: 'waiting' }, { state: 'building' }, { state: 'live', url: `${live.url}${PAGE}` }]);
  });

  it('a second publish takes over: the first one\'s follower goes quiet', async () => {
    const first = manualClock();
    const second = manualClock();
    const firstStates: PublishState[] = [];
    const secondStates: PublishState[] = [];
    const one = follow(source(), firstStates, first.clock);
    await first.sleeping();
    one.controller.abort();
    github.head = B;
    github.parents.set(B, A);
    const two = follow(source(), secondStates, second.clock);
    await second.sleeping();
    live.commit = B;
    first.wake();
    second.wake();
    await Promise.all([one.done, two.done]);
    expect(firstStates).toEqual([{ state: 'waiting' }]);
    expect(secondStates).toEqual([{ state: 'waiting' }, { state: 'live', url: `${live.url}${PAGE}` }]);
  });

  it('gives up after a while with "cannot tell" when nothing settles (GitHub down throughout)', async () => {
    github.down = true;
    const { clock, sleeping, wake } = manualClock();
    const states: PublishState[] = [];
    const { done } = follow(source(), states, clock, 12_000);
    for (let i = 0; i < 3; i++) {
      await sleeping();
      wake();
    }
    await done;
    expect(states).toEqual([{ state: 'waiting' }, { state: 'unknown' }]);
  });
});
