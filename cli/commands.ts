/** The one command-line entry: build, check, content-gate, start, dev, new-city, new-article, leads, staff, schemas, prebuilt, doctor, lead-probe, telegram. */
import '../generator/runtime/env.js';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BuildOptions } from '../generator/build.js';
import type { RequestHandler } from '../serve/server.js';
import type { ContentError } from '../contracts/errors.js';
import { ContentErrors, formatError, githubAnnotation } from '../contracts/validate/errors.js';

// Each command imports only the modules it uses (`npm run build` never loads PGlite, the server or
// supabase-js): in the compiled code each import() below is a chunk of its own.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

async function main(argv: string[]): Promise<number> {
  const [command = 'build', ...args] = argv;
  switch (command) {
    case 'build': {
      if (!process.env.SUPABASE_URL) {
        console.warn('Warning: SUPABASE_URL is not set, so the forms of this build post to the site\'s own origin, which only `npm start` answers. Set SUPABASE_URL and SUPABASE_ANON_KEY when building for production.');
      }
      const { build } = await import('../generator/build.js');
      const result = await build(buildOptionsFromEnv());
      printWarnings(result.warnings);
      console.log(`Built ${result.pages} pages in ${(result.ms / 1000).toFixed(2)} s → ${path.relative(root, result.outDir)}/`);
      return 0;
    }
    case 'start': {
      const options = buildOptionsFromEnv();
      const { build } = await import('../generator/build.js');
      // The pages are served as soon as they are written; the content manager's and the inbox's
      // pages, and the local backend's database, are made ready after (a request for them waits).
      const result = await build({ ...options, backOfficeAfter: true });
      console.log(`Built ${result.pages} pages in ${(result.ms / 1000).toFixed(2)} s.`);
      result.backOffice.catch((err: unknown) => console.error('The content manager (/admin) and the lead inbox (/leads) could not be built:', err));
      const { url, backend } = await serve(options, result.outDir, { filesPending: result.backOffice });
      console.log(`Serving ${url}${backend ? ' (leads are stored in .data/; list them with npm run leads)' : ''}. Press Ctrl+C to stop.`);
      return new Promise<number>(() => {});
    }
    case 'dev': {
      const options = { ...buildOptionsFromEnv(), outDir: path.resolve(process.env.DIST_DIR ?? path.join(root, 'dist')) };
      const [{ DevSession, printUpdate, RELOAD_SCRIPT }, { CmsLocalBackend }] = await Promise.all([import('../serve/dev.js'), import('../cms/localBackend.js')]);
      const session = new DevSession(options, printUpdate);
      await session.start();
      const unwatch = await session.watch();
      // The content manager at /admin saves into the content folder through this server (no account needed).
      // Its publishStatus says "live" once the rebuild of a saved file is served.
      const cms = new CmsLocalBackend(options.contentDir ?? contentDirFromEnv(), { whenServed: (change) => session.updateFor(change) });
      const { url } = await serve(options, options.outDir, {
        first: async (req, res) => (await session.handle(req, res)) || cms.handle(req, res),
        htmlScript: RELOAD_SCRIPT,
        // The local database only once a page asks for it (a form posted, the inbox at /leads):
        // opening it holds this process for seconds on a first start, and the first saves after
        // `npm run dev` would wait that long to show.
        backendOnRequest: true,
        beforeStop: async () => {
          await unwatch();
          await session.close();
        },
      });
      console.log(`Dev server on ${url}: watching content/, templates/ and src/; edit content in the browser at ${url}/admin. Press Ctrl+C to stop.`);
      return new Promise<number>(() => {});
    }
    case 'staff':
      return (await import('../staff/command.js')).staffCommand(args);
    case 'doctor': {
      const { doctorCommand } = await import('../ops/doctor.js');
      return doctorCommand(args, process.env, (line) => console.log(line));
    }
    case 'telegram': {
      const { telegramCommand } = await import('../ops/telegramWebhook.js');
      return telegramCommand(args, process.env, (line) => console.log(line), (line) => console.error(line));
    }
    case 'lead-probe': {
      const { leadProbeCommand } = await import('../ops/leadProbe.js');
      return leadProbeCommand(process.env, (line) => console.log(line));
    }
    case 'leads': {
      const { printLeads } = await import('../supabase-standin/leads.js');
      await printLeads(path.join(root, '.data/pglite'));
      return 0;
    }
    case 'check':
      await checkCommand();
      return 0;
    case 'content-gate':
      return contentGate();
    case 'new-city': {
      const { writeNewCity } = await import('./authoring/newCity.js');
      const file = await writeNewCity(contentDirFromEnv(), args.join(' '));
      console.log(`Wrote ${path.relative(root, file)}. Edit its texts, then run npm run check.`);
      return 0;
    }
    case 'new-article': {
      const { parseNewArticleArgs, UsageError, writeNewArticle } = await import('./authoring/newArticle.js');
      try {
        const { file, date } = await writeNewArticle(contentDirFromEnv(), parseNewArticleArgs(args));
        console.log(`Wrote ${path.relative(root, file)}, dated ${date.replace('T', ' ')} on the business's clock.`);
        console.log('It is a draft: on no page of the site until you publish it. Write it (npm run dev shows it, marked Draft), then set draft: false');
        console.log('(or untick Draft in /admin) to publish it on its date; npm run check checks it.');
        return 0;
      } catch (err) {
        if (!(err instanceof UsageError)) throw err;
        console.error(err.message);
        return 2;
      }
    }
    case 'schemas': {
      const { writeSchemas } = await import('./authoring/schemas.js');
      const changed = await writeSchemas(path.join(root, 'content'));
      console.log(changed.length ? `Wrote ${changed.join(', ')}` : 'Schemas are up to date.');
      return 0;
    }
    case 'prebuilt': {
      const { writePrebuilt } = await import('./authoring/prebuilt.js');
      const { written, removed } = await writePrebuilt(root, contentDirFromEnv());
      console.log(written.length || removed.length ? [...written.map((f) => `Wrote ${f}`), ...removed.map((f) => `Removed ${f}`)].join('\n') : 'prebuilt/ is up to date.');
      return 0;
    }
    default:
      console.error(`Unknown command "${command}". Use build, check, content-gate, start, dev, new-city, new-article, leads, staff, schemas, prebuilt, doctor, lead-probe or telegram.`);
      return 2;
  }
}

