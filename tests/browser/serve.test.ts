/** npm start serves every spec route at exactly its path, like the production hosts. */
import { describe, expect, it } from 'vitest';
import { siteRoutes } from '../helpers/routes.js';
import { useSite } from '../helpers/site.js';

const ROUTES = (await siteRoutes()).all;

describe('the local server', () => {
  const site = useSite();

  it.each(ROUTES)('answers %s with its page', async (route) => {
    const res = await fetch(site.url + route, { redirect: 'manual' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await res.text();
    expect(html).toContain(`<link rel="canonical" href="https://www.bayshinecleaning.com${route}"/>`);
  });

  it('answers an unknown path with status 404 and the not-found page', async () => {
    const res = await fetch(`${site.url}/locations/deep-cleaning-nowhere-ca`);
    expect(res.status).toBe(404);
    const html = await res.text();
    expect(html).toContain('Oops! Page not found');
    expect(html).toMatch(/<a [^>]*href="\/"/);
  });

  it('sends old-style addresses to the clean URL', async () => {
    for (const [from, to] of [['/contact.html', '/contact'], ['/services/', '/services'], ['/index.html', '/']]) {
      const res = await fetch(site.url + from, { redirect: 'manual' });
      expect(res.status, from).toBe(301);
      expect(res.headers.get('location'), from).toBe(to);
    }
  });

  it('applies the security headers of _headers, and long caching to hashed assets', async () => {
    const page = await fetch(`${site.url}/contact`);
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(page.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    const css = /href="(\/assets\/site-[^"]+\.css)"/.exec(await page.text())![1]!;
    const asset = await fetch(site.url + css);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('compresses text as the hosts do (brotli, else gzip), never images or fonts', async () => {
    const { request } = await import('node:http');
    const { brotliDecompressSync, gunzipSync } = await import('node:zlib');
    // fetch() would decode and hide the encoding: ask with node:http and decode by hand.
    const get = (route: string, acceptEncoding: string) => new Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
      request(site.url + route, { headers: { 'accept-encoding': acceptEncoding } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
      }).on('error', reject).end();
    });
    const plain = await get('/checklist', 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    const br = await get('/checklist', 'gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toBe('Accept-Encoding');
    expect(br.body.length).toBeLessThan(plain.body.length / 4);
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    const gz = await get('/checklist', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).equals(plain.body)).toBe(true);
    const css = /href="(\/assets\/site-[^"]+\.css)"/.exec(plain.body.toString())![1]!;
    expect((await get(css, 'br')).headers['content-encoding']).toBe('br');
    const font = /data-src="(\/assets\/[^"]+\.woff2)"/.exec(plain.body.toString())![1]!;
    expect((await get(font, 'br')).headers['content-encoding']).toBeUndefined();
  });

  it('serves robots.txt and the sitemap', async () => {
    expect(await (await fetch(`${site.url}/robots.txt`)).text()).toContain('Sitemap: https://www.bayshinecleaning.com/sitemap.xml');
    const sitemap = await fetch(`${site.url}/sitemap.xml`);
    expect(sitemap.headers.get('content-type')).toContain('xml');
    expect((await sitemap.text()).match(/<loc>/g)).toHaveLength(ROUTES.length);
  });
});
