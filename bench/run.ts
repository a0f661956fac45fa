/**
 * npm run bench: the whole `npm run build` (start-up included) cold and warm, for the real site and
 * for 1,000, 10,000 and 50,000 city pages (BENCH_SIZES), beside Hugo (Debian's package, when
 * installed) and Eleventy 3 building as many city pages (the team's peer benchmark,
 * /work/shared/bench-peers or BENCH_PEERS), with the ratios; the dev server's update
 * time for one edited city file; the bytes each page type sends (gzipped); Lighthouse performance on
 * mobile for the six key pages. Medians of several runs; the machine is shared, so compare ratios,
 * not single figures. The articles section does the same for 1,000 and 10,000 Markdown articles
 * (BENCH_ARTICLES) beside the same peers (run-articles.sh). One section: npm run bench --
 * build|articles|dev|weight|lighthouse; on request only:
 * `delivery` (a stored lead to the office chat, bench/delivery.ts) and `gate` (the content gate
 * replayed on a clean clone, tools/contentGateReplay.mjs).
 */
import '../generator/runtime/env.js';
import { execFile, execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { stringify } from 'yaml';
import { build } from '../generator/build.js';
import { startServer } from '../serve/server.js';
import { articleContent, BENCH_NOW, codeStamp, editBody, editTitle, encodedPictures, lendPictures, memoFiles, returnPictures, verifyArticles } from './articles.js';
import { measure } from './measure.js';
import { syntheticCity, syntheticCitySpanish, syntheticContent } from './synthetic.js';

const run = promisify(execFile);
const root = process.cwd();
/** Rows of the build table: `real` is the real site, a number that many synthetic cities. */
const sizes = (process.env.BENCH_SIZES ?? 'real,1000,10000,50000').split(',').map((s) => s.trim());
const runs = Number(process.env.BENCH_RUNS ?? 3);
/** Rows of the articles table: that many articles (50000 on request). */
const articleSizes = (process.env.BENCH_ARTICLES ?? '1000,10000').split(',').map((n) => Number(n.trim()));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const load = () => os.loadavg().map((l) => l.toFixed(1)).join(', ');
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const mib = (n: number) => `${Math.round(n).toLocaleString('en-US')} MiB`;

/** One `npm run build`'s command as the peers are run (no npm around it): wall time and peak memory of its process tree (and of its largest process), and what build() reported. */
interface CommandRun { wallMs: number; peakMiB: number; peakProcessMiB: number; buildMs: number; pages: number; stages: Record<string, number> }

/**
 * A cold build's start: the output removed, every cache of .cache/ emptied but the generator's
 * compiled code (.cache/code, compiled once per state of its sources: the program, as Hugo's
 * binary and Eleventy's installed JavaScript are there before the peers' timed runs), and every
 * content file read once, untimed. The peer scripts write their data just before each peer
 * build, so the peers read it from memory; this machine's kernel pages out what nobody touched
 * for a minute (DAMON's reclaim: a page idle for 12 intervals of 5 s), so our content, written
 * once per row, would otherwise come from the disk (1.4 s of a worker's 5,000 article files
 * against 0.15 s from memory).
 */
async function coldStart(root: string, contentDir: string, outDir: string): Promise<void> {
  const dir = path.join(root, '.cache');
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    if (name !== 'code') await rm(path.join(dir, name), { recursive: true, force: true });
  }
  await rm(outDir, { recursive: true, force: true });
  for (const entry of await readdir(contentDir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) await readFile(path.join(entry.parentPath, entry.name));
  }
}

/** `env`: more variables for the build (the articles section fixes BUILD_NOW). */
async function npmBuild(contentDir: string, outDir: string, env: NodeJS.ProcessEnv = {}): Promise<CommandRun> {
  // What `npm run build` runs, started as run-peers.sh starts Hugo and Eleventy: npm's own start
  // (about 0.35 s here) is no part of a build, and the peers do not pay it.
  const m = await measure(process.execPath, ['cli/main.mjs', 'build'], {
    cwd: root,
    env: { ...process.env, CONTENT_DIR: contentDir, DIST_DIR: outDir, GENERATOR_TIMINGS: '1', ...env },
  });
  const built = /Built (\d+) pages in ([\d.]+) s/.exec(m.stdout);
  if (!built) throw new Error(`the build said:\n${m.stdout}\n${m.stderr}`);
  // GENERATOR_TIMINGS=1: "  code: 12 ms", "  content: 1699 ms (rss ...)", ... on stderr.
  const stages = Object.fromEntries([...m.stderr.matchAll(/^ {2}(\w+): (\d+) ms/gm)].map((x) => [x[1]!, Number(x[2])]));
  return { wallMs: m.wallMs, peakMiB: m.peakTreeMiB, peakProcessMiB: m.peakProcessMiB, buildMs: Number(built[2]) * 1000, pages: Number(built[1]), stages };
}

/**
 * A writable copy of the team's peer benchmark with Eleventy installed in `eleventy` (peers/eleventy
 * for the cities, peers/eleventy-articles for the articles; Hugo is a system package) (from npm's
 * cache when it can), or undefined.
 */
