/**
 * The /admin page: Decap CMS (its prebuilt bundle, served from /assets/decap-cms-<version>/) with
 * - our React as its React: the prebuilt bundle takes React from window.React and must get the very
 *   version its own react-dom was built with (generator/assets/appBundle.ts aliases it);
 * - live previews drawn by the site's own templates (templates/pages/CityPage.tsx, ServicePage.tsx,
 *   ArticlePage.tsx) with the build's stylesheet, from data the build planned (generator/backOffice/backOffice.ts),
 *   a translation's in its own language, with a switch to its English original;
 * - each translation's collections beside the English ones (content/es/…: cms/config.ts), a new
 *   city or service started from the English original it translates (cms/app/twinWidget.tsx);
 * - a YAML format and a Markdown front matter format that keep our files ours: the editor modeline
 *   on top, no empty optional values, dates left as the texts they are;
 * - a widget for values that are one of a few JSON values (a checklist cell: true, false or "N/A");
 * - a date widget on the business's clock (an article's date: cms/app/zonedDate.ts).
 * Never loaded by the public pages: only admin.html references it.
 */
import * as React from 'react';
import * as ReactDOM from 'react-dom';
import { DEFAULT_LANGUAGE, LANGUAGES, TRANSLATIONS } from '../../contracts/languages.js';
import { entryFile, entryProblems, newTranslationProblems, newTranslationSlug, twinProblems } from './check.js';
import { cmsFrontmatterFormat, cmsYamlFormat, fieldSetsOf, yamlFormatOf } from './format.js';
import { ChoiceControl, ChoicePreview } from './choice.js';
import { ArticlePreview, cityPreview, servicePreview, setPreviewContext, type PreviewContext } from './preview.js';
import { gitHubFiles, localFiles, readData, type RepoFiles } from './repoFiles.js';
import { collectionIn, TWIN_WIDGET } from './translations.js';
import { twinControl } from './twinWidget.js';
import type { AdminSettings } from './settings.js';
import { optionalObjectControl, type WidgetDefinition } from './optionalObject.js';
import { pictureProblem } from './upload.js';
import { followPublish, gitHubSource, localSource, publishedHeld, publishedPage } from './publishState.js';
import { publishStatusPanel } from './publishStatus.js';
import { browserTimeZone, ZONED_DATE_TIME_WIDGET } from './zonedDate.js';
import { zonedDateTimeControl, zonedDateTimePreview } from './zonedDateTime.js';

interface DecapCms {
  init(options: { config: Record<string, unknown> }): void;
  registerPreviewTemplate(collection: string, component: React.ComponentType<never>): void;
  registerPreviewStyle(style: string, options?: { raw: boolean }): void;
  registerWidget(name: string, control: React.ComponentType<never>, preview?: React.ComponentType<never>, schema?: object): void;
  getWidget(name: string): WidgetDefinition;
  registerCustomFormat(name: string, extension: string, format: ReturnType<typeof cmsYamlFormat>): void;
  registerEventListener(listener: { name: 'preSave' | 'postPublish'; handler: (event: { entry: ImmutableEntry }) => undefined | Promise<undefined> }): void;
}

interface ImmutableEntry {
  get(key: 'collection' | 'slug' | 'path'): string;
  get(key: 'newRecord'): boolean | undefined;
  get(key: 'data'): { toJS(): Record<string, unknown> };
}

declare global {
  interface Window {
    React?: typeof React;
    ReactDOM?: typeof ReactDOM;
    /** What Decap's prebuilt script defines: the CMS object itself. */
    DecapCmsApp?: DecapCms;
  }
}

function loadScript(src: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = src;
    script.onload = () => resolve();
    script.onerror = () => reject(new Error(`Could not load ${src}`));
    document.head.append(script);
  });
}

async function getJson<T>(url: string): Promise<T> {
  const res = await fetch(url, { cache: 'no-cache' });
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  return (await res.json()) as T;
}

