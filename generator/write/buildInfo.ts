/**
 * /build.json: what the site was built from, so that the content manager can tell when a published
 * change is what visitors get (cms/app/publishState.ts reads it from the live site). The commit
 * (GITHUB_SHA in GitHub Actions, else git's HEAD) and the time of that commit, not of the build:
 * builds stay deterministic (two builds of one commit are byte-identical; SOURCE_DATE_EPOCH, when
 * set, is the time). Both null where there is no git (a zip download). `now` is the build's "now"
 * (what it published: an entry dated later is not in it). No secrets, no page: not in
 * the sitemap, and hosts revalidate it on every request (BUILD_INFO_HEADERS).
 */
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { BUILD_INFO_PATH, type BuildInfo } from '../../contracts/buildInfo.js';

const run = promisify(execFile);

/** Its rule in _headers: never served from a cache without asking. */
export const BUILD_INFO_HEADERS: [string, Record<string, string>] = [BUILD_INFO_PATH, { 'Cache-Control': 'public, max-age=0, must-revalidate' }];

async function git(root: string, ...args: string[]): Promise<string | undefined> {
  try {
    return (await run('git', args, { cwd: root, timeout: 10_000 })).stdout.trim() || undefined;
  } catch {
    return undefined;
  }
}

export async function buildInfo(root: string, now: string, env: NodeJS.ProcessEnv = process.env): Promise<BuildInfo> {
  const commit = (env.GITHUB_SHA && /^[0-9a-f]{40}$/.test(env.GITHUB_SHA) ? env.GITHUB_SHA : undefined) ?? (await git(root, 'rev-parse', '--verify', '-q', 'HEAD'));
  const epoch = Number(env.SOURCE_DATE_EPOCH) || Number(commit && (await git(root, 'show', '-s', '--format=%ct', commit)));
  return { commit: commit && /^[0-9a-f]{40}$/.test(commit) ? commit : null, time: epoch > 0 ? new Date(epoch * 1000).toISOString() : null, now };
}

export async function writeBuildInfo(root: string, outDir: string, now: string): Promise<void> {
  await writeFile(path.join(outDir, BUILD_INFO_PATH.slice(1)), `${JSON.stringify(await buildInfo(root, now))}\n`);
}