async function preparePeers(eleventy = 'eleventy'): Promise<string | undefined> {
  const source = process.env.BENCH_PEERS ?? '/work/shared/bench-peers';
  if (!existsSync(path.join(source, 'run-peers.sh'))) return undefined;
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bench-peers-'));
  await cp(source, dir, { recursive: true });
  await run('chmod', ['-R', 'u+w', dir]);
  await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline'], { cwd: path.join(dir, 'peers', eleventy) });
  return dir;
}

/** A peer's build, or why it did not finish (Eleventy runs out of memory at 50,000 pages). */
type PeerRun = { wallMs: number; peakMiB: number } | { failed: string };

/** The peers measured beside ours, as run-peers.sh names them. */
const PEERS = ['hugo', 'eleventy'] as const;
type Peer = (typeof PEERS)[number];
const PEER_NAMES: Record<Peer, string> = { hugo: 'Hugo', eleventy: 'Eleventy 3' };

/** Hugo is Debian's package (`apt-get install hugo`): its version, or undefined when it is not installed. */
async function hugoVersion(): Promise<string | undefined> {
  const out = await run('hugo', ['version']).catch(() => undefined);
  return out && /v(\d+\.\d+\.\d+)/.exec(out.stdout)?.[1];
}

/** One cold build of `cities` city pages (or, with run-articles.sh, N articles) by the peer: GNU time's wall time and peak memory of its process. */
async function peerBuild(peers: string, peer: Peer, cities: number, script = 'run-peers.sh'): Promise<PeerRun> {
  const result = await run(path.join(peers, script), [String(cities), peer], {
    env: { ...process.env, RUNS: '1', PEER_TIMEOUT: '3600' }, maxBuffer: 1 << 24,
  }).catch((err: { stdout?: string; stderr?: string }) => err);
  // peer  N  wall_s(median)  min..max  runs  peak_MiB  pages  (html, run-articles.sh)
  const row = result.stdout?.split('\n').find((line) => line.startsWith(peer))?.trim().split(/\s+/);
  if (row && Number(row[2])) return { wallMs: Number(row[2]) * 1000, peakMiB: Number(row[5]) };
  const log = /see (\S+\.log)/.exec(result.stderr ?? '')?.[1];
  const text = log ? await readFile(log, 'utf8').catch(() => '') : '';
  return { failed: /heap out of memory/.test(text) ? 'out of memory' : (result.stderr ?? 'failed').trim().split('\n')[0]! };
}

/** The peer benchmark's copy (preparePeers) and the peers that can be measured, each said when it cannot. */
async function setUpPeers(eleventy: string): Promise<{ peers: string | undefined; measured: Peer[] }> {
  const peers = await preparePeers(eleventy).catch((err: unknown) => {
    console.log(`(peers not measured: ${err instanceof Error ? err.message.split('\n')[0] : String(err)})`);
    return undefined;
  });
  if (!peers) console.log('(peers not measured: no peer benchmark at /work/shared/bench-peers; set BENCH_PEERS)');
  const hugo = peers && await hugoVersion();
  if (peers && !hugo) console.log('(Hugo not measured: it is not installed; Debian packages it: `apt-get install hugo`)');
  else if (hugo) console.log(`Hugo ${hugo} (Debian's package).`);
  return { peers, measured: PEERS.filter((p) => peers && (p !== 'hugo' || hugo)) };
}

/** A peer's median of its finished runs (wall, peak), and why some did not finish. */
function peerMedian(all: readonly PeerRun[]) {
  const done = all.filter((p) => 'wallMs' in p);
  const failed = all.find((p) => 'failed' in p);
  const theirs = done.length ? { wall: median(done.map((p) => p.wallMs)), peak: median(done.map((p) => p.peakMiB)) } : undefined;
  const why = failed ? `${done.length ? `${all.length - done.length} of ${all.length} runs: ` : ''}${failed.failed}` : undefined;
  return { theirs, why };
}

/** The three table cells of each peer: its cold build, its peak memory, our cold build's wall time over its. */
function peerCells(peer: ReadonlyMap<Peer, PeerRun[]>, ourColdMs: number): string {
  return PEERS.map((name) => {
    const { theirs, why } = peerMedian(peer.get(name) ?? []);
    return `${theirs ? s(theirs.wall) : why ?? '—'}${theirs && why ? ` (${why})` : ''} | ${theirs ? mib(theirs.peak) : '—'} | ${theirs ? `**${(ourColdMs / theirs.wall).toFixed(2)}×**` : '—'}`;
  }).join(' | ');
}

/**
 * Time per stage of build() (GENERATOR_TIMINGS=1; code: finding or compiling the generator, before
 * build()), median of each column's runs; with `growth`, each column's growth from the one before
 * (pages ratio in the header). Linear means: ten times the pages, at most eleven times the time.
 */
