/**
 * /build.json, what the live site says it was built from (the content manager's "live" reads it):
 * the commit and its time, and the build's "now" (what it published), nothing else.
 */
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildInfo, writeBuildInfo } from '../../generator/write/buildInfo.js';
import { ROOT, withTempDir } from '../helpers/content.js';

/** The build's "now", as the build hands it over: what it published. */
const NOW = '2026-11-20T18:30:00-08:00';

const git = (...args: string[]) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();

describe('/build.json', () => {
  it('names the commit checked out and the time of that commit, not of the build', async () => {
    const env = { PATH: process.env.PATH };
    const info = await buildInfo(ROOT, NOW, env);
    expect(info).toEqual({ commit: git('rev-parse', 'HEAD'), time: new Date(Number(git('show', '-s', '--format=%ct', 'HEAD')) * 1000).toISOString(), now: NOW });
    expect(await buildInfo(ROOT, NOW, env)).toEqual(info);
  });

  it('takes the commit GitHub Actions built (GITHUB_SHA) and SOURCE_DATE_EPOCH as the time when set', async () => {
    const head = git('rev-parse', 'HEAD');
    expect(await buildInfo(ROOT, NOW, { PATH: process.env.PATH, GITHUB_SHA: head, SOURCE_DATE_EPOCH: '1767225600' })).toEqual({ commit: head, time: '2026-01-01T00:00:00.000Z', now: NOW });
    // Anything but a commit id is not passed on.
    expect((await buildInfo(ROOT, NOW, { PATH: process.env.PATH, GITHUB_SHA: '"><script>' })).commit).toBe(head);
  });

  it('says null where there is no git (a zip download), and writes one line of JSON', async () => {
    await withTempDir('build-info-', async (dir) => {
      expect(await buildInfo(dir, NOW, { PATH: process.env.PATH })).toEqual({ commit: null, time: null, now: NOW });
      await writeBuildInfo(dir, dir, NOW);
      expect(await readFile(path.join(dir, 'build.json'), 'utf8')).toBe(`{"commit":null,"time":null,"now":"${NOW}"}\n`);
    });
  });
});