/**
 * Checks every file picked for upload before the CMS sees it (cms/app/upload.ts): a file that
 * is not a picture, or too large, is refused on the spot with the reason, so it never becomes part
 * of the entry being edited. The change event is held (window, capture phase: before React's
 * listener) and sent again once the file passed.
 */
function checkPickedFiles() {
  const passed = new WeakSet<Event>();
  window.addEventListener('change', (event) => {
    const input = event.target;
    if (passed.has(event) || !(input instanceof HTMLInputElement) || input.type !== 'file' || !input.files?.length) return;
    event.stopImmediatePropagation();
    const files = [...input.files];
    void Promise.all(files.map(async (f) => pictureProblem(f.name, new Uint8Array(await f.arrayBuffer())))).then((problems) => {
      const problem = problems.find(Boolean);
      if (problem) {
        window.alert(problem);
        input.value = '';
        return;
      }
      const again = new Event('change', { bubbles: true });
      passed.add(again);
      input.dispatchEvent(again);
    });
  }, true);
}

/** The editor's GitHub token, where Decap keeps the signed-in user. */
function decapToken(): string | undefined {
  try {
    return (JSON.parse(localStorage.getItem('decap-cms-user') ?? '{}') as { token?: string }).token || undefined;
  } catch {
    return undefined;
  }
}

/**
 * After each Publish, the panel of cms/app/publishStatus.tsx follows that change until it is live
 * or failed; a newer Publish takes over. Never awaited by Decap and never throws: a source that
 * cannot be reached says so in the panel, and editing goes on.
 */
function followPublishes(CMS: DecapCms, config: Record<string, unknown>, backend: Record<string, unknown>, local: boolean, timeZone: string) {
  const panel = publishStatusPanel(local);
  let current: AbortController | undefined;
  CMS.registerEventListener({
    name: 'postPublish',
    handler: ({ entry }) => {
      try {
        // A new entry published at once (the local backend) has no slug nor path yet: the local
        // source reads the file written from the dev server (cms/app/publishState.ts).
        const data = entry.get('data').toJS();
        const published = { collection: entry.get('collection'), slug: entry.get('slug') ?? '', path: entry.get('path') ?? '', data };
        const page = publishedPage(config, published);
        // A draft, or an article dated later: live, but on no page for visitors (the panel says so, with no link).
        const held = publishedHeld(config, published, timeZone);
        current?.abort();
        current = new AbortController();
        const source = local
          ? localSource({ endpoint: `${location.origin}/admin/api/v1`, siteOrigin: location.origin, page, data, held })
          : gitHubSource({
            api: String(backend.api_root ?? 'https://api.github.com').replace(/\/+$/, ''), repo: String(backend.repo), branch: String(backend.branch ?? 'main'),
            token: decapToken, siteOrigin: location.origin, page, held,
          });
        void followPublish(source, panel.show, { signal: current.signal }).catch((err: unknown) => console.error(err));
      } catch (err) {
        console.error(err);
      }
      return undefined;
    },
  });
}