function printStages(title: string, columns: { label: string; runs: CommandRun[] }[], growth: boolean) {
  const stage = (c: { runs: CommandRun[] }, name: string) => median(c.runs.map((r) => (name === 'total' ? r.buildMs : r.stages[name] ?? 0)));
  const stages = [...new Set(columns.flatMap((c) => c.runs.flatMap((r) => Object.keys(r.stages))))];
  const grew = (i: number) => growth && i > 0;
  console.log(`
${title}`);
  const header = ['stage', ...columns.map((c, i) => `${c.label}${grew(i) ? ` (×${(c.runs[0]!.pages / columns[i - 1]!.runs[0]!.pages).toFixed(1)})` : ''}`)];
  console.log(`| ${header.join(' | ')} |\n|---|${columns.map(() => '---:').join('|')}|`);
  for (const name of [...stages, 'total']) {
    const cells = columns.map((c, i) => `${s(stage(c, name))}${grew(i) ? ` (×${(stage(c, name) / Math.max(1, stage(columns[i - 1]!, name))).toFixed(1)})` : ''}`);
    console.log(`| ${name === 'total' ? 'build() total' : name} | ${cells.join(' | ')} |`);
  }
}

async function buildScale() {
  console.log(`\n## Build: the whole \`npm run build\`, start-up included, against Hugo and Eleventy 3 on the same number of city pages`);
  console.log(`Median of ${runs} runs per cell; each run is our cold build, our warm build, one city changed, our pages cold, then each peer's cold build, so they share the machine's moods. cold = .cache/ and the output emptied first (and the content files read once, untimed: the peers' data is written just before each of their builds, and this machine pages out files idle for a minute), but the generator's compiled code (.cache/code: the program, compiled once per state of its sources, as the peers' programs are installed; the code stage of the stage table says what compiling it would add; the font's cut and the images come from prebuilt/, as in a fresh clone); warm = the same input again; one changed = one city file edited after a warm build; pages cold = only the page cache emptied (every page rendered again, the bundles and stylesheet from .cache/: what the pages themselves cost). Wall: spawn to exit of \`node cli/main.mjs build\` (what \`npm run build\` runs, started as the peers are: without npm's own start); build(): what the command reports. Peak memory: the summed resident memory of the whole process tree (node with its render threads, the asset helper processes), sampled every 20 ms. Peers: \`run-peers.sh N hugo eleventy\` of the team's peer benchmark, their wall time and GNU time's peak of their largest process. Load average at the start: ${load()}.`);
  const { peers, measured } = sizes.some((s) => !s.startsWith('real')) ? await setUpPeers('eleventy') : { peers: undefined, measured: [] };
  const colds: { size: string; runs: CommandRun[] }[] = [];
  const peerColumns = PEERS.map((p) => `${PEER_NAMES[p]}: command | ${PEER_NAMES[p]}: peak memory | cold, ours / ${PEER_NAMES[p]}`);
  console.log(`\n| site | pages | cold: build() per page | cold: command | cold: build() | cold: peak memory | warm: command | warm: build() | warm: peak memory | one city changed: command | pages cold: command | pages cold: peak memory | ${peerColumns.join(' | ')} |\n|---|${'---:|'.repeat(11 + 3 * PEERS.length)}`);
  try {
    for (const size of sizes) {
      // `real`, `real-en` (without its Spanish pages), N cities, `Nes` (N cities, each with its Spanish twin).
      const cities = size.startsWith('real') ? 0 : Number.parseInt(size, 10);
      const spanish = size.endsWith('es');
      const english = size === 'real-en';
      const dir = await mkdtemp(path.join(os.tmpdir(), `bench-${size}-`));
      try {
        const contentDir = cities || english ? await syntheticContent(root, dir, cities, { spanish, english }) : path.join(root, 'content');
        const outDir = path.join(dir, 'dist');
        const cold: CommandRun[] = [];
        const warm: CommandRun[] = [];
        const changed: CommandRun[] = [];
        const pagesCold: CommandRun[] = [];
        const peer = new Map<Peer, PeerRun[]>(measured.map((p) => [p, []]));
        for (let i = 0; i < runs; i++) {
          await coldStart(root, contentDir, outDir);
          cold.push(await npmBuild(contentDir, outDir));
          warm.push(await npmBuild(contentDir, outDir));
          if (cities) {
            // One city's text edited (a new text each run): its page is the one to render again; with
            // Spanish twins, the city in both languages, as an editor changes it (the twin's numbers follow).
            const city = syntheticCity(1);
            city.page.tagline = spanish ? `Edited tagline of run ${i} for ${city.name}.` : `Edited tagline of run ${i}.`;
            await writeFile(path.join(contentDir, 'cities/benchville-1.yaml'), stringify(city, { lineWidth: 0 }));
            if (spanish) {
              const twin = syntheticCitySpanish(1);
              twin.page.tagline = `Lema editado de la vuelta ${i} para ${twin.name}.`;
              await writeFile(path.join(contentDir, 'es/cities/benchville-1.yaml'), stringify(twin, { lineWidth: 0 }));
            }
            changed.push(await npmBuild(contentDir, outDir));
          }
          // Every page rendered again, the assets from the cache: what the number of pages costs.
          await rm(path.join(root, '.cache', 'pages'), { recursive: true, force: true });
          pagesCold.push(await npmBuild(contentDir, outDir));
          if (cities) for (const [name, runsOf] of peer) runsOf.push(await peerBuild(peers!, name, cities));
        }
        colds.push({ size, runs: cold });
        const m = (xs: CommandRun[], key: 'wallMs' | 'buildMs' | 'peakMiB') => median(xs.map((x) => x[key]));
        const label = cities ? `${cities.toLocaleString('en-US')} cities${spanish ? ' + their Spanish twins' : ''}` : english ? 'real site, English only' : 'real site';
        console.log(`| ${label} | ${cold[0]!.pages.toLocaleString('en-US')} | ${(m(cold, 'buildMs') / cold[0]!.pages).toFixed(2)} ms | ${s(m(cold, 'wallMs'))} | ${s(m(cold, 'buildMs'))} | ${mib(m(cold, 'peakMiB'))} | ${s(m(warm, 'wallMs'))} | ${s(m(warm, 'buildMs'))} | ${mib(m(warm, 'peakMiB'))} | ${changed.length ? s(m(changed, 'wallMs')) : '—'} | ${s(m(pagesCold, 'wallMs'))} | ${mib(m(pagesCold, 'peakMiB'))} | ${peerCells(peer, m(cold, 'wallMs'))} |`);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    }
  } finally {
    if (peers) await rm(peers, { recursive: true, force: true });
  }
  console.log(`\nLoad average at the end: ${load()}.`);
  printStages('Cold build, time per stage (median; code: finding or compiling the generator, before build()), and its growth from one row to the next (pages ratio in the header):',
    colds.map((c) => ({ label: c.size === 'real' ? 'real site' : `${c.size} cities`, runs: c.runs })), true);
}

/**
 * The build section's measures for the articles: our site with N generated articles (the peer
 * benchmark's, bench/articles.ts) beside Hugo and Eleventy building the same N with run-articles.sh.
 */
async function articlesScale() {
  console.log(`\n## Articles: the whole \`npm run build\` of the site with N Markdown articles, against Hugo and Eleventy 3 on the same articles`);
  console.log(`Content: content/ with its articles replaced by the peer benchmark's \`gen-articles.mjs N\` (1% drafts) and its twelve pictures; BUILD_NOW=${BENCH_NOW}, so every non-draft is published. The pictures are encoded by one untimed build and lent to prebuilt/ for the timed runs (returned after), as the site's own pictures are committed. Median of ${runs} runs per cell; each run is our cold build (.cache/ and the output emptied, but the generator's compiled code, .cache/code; the content files read once, untimed, as the peers read the articles their script has just written; \`node cli/main.mjs build\`, as the peers are started, without npm), warm (the same input again), one article changed (a sentence appended to the newest article's body), one title changed (the newest article's title: its card on the lists, the feeds and related lists), then each peer's cold build (\`run-articles.sh N hugo|eleventy\`, RUNS=1). Every build of ours is checked as run-articles.sh checks the peers' (one page per non-draft, 20 feed items, ceil(non-drafts / 10) index pages, the edit's text on the page). pages: every page of our site (the articles' and the rest of the site's); the peers build only the blog. Peak memory: ours, the whole process tree (largest process: its biggest single process); the peers', GNU time's peak of their largest process. Load average at the start: ${load()}.`);
  const { peers, measured } = await setUpPeers('eleventy-articles');
  if (!peers) return console.log('(articles not measured: they come from the peer benchmark)');
  const rows: { n: number; cold: CommandRun[]; warm: CommandRun[]; changed: CommandRun[]; titled: CommandRun[]; peer: Map<Peer, PeerRun[]> }[] = [];
  const runLines: string[] = [];
  const m = (xs: CommandRun[], key: 'wallMs' | 'peakMiB' | 'peakProcessMiB') => median(xs.map((x) => x[key]));
  const peerColumns = PEERS.map((p) => `${PEER_NAMES[p]}: cold | ${PEER_NAMES[p]}: peak memory | cold, ours / ${PEER_NAMES[p]}`);
  console.log(`\n| articles | pages | cold: command | cold: peak memory | cold: largest process | warm: command | one article changed | one title changed | ${peerColumns.join(' | ')} |\n|---|${'---:|'.repeat(7 + 3 * PEERS.length)}`);
  try {
    for (const n of articleSizes) {
      const dir = await mkdtemp(path.join(os.tmpdir(), `bench-articles-${n}-`));
      const lent: string[] = [];
      try {
        const { contentDir, expected } = await articleContent(root, peers, dir, n);
        const outDir = path.join(dir, 'dist');
        // Each run's figure, in order, marked * when the code changed since the build before
        // (codeStamp), † when another build used .cache/ since ours (memoFiles; '' once emptied).
        const each = new Map<CommandRun[], string[]>();
        let stamp = await codeStamp(root);
        let memo = '';
        const build = async (into: CommandRun[], mustContain?: string) => {
          const before = stamp;
          stamp = await codeStamp(root);
          const foreign = memo !== '' && memo !== await memoFiles(root);
          into.push(await npmBuild(contentDir, outDir, { BUILD_NOW: BENCH_NOW }));
          memo = await memoFiles(root);
          await verifyArticles(outDir, expected, mustContain);
          each.set(into, [...each.get(into) ?? [], `${(into.at(-1)!.wallMs / 1000).toFixed(1)}${stamp !== before ? '*' : ''}${foreign ? '†' : ''}`]);
        };
        // Untimed: encodes the articles' pictures into .cache/images/, then lent to prebuilt/.
        await build([]);
        await lendPictures(root, lent);
        const row: (typeof rows)[number] = { n, cold: [], warm: [], changed: [], titled: [], peer: new Map<Peer, PeerRun[]>(measured.map((p) => [p, []])) };
        for (let i = 0; i < runs; i++) {
          await coldStart(root, contentDir, outDir);
          memo = '';
          await build(row.cold);
          // A cold run that encoded pictures measured sharp, not the build (prebuilt/ lost them).
          if (await encodedPictures(root)) throw new Error('the cold build encoded article pictures: they are missing from prebuilt/');
          await build(row.warm);
          await build(row.changed, await editBody(contentDir, expected, i));
          await build(row.titled, await editTitle(contentDir, expected, i));
          for (const [name, runsOf] of row.peer) runsOf.push(await peerBuild(peers, name, n, 'run-articles.sh'));
        }
        rows.push(row);
        const { cold, warm, changed, titled, peer } = row;
        console.log(`| ${n.toLocaleString('en-US')} | ${cold[0]!.pages.toLocaleString('en-US')} | ${s(m(cold, 'wallMs'))} | ${mib(m(cold, 'peakMiB'))} | ${mib(m(cold, 'peakProcessMiB'))} | ${s(m(warm, 'wallMs'))} | ${s(m(changed, 'wallMs'))} | ${s(m(titled, 'wallMs'))} | ${peerCells(peer, m(cold, 'wallMs'))} |`);
        runLines.push(`${n.toLocaleString('en-US')} articles, each run in order (s; * = generator/, contracts/ or templates/ changed since the build before; † = another build used .cache/ since ours, pruning our cached pages): cold ${each.get(cold)!.join(', ')}; warm ${each.get(warm)!.join(', ')}; one article changed ${each.get(changed)!.join(', ')}; one title changed ${each.get(titled)!.join(', ')}.`);
      } finally {
        await returnPictures(lent);
        await rm(dir, { recursive: true, force: true });
      }
    }
  } finally {
    await rm(peers, { recursive: true, force: true });
  }
  console.log(`\nLoad average at the end: ${load()}.\n\n${runLines.join('\n')}`);

  // The issue's targets, from the medians above (✗ = missed).
  const mark = (ok: boolean) => (ok ? '✓' : '✗');
  console.log(`\nTargets: cold ≤ 1.0× Hugo's cold (stretch 0.8×); warm ≤ 0.25× Hugo's cold; one changed ≤ warm + 0.3 s; largest process under 600 MiB (the maximum over all our builds of the row); linear: N times the articles, at most 1.1·N times the cold build.\n`);
  console.log('| articles | cold / Hugo | warm / Hugo cold | one article changed − warm | one title changed − warm | largest process | cold growth over the row before (time × / articles ×) |\n|---|---:|---:|---:|---:|---:|---:|');
  for (const [i, r] of rows.entries()) {
    const hugo = peerMedian(r.peer.get('hugo') ?? []).theirs?.wall;
    const [cold, warm] = [m(r.cold, 'wallMs'), m(r.warm, 'wallMs')];
    const ratio = (x: number, limit: number, stretch?: number) => (hugo ? `${(x / hugo).toFixed(2)}× ${mark(x / hugo <= limit)}${stretch ? ` (stretch ${mark(x / hugo <= stretch)})` : ''}` : '—');
    const over = (xs: CommandRun[]) => `${((m(xs, 'wallMs') - warm) / 1000).toFixed(2)} s ${mark(m(xs, 'wallMs') - warm <= 300)}`;
    const largest = Math.max(...[r.cold, r.warm, r.changed, r.titled].flat().map((x) => x.peakProcessMiB));
    const before = rows[i - 1];
    const growth = before ? (cold / m(before.cold, 'wallMs')) / (r.n / before.n) : undefined;
    console.log(`| ${r.n.toLocaleString('en-US')} | ${ratio(cold, 1, 0.8)} | ${ratio(warm, 0.25)} | ${over(r.changed)} | ${over(r.titled)} | ${mib(largest)} ${mark(largest < 600)} | ${growth === undefined ? '—' : `${growth.toFixed(2)} ${mark(growth <= 1.1)}`} |`);
  }
  printStages('Cold build of the articles, time per stage (median; code: finding or compiling the generator, before build()), and its growth from one row to the next (pages ratio in the header):',
    rows.map((r) => ({ label: `${r.n} articles`, runs: r.cold })), true);
  printStages('Warm, one article changed, one title changed, time per stage (median):',
    rows.flatMap((r) => [{ label: `${r.n}: warm`, runs: r.warm }, { label: `${r.n}: one changed`, runs: r.changed }, { label: `${r.n}: title changed`, runs: r.titled }]), false);
}

/** A running `npm run dev` (node cli/main.mjs dev) as a user starts it, in a process group of its own. */
interface DevChild { url: string; startMs: number; output(): string; stop(): Promise<void> }

async function startDev(contentDir: string, outDir: string): Promise<DevChild> {
  const started = performance.now();
  // SUPABASE_URL empty: the local stand-in, as `npm run dev` without a Supabase project.
  const child = spawn(process.execPath, ['cli/main.mjs', 'dev'], {
    cwd: root, detached: true, stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, CONTENT_DIR: contentDir, DIST_DIR: outDir, PORT: '0', HOST: '127.0.0.1', SUPABASE_URL: '', SUPABASE_ANON_KEY: '' },
  });
  let log = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      try { process.kill(-child.pid!, 'SIGTERM'); } catch { /* already gone */ }
      await exited;
    }
  };
  const url = await new Promise<string>((resolve, reject) => {
    const seen = (chunk: Buffer) => {
      log = (log + chunk.toString('utf8')).slice(-64 * 1024);
      const m = /Dev server on (http:\/\/\S+?):? /.exec(log);
      if (m) resolve(m[1]!);
    };
    child.stdout!.on('data', seen);
    child.stderr!.on('data', seen);
    child.once('exit', (code) => reject(new Error(`npm run dev exited (${code}) before it served:\n${log}`)));
  }).catch(async (err: unknown) => { await stop(); throw err; });
  return { url, startMs: performance.now() - started, output: () => log, stop };
}

