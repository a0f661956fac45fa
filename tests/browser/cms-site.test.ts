/**
 * What the content manager adds to the built site (the shared build), as visitors and search
 * engines meet it: /admin exists, is `noindex`, is not in the sitemap, has a policy of its own that
 * is relaxed only there, and no public page loads its scripts.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { cmsConfig } from '../../cms/config.js';
import { distPages, sitemapUrls } from '../helpers/dist.js';
import { useSite } from '../helpers/site.js';

const dist = inject('siteDist');

describe('the content manager in the built site', () => {
  const site = useSite();

  it('answers /admin with the CMS page, noindex, under a policy of its own', async () => {
    const res = await fetch(`${site.url}/admin`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<meta name="robots" content="noindex, nofollow">');
    expect(html).toMatch(/<script type="module" src="\/assets\/admin-[\w-]+\.js"><\/script>/);
    expect(res.headers.get('x-robots-tag')).toBe('noindex, nofollow');
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self' 'unsafe-eval' 'wasm-unsafe-eval'");
    expect(csp).toContain("frame-ancestors 'none'");
    // Relaxed for GitHub only: no other origin may be reached or run code.
    expect([...csp.matchAll(/https:\/\/[^\s;]+/g)].map((m) => m[0]).sort()).toEqual(['https://api.github.com', 'https://avatars.githubusercontent.com', 'https://raw.githubusercontent.com']);
  });

  it('keeps the public pages\' policy as strict as before: no eval, no GitHub', async () => {
    for (const route of ['/', '/contact', '/locations/deep-cleaning-colma-ca']) {
      const csp = (await fetch(site.url + route)).headers.get('content-security-policy')!;
      // Our scripts, the inline font loader by its hash, the reviews widget: nothing more.
      expect(csp, route).toMatch(/^default-src 'self'; script-src 'self' 'sha256-[A-Za-z0-9+/]+=*' https:\/\/static\.elfsight\.com;/);
      expect(csp, route).not.toContain('unsafe-eval');
      expect(csp, route).not.toContain('github');
    }
  });

  it('keeps /admin out of the sitemap and its scripts off every public page', async () => {
    const urls = sitemapUrls(await readFile(path.join(dist, 'sitemap.xml'), 'utf8'));
    expect(urls.filter((u) => u.includes('/admin'))).toEqual([]);
    const pages = await distPages(dist);
    expect(pages.length).toBeGreaterThan(20);
    for (const page of pages) {
      const html = await readFile(path.join(dist, page.file), 'utf8');
      expect(html, page.file).not.toMatch(/admin-|decap-cms|\/admin/);
    }
    // Nor does the island bundle reach them: its entry imports no admin or Decap file.
    const entry = /src="(\/assets\/entry-[\w-]+\.js)"/.exec(await readFile(path.join(dist, 'index.html'), 'utf8'))![1]!;
    expect(await readFile(path.join(dist, entry), 'utf8')).not.toMatch(/admin-|decap/);
  });

  it('serves the configuration generated from the content model, with this deployment\'s address', async () => {
    const served = await (await fetch(`${site.url}/admin/config.json`)).json() as Record<string, unknown>;
    expect(served.collections).toEqual(cmsConfig().collections);
    expect(served.site_url).toBe('https://www.bayshinecleaning.com');
    expect(served.publish_mode).toBe('editorial_workflow');
  });
});