async function start() {
  checkPickedFiles();
  const settings = JSON.parse(document.getElementById('cms-settings')?.textContent ?? '{}') as AdminSettings;
  window.React = React;
  window.ReactDOM = ReactDOM;
  const [config, preview] = await Promise.all([
    getJson<Record<string, unknown>>(settings.config),
    getJson<PreviewContext>(settings.preview),
    loadScript(settings.decap),
  ]);
  const CMS = window.DecapCmsApp;
  if (typeof CMS?.init !== 'function') throw new Error('Decap CMS did not load');

  // The business's clock, whatever this computer's (the date fields say which one they show).
  const { timeZone } = settings;
  // Sign-in goes to this very host (functions/api/auth.ts on Cloudflare Pages); on localhost and
  // 127.0.0.1 the dev server's local backend answers instead (cms/localBackend.ts).
  const backend: Record<string, unknown> = { ...(config.backend as Record<string, unknown>), base_url: location.origin };
  // Decap uses the local backend on these hosts (local_backend below).
  const local = ['localhost', '127.0.0.1'].includes(location.hostname);
  // The files as the backend has them: a translation's English original (cms/app/repoFiles.ts).
  const files: RepoFiles = local
    ? localFiles({ endpoint: `${location.origin}/admin/api/v1` })
    : gitHubFiles({ api: String(backend.api_root ?? 'https://api.github.com').replace(/\/+$/, ''), repo: String(backend.repo), branch: String(backend.branch ?? 'main'), token: decapToken });
  setPreviewContext(preview, (file) => readData(files, file));
  CMS.registerPreviewStyle(preview.css);
  CMS.registerPreviewStyle(preview.fontCss, { raw: true });
  // Every language's cities and services are drawn by the same templates, from that language's planned pages.
  for (const lang of LANGUAGES) {
    CMS.registerPreviewTemplate(collectionIn(lang, 'cities'), cityPreview(lang) as React.ComponentType<never>);
    CMS.registerPreviewTemplate(collectionIn(lang, 'services'), servicePreview(lang) as React.ComponentType<never>);
  }
  CMS.registerPreviewTemplate('articles', ArticlePreview as React.ComponentType<never>);
  CMS.registerWidget('json-choice', ChoiceControl as React.ComponentType<never>, ChoicePreview as React.ComponentType<never>);
  CMS.registerWidget(ZONED_DATE_TIME_WIDGET, zonedDateTimeControl(timeZone, browserTimeZone()) as React.ComponentType<never>, zonedDateTimePreview(timeZone) as React.ComponentType<never>);
  const object = CMS.getWidget('object');
  CMS.registerWidget('object', optionalObjectControl(object), object.preview, object.schema);
  const relation = CMS.getWidget('relation');
  CMS.registerWidget(TWIN_WIDGET, twinControl(relation), relation.preview, relation.schema);
  // Replaces the built-in "yaml" format, so the configuration stays plain Decap configuration.
  CMS.registerCustomFormat('yaml', 'yaml', cmsYamlFormat(fieldSetsOf(config)));
  // A translation's YAML files: the same, with their own modelines (cms/app/format.ts).
  for (const lang of TRANSLATIONS) CMS.registerCustomFormat(yamlFormatOf(lang), 'yaml', cmsYamlFormat(fieldSetsOf(config, yamlFormatOf(lang))));
  // Replaces the built-in "frontmatter" format the Markdown collections use (articles, legal pages).
  CMS.registerCustomFormat('frontmatter', 'md', cmsFrontmatterFormat());
  // Nothing npm run check would refuse is saved (cms/app/check.ts); Decap shows the reason. A new
  // translation is also the twin of an English file that is there and not translated yet.
  CMS.registerEventListener({
    name: 'preSave',
    handler: async ({ entry }) => {
      const collection = entry.get('collection');
      const data = entry.get('data').toJS();
      const isNew = entry.get('newRecord') === true;
      const target = entryFile(config, collection, entry.get('slug') || (isNew ? newTranslationSlug(config, collection, data) : ''));
      const problems = [
        ...(target ? entryProblems(target, data) : []),
        ...(isNew && target?.lang !== undefined && target.lang !== DEFAULT_LANGUAGE ? await newTranslationProblems(config, collection, data, files) : []),
        ...(target?.lang !== undefined && target.lang !== DEFAULT_LANGUAGE ? await twinProblems(target, data, files) : []),
      ];
      if (problems.length) throw new Error(`not saved, ${problems.length === 1 ? 'a problem' : `${problems.length} problems`} to fix first:\n${problems.join('\n')}`);
      return undefined;
    },
  });

  followPublishes(CMS, config, backend, local, timeZone);
  CMS.init({
    config: {
      ...config,
      backend,
      local_backend: { url: `${location.origin}/admin/api/v1` },
      load_config_file: false,
    },
  });
}

start().catch((err: unknown) => {
  console.error(err);
  const message = document.createElement('p');
  message.setAttribute('role', 'alert');
  message.textContent = `The editor could not start: ${err instanceof Error ? err.message : String(err)}. Reload the page; if it persists, tell the developer.`;
  document.body.append(message);
});