/**
 * An open tab of the dev server: the event stream its reload script listens to (/__dev/events),
 * read with fetch as it streams. `reloads` counts the `data: reload` events; `reloadAfter(n)`
 * resolves once there are more than n.
 */
async function openTab(url: string) {
  const controller = new AbortController();
  const res = await fetch(`${url}/__dev/events`, { signal: controller.signal });
  if (!res.ok || !res.body) throw new Error(`/__dev/events answered ${res.status}`);
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  const tab = { reloads: 0 };
  let waiters: { after: number; resolve: () => void; reject: (err: unknown) => void }[] = [];
  let buffer = '';
  let connected!: () => void;
  const isConnected = new Promise<void>((resolve) => (connected = resolve));
  const reading = (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error('the dev server closed the event stream');
      buffer += value;
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const event = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (event.startsWith(': connected')) connected();
        if (event.split('\n').includes('data: reload')) tab.reloads++;
      }
      waiters = waiters.filter((w) => (tab.reloads > w.after ? (w.resolve(), false) : true));
    }
  })();
  reading.catch((err: unknown) => { for (const w of waiters) w.reject(err); waiters = []; });
  await isConnected;
  return {
    get reloads() { return tab.reloads; },
    reloadAfter: (after: number) => new Promise<void>((resolve, reject) => {
      if (tab.reloads > after) resolve();
      else waiters.push({ after, resolve, reject });
    }),
    close: () => controller.abort(),
  };
}

