/** Stage write, beside the pages: the sitemap, robots.txt, the host's _headers and _redirects, /build.json and /office-hours.json. */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { SiteModel } from '../../contracts/content.js';
import type { WrittenPage } from '../../contracts/pages.js';
import { settleAll } from '../runtime/settle.js';
import { writeBuildInfo } from './buildInfo.js';
import { headersFile, redirectsFile, robotsTxt, sitemapFiles, type HostConfig } from './hostFiles.js';
import { OFFICE_HOURS_FILE, officeHoursJson } from './officeHours.js';

export async function writeSiteFiles(outDir: string, opts: { root: string; site: SiteModel['site']; pages: readonly WrittenPage[]; host: HostConfig; now: string }): Promise<void> {
  const { root, site, pages, host } = opts;
  await settleAll([
    ...[...sitemapFiles(pages, host.origin)].map(([name, xml]) => writeFile(path.join(outDir, name), xml)),
    writeFile(path.join(outDir, 'robots.txt'), robotsTxt(host.origin)),
    writeFile(path.join(outDir, '_headers'), headersFile(host)),
    writeFile(path.join(outDir, '_redirects'), redirectsFile(pages)),
    writeBuildInfo(root, outDir, opts.now),
    writeFile(path.join(outDir, OFFICE_HOURS_FILE), officeHoursJson(site)),
  ]);
}