async function checkCommand() {
  const { checkContent } = await import('../generator/build.js');
  const { model, warnings } = await checkContent({ root, contentDir: contentDirFromEnv() });
  printWarnings(warnings, Infinity);
  console.log(`Content is valid: ${model.services.length} services, ${model.cities.length} cities, ${model.articles.length} articles, ${model.legal.length} legal pages.`);
  return model;
}

/**
 * The content gate of .github/workflows/deploy.yml, each step timed: `npm run check`, the
 * production build, and the checks of the built pages content can break (tools/builtSite.ts, the
 * code the tests run for them). A content problem fails it with the messages of `npm run check`.
 */
async function contentGate(): Promise<number> {
  const steps: [string, number][] = [];
  const timed = async <T>(name: string, step: () => Promise<T>): Promise<T> => {
    const start = performance.now();
    const result = await step();
    steps.push([name, performance.now() - start]);
    return result;
  };
  const model = await timed('npm run check', checkCommand);
  await timed('production build', () => main(['build']));
  const [{ checkBuiltSite }, { ADMIN_PAGE }, { INBOX_PAGE }] = await Promise.all([import('../tools/builtSite.js'), import('../cms/adminPage.js'), import('../staff/inboxPage.js')]);
  const outDir = path.resolve(process.env.DIST_DIR ?? path.join(root, 'dist'));
  const checks = await checkBuiltSite(outDir, { origin: process.env.SITE_URL ?? model.site.siteUrl, exclude: [ADMIN_PAGE, INBOX_PAGE] });
  steps.push(...checks.map((c): [string, number] => [`check: ${c.name}`, c.ms]));
  const problems = checks.flatMap((c) => c.problems.map((p) => `${c.name}: ${p}`));
  console.log(`\nContent gate, ${(steps.reduce((sum, [, ms]) => sum + ms, 0) / 1000).toFixed(1)} s:`);
  for (const [name, ms] of steps) console.log(`  ${(ms / 1000).toFixed(2).padStart(6)} s  ${name}`);
  if (problems.length) {
    console.error(`\nThe built pages have ${problems.length} problem${problems.length === 1 ? '' : 's'}:`);
    for (const p of problems) console.error(`  ${p}`);
    return 1;
  }
  console.log('The built pages pass every check.');
  return 0;
}

/**
 * Serve distDir until Ctrl+C (then `beforeStop`, the server and the backend close). Without a
 * Supabase project the forms post to this server, whose local backend stores leads in .data/: it
 * is opened once the server listens, so the pages are answered meanwhile, or with
 * `backendOnRequest` (npm run dev) when the first request for it arrives.
 */