/** One edit as the user sees it: save → the tab told to reload → the page it fetches has the new text. */
interface DevEdit { reloadMs: number; pageMs: number }

async function timedEdit(tab: Awaited<ReturnType<typeof openTab>>, pageUrl: string, file: string, text: string, marker: string): Promise<DevEdit> {
  const before = tab.reloads;
  const started = performance.now();
  await writeFile(file, text);
  let seen = before;
  let reloadMs: number | undefined;
  // A reload can come from an update that saw the save half-written (an empty file is a content
  // error: no reload) or from another update: the edit is in once the page fetched has the text.
  for (;;) {
    await withTimeout(tab.reloadAfter(seen), 120_000, `no reload within 120 s of saving ${path.basename(file)}`);
    seen = tab.reloads;
    reloadMs ??= performance.now() - started;
    const html = await (await fetch(pageUrl)).text();
    if (html.includes(marker)) return { reloadMs, pageMs: performance.now() - started };
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([promise, new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(message)), ms); })]).finally(() => clearTimeout(timer));
}

async function devUpdate() {
  const cities = Number(process.env.BENCH_DEV_CITIES ?? 10000);
  const edits = 7;
  // A person between two saves: the edits span the seconds after start, when a database opening in
  // the same process would hold them up (its open begins about a second after the server listens).
  const pauseMs = Number(process.env.BENCH_DEV_PAUSE_MS ?? 1000);
  const pglite = path.join(root, '.data', 'pglite');
  console.log(`\n## npm run dev: one city file edited, as the open tab sees it (${edits} edits per row; save → page in the tab)`);
  console.log(`The real \`node cli/main.mjs dev\` (the local Supabase stand-in, no SUPABASE_URL) on a copy of the content; the tab is an event-stream client of /__dev/events (fetch, streamed). Each edit: the city file saved with a new tagline → \`data: reload\` received → the page fetched again contains the new tagline. The first edit is saved right after the "Dev server on" line (once the tab is connected), the others each ${pauseMs} ms after the previous one is in the tab (BENCH_DEV_PAUSE_MS), so that they span the first seconds of the session. start: spawn → "Dev server on". Local database (.data/pglite) at the start: ${existsSync(pglite) ? 'present' : 'absent (a first-ever open, if it is opened)'}. Load average at the start: ${os.loadavg().map((l) => l.toFixed(1)).join(', ')}.`);
  console.log(`\n| content | start | first edit | median | min | max | save → reload received (median) | each edit, in order |\n|---|---:|---:|---:|---:|---:|---:|---|`);
  const s = (ms: number) => (ms < 10_000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`);
  for (const size of ['real', ...(cities > 0 ? [String(cities)] : [])]) {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'bench-dev-'));
    let dev: DevChild | undefined;
    try {
      let contentDir: string;
      let edited: (i: number) => { file: string; text: string; marker: string; route: string };
      if (size === 'real') {
        contentDir = path.join(dir, 'content');
        await cp(path.join(root, 'content'), contentDir, { recursive: true });
        const file = path.join(contentDir, 'cities/colma.yaml');
        const original = await readFile(file, 'utf8');
        if (!/^ {2}tagline: .*$/m.test(original)) throw new Error('content/cities/colma.yaml has no page tagline to edit');
        edited = (i) => ({ file, text: original.replace(/^ {2}tagline: .*$/m, `  tagline: Edited Colma tagline number ${i}.`), marker: `Edited Colma tagline number ${i}.`, route: '/locations/deep-cleaning-colma-ca' });
      } else {
        contentDir = await syntheticContent(root, dir, Number(size));
        edited = (i) => {
          const city = syntheticCity(42);
          city.page.tagline = `Edited tagline number ${i}.`;
          return { file: path.join(contentDir, 'cities/benchville-42.yaml'), text: stringify(city), marker: `Edited tagline number ${i}.`, route: '/locations/deep-cleaning-benchville-42-ca' };
        };
      }
      dev = await startDev(contentDir, path.join(dir, 'dist'));
      const tab = await openTab(dev.url);
      const times: DevEdit[] = [];
      try {
        for (let i = 0; i < edits; i++) {
          if (i) await new Promise((resolve) => setTimeout(resolve, pauseMs));
          const e = edited(i);
          times.push(await timedEdit(tab, dev.url + e.route, e.file, e.text, e.marker));
        }
      } catch (err) {
        throw new Error(`${err instanceof Error ? err.message : String(err)}\nnpm run dev said:\n${dev.output()}`);
      } finally {
        tab.close();
      }
      const page = times.map((t) => t.pageMs);
      const label = size === 'real' ? 'real site' : `${Number(size).toLocaleString('en-US')} cities`;
      console.log(`| ${label} | ${s(dev.startMs)} | ${s(page[0]!)} | **${s(median(page))}** | ${s(Math.min(...page))} | ${s(Math.max(...page))} | ${s(median(times.map((t) => t.reloadMs)))} | ${page.map((ms) => Math.round(ms)).join(', ')} ms |`);
    } finally {
      await dev?.stop();
      await rm(dir, { recursive: true, force: true });
    }
  }
}

async function pageWeight() {
  console.log('\n## Page weight: bytes a first visit transfers, gzipped (real site, Chromium, scrolled to the end and 7.5 s on the page: the popup opens at 5 s; no click, no typing)');
  if (!existsSync('/usr/bin/chromium')) {
    console.log('(skipped: /usr/bin/chromium is not installed)');
    return;
  }
  const { launchBrowser } = await import('../tools/browser.js');
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bench-weight-'));
  const dist = path.join(dir, 'dist');
  await build({ root, outDir: dist });
  const server = await startServer({ distDir: dist });
  const browser = await launchBrowser();
  const kinds: [string, string][] = [
    ['home', '/'], ['service', '/routine-cleaning-bay-area'], ['city', '/locations/deep-cleaning-san-jose-ca'], ['locations', '/locations'],
    ['services', '/services'], ['checklist', '/checklist'], ['contact', '/contact'], ['legal', '/terms-of-service'],
    ['customer-login', '/customer-login'], ['book-online', '/book-online'], ['404', '/no-such-page'],
  ];
  console.log('| page type | HTML | CSS | JS | fonts | images |\n|---|---:|---:|---:|---:|---:|');
  try {
    for (const [kind, route] of kinds) {
      const context = await browser.newContext({ viewport: { width: 375, height: 800 } });
      const page = await context.newPage();
      const bytes = { html: 0, css: 0, js: 0, font: 0, image: 0 };
      page.on('response', async (response) => {
        if (!response.url().startsWith(server.url)) return;
        const body = await response.body().catch(() => undefined);
        if (!body) return;
        const type = response.headers()['content-type'] ?? '';
        const key = type.includes('html') ? 'html' : type.includes('css') ? 'css' : type.includes('javascript') ? 'js' : type.includes('font') ? 'font' : type.startsWith('image') ? 'image' : undefined;
        if (key) bytes[key] += gzipSync(body).length;
      });
      const started = Date.now();
      await page.goto(server.url + route, { waitUntil: 'networkidle' });
      await page.evaluate(async () => {
        for (let y = 0; y < document.body.scrollHeight; y += 600) {
          window.scrollTo(0, y);
          await new Promise((r) => setTimeout(r, 50));
        }
      });
      // A reader who never clicks or types: what has loaded once the popup has opened.
      await page.waitForTimeout(Math.max(800, 7500 - (Date.now() - started)));
      await page.waitForLoadState('networkidle');
      const kb = (n: number) => (n ? `${(n / 1024).toFixed(1)} KB` : '0');
      console.log(`| ${kind} | ${kb(bytes.html)} | ${kb(bytes.css)} | ${kb(bytes.js)} | ${kb(bytes.font)} | ${kb(bytes.image)} |`);
      await context.close();
    }
  } finally {
    await browser.close();
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
}

async function lighthousePerformance() {
  const lhRuns = Number(process.env.BENCH_LH_RUNS ?? 3);
  // BENCH_LH_CPU overrides the 4x CPU slowdown (Lighthouse calibrates it for a fast desktop).
  const cpu = process.env.BENCH_LH_CPU ? Number(process.env.BENCH_LH_CPU) : undefined;
  console.log(`\n## Lighthouse performance (mobile: Moto G Power, simulated slow 4G and ${cpu ?? 4}x CPU; median of ${lhRuns} runs per figure; served with _headers and brotli like the hosts)`);
  if (!existsSync('/usr/bin/chromium') && !process.env.CHROMIUM_PATH) {
    console.log('(skipped: /usr/bin/chromium is not installed)');
    return;
  }
  const { LIGHTHOUSE_PAGES, runLighthouse, startChromium } = await import('../tools/lighthouse.js');
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bench-lighthouse-'));
  const dist = path.join(dir, 'dist');
  await build({ root, outDir: dist, ...(process.env.CONTENT_DIR && { contentDir: path.resolve(process.env.CONTENT_DIR) }) });
  // The local server compresses (brotli) and applies _headers as the hosts do.
  const server = await startServer({ distDir: dist });
  const chromium = await startChromium();
  // CLS: Lighthouse's "good". The web font swaps in after the first paint (generator/assets/fonts.ts):
  // its fallback has Inter's metrics, but a paragraph may still wrap onto one line more or less.
  const targets = { score: 100, lcpMs: 1200, cls: 0.1, tbtMs: 50 };
  const mark = (ok: boolean) => (ok ? '' : ' ✗');
  console.log(`Targets: performance ${targets.score}, LCP ≤ ${targets.lcpMs / 1000} s, CLS ≤ ${targets.cls}, TBT < ${targets.tbtMs} ms (✗ = missed)\n`);
  console.log('| page | performance | LCP | CLS | TBT | FCP | LCP element |\n|---|---:|---:|---:|---:|---:|---|');
  const benchmarkIndexes: number[] = [];
  try {
    // BENCH_LH_PAGES=/checklist,/ measures only those pages (say, more runs of the one being tuned).
    const routes = process.env.BENCH_LH_PAGES ? process.env.BENCH_LH_PAGES.split(',') : LIGHTHOUSE_PAGES;
    for (const route of routes) {
      const results = [];
      for (let i = 0; i < lhRuns; i++) results.push(await runLighthouse(server.url + route, chromium.port, ['performance'], cpu ? { cpuSlowdownMultiplier: cpu } : {}));
      benchmarkIndexes.push(...results.map((r) => r.benchmarkIndex));
      const failed = results.find((r) => r.runtimeError);
      if (failed) {
        console.log(`| ${route} | error: ${failed.runtimeError} | | | | | |`);
        continue;
      }
      const score = Math.round(median(results.map((r) => r.scores.performance ?? 0)) * 100);
      const lcp = median(results.map((r) => r.metrics.lcpMs ?? NaN));
      const cls = median(results.map((r) => r.metrics.cls ?? NaN));
      const tbt = median(results.map((r) => r.metrics.tbtMs ?? NaN));
      const fcp = median(results.map((r) => r.metrics.fcpMs ?? NaN));
      // The element of the median run, as Lighthouse names it (tag and its text or image).
      const lcpElement = [...results].sort((a, b) => (a.metrics.lcpMs ?? 0) - (b.metrics.lcpMs ?? 0))[Math.floor(results.length / 2)]!.lcpElement ?? '?';
      console.log(`| ${route} | ${score}${mark(score >= targets.score)} | ${(lcp / 1000).toFixed(2)} s${mark(lcp <= targets.lcpMs)} | ${cls.toFixed(3)}${mark(cls <= targets.cls)} | ${Math.round(tbt)} ms${mark(tbt < targets.tbtMs)} | ${(fcp / 1000).toFixed(2)} s | ${lcpElement} |`);
    }
    console.log(`\nLighthouse benchmarkIndex of this machine: median ${Math.round(median(benchmarkIndexes))} (the 4x CPU slowdown assumes a fast desktop: on a slower or busy machine TBT and LCP come out higher than on the phone it emulates; BENCH_LH_CPU=<n> sets another slowdown)`);
  } finally {
    await chromium.close();
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
}

const only = process.argv[2];
console.log(`# Benchmark (${os.cpus().length} cores, Node ${process.version}, ${new Date().toISOString().slice(0, 10)})`);
if (!only || only === 'build') await buildScale();
if (!only || only === 'articles') await articlesScale();
if (!only || only === 'dev') await devUpdate();
if (!only || only === 'weight') await pageWeight();
if (!only || only === 'lighthouse') await lighthousePerformance();
// On request only: each takes minutes of waiting (the scheduler's real minutes; a clean clone and install).
if (only === 'delivery') await (await import('./delivery.js')).benchDelivery();
if (only === 'gate') execFileSync(process.execPath, ['tools/contentGateReplay.mjs', '--runs', '3'], { stdio: 'inherit' });