async function serve(options: BuildOptions, distDir: string, extra: { first?: RequestHandler; beforeStop?: () => Promise<void>; filesPending?: Promise<unknown>; htmlScript?: string; backendOnRequest?: boolean } = {}) {
  const { first, beforeStop, filesPending, htmlScript, backendOnRequest } = extra;
  const [{ serveSite }, { parseAllowedHosts }, { announceLocalServer, readLocalServer, withdrawLocalServer }] = await Promise.all([import('../serve/site.js'), import('../serve/allowedHosts.js'), import('../supabase-standin/localServer.js')]);
  // Pages of the site, under any name it is served by (ALLOWED_HOSTS too), may call the stand-in; no other page may.
  const openLocalBackend = async ({ allowedOrigins, url }: { allowedOrigins: string[]; url: string }) => {
    // `npm run staff` talks to this server while it holds the database (one process per PGlite
    // folder): announced before the folder is touched, so a staff command run meanwhile waits for
    // the database to open here rather than opening it too; announced again once it is ready.
    announceLocalServer(root, url, 'starting');
    const [{ createLocalBackend }, { localApiKey }] = await Promise.all([import('../supabase-standin/backend.js'), import('../supabase-standin/gateway.js')]);
    // schedule: the database's scheduled jobs run every minute, as on Supabase (the lead delivery run).
    const backend = await createLocalBackend({ dataDir: path.join(root, '.data/pglite'), apiKey: localApiKey(options.supabaseAnonKey), allowedOrigins, schedule: true });
    await backend.setProjectUrl(url);
    announceLocalServer(root, url, 'ready');
    return backend;
  };
  // Opened on request (npm run dev), maybe long after another `npm start` took the folder: that
  // one's announcement is not overwritten, and an open that failed is reported and withdrawn (no
  // `npm run staff` waits for it); the request is answered 503 and the next one tries again.
  const openBackend = !backendOnRequest ? openLocalBackend : async (site: { allowedOrigins: string[]; url: string }) => {
    const holder = readLocalServer(root);
    if (holder && holder.pid !== process.pid) {
      const error = new Error(`${holder.kind === 'running' ? `the server at ${holder.url}` : 'another process'} (process ${holder.pid}) holds the local database (.data/pglite); stop it to use the forms here`);
      console.error(`The local backend was not opened: ${error.message}.`);
      throw error;
    }
    try {
      return await openLocalBackend(site);
    } catch (err) {
      console.error('The local backend could not be opened (the request was answered 503; the next one tries again):', err);
      withdrawLocalServer(root);
      throw err;
    }
  };
  const site = await (async () => serveSite({
    distDir,
    port: Number(process.env.PORT ?? 4321),
    host: process.env.HOST ?? '127.0.0.1',
    // Other names (a phone on the LAN) only when listed: any other Host is refused (DNS rebinding).
    allowedHosts: parseAllowedHosts(process.env.ALLOWED_HOSTS),
    ...(first && { handlers: [first] }),
    ...(filesPending && { filesPending }),
    ...(htmlScript && { htmlScript }),
    ...(!options.supabaseUrl && { openBackend, openBackendWhen: backendOnRequest ? 'requested' as const : 'listening' as const }),
  }))().catch(async (err: unknown) => {
    // A port in use or a malformed ALLOWED_HOSTS: stop the watcher, so the process ends.
    await beforeStop?.();
    throw err;
  });
  const stop = async (code: number) => {
    await beforeStop?.();
    await site.close();
    process.exit(code);
  };
  process.once('SIGINT', () => stop(0));
  process.once('SIGTERM', () => stop(0));
  // Stopping removes the announcement (.data/local-server.json), so a waiting `npm run staff` sees it go.
  // (Opened on request, there is no backend yet: a failed open is reported by openBackend above.)
  site.backend?.catch(async (err: unknown) => {
    console.error('The local backend could not start:', err);
    await stop(1);
  });
  return { url: site.url, backend: site.backend };
}

const contentDirFromEnv = () => path.resolve(process.env.CONTENT_DIR ?? path.join(root, 'content'));

/** Build settings come from the environment, so CI and hosts configure the site without code. */
function buildOptionsFromEnv(env = process.env): BuildOptions {
  return {
    root,
    contentDir: contentDirFromEnv(),
    ...(env.DIST_DIR && { outDir: path.resolve(env.DIST_DIR) }),
    ...(env.SITE_URL && { siteUrl: env.SITE_URL }),
    ...(env.SUPABASE_URL && { supabaseUrl: env.SUPABASE_URL }),
    ...(env.SUPABASE_ANON_KEY && { supabaseAnonKey: env.SUPABASE_ANON_KEY }),
    ...(env.LEAD_WEBHOOK_URL && { webhookUrl: env.LEAD_WEBHOOK_URL }),
    // What is published: an article dated later than this is left out (docs/going-live.md).
    ...(env.BUILD_NOW && { now: env.BUILD_NOW }),
  };
}

/** Problems that do not stop a build, as the errors are printed; past a screenful, how many more. */
function printWarnings(warnings: readonly ContentError[], shown = 20) {
  for (const w of warnings.slice(0, shown)) console.warn(`Warning: ${formatError(w)}`);
  if (warnings.length > shown) console.warn(`… and ${warnings.length - shown} more warnings (npm run check lists them all).`);
}

main(process.argv.slice(2)).then(
  (code) => { process.exitCode = code; },
  (err: unknown) => {
    if (err instanceof ContentErrors) {
      console.error(`Build failed: ${err.errors.length} problem${err.errors.length === 1 ? '' : 's'} in content. dist/ was left as it was.\n`);
      for (const e of err.errors) console.error(formatError(e));
      // In GitHub Actions each problem also becomes an annotation on its file and line.
      if (process.env.GITHUB_ACTIONS === 'true') for (const e of err.errors) console.log(githubAnnotation(e));
    } else {
      console.error(err);
    }
    process.exitCode = 1;
  },
);
