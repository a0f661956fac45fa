import { describe, expect, it } from 'vitest';
import { onRequestGet as leadsFunction } from '../../functions/leads.js';
import { inboxCsp, inboxHeaders } from '../../staff/inboxHeaders.js';
import { parseHeaders } from '../../serve/server.js';
import { inboxHtml } from '../../staff/inboxPage.js';
import { backOfficeHeaders } from '../../generator/backOffice/backOffice.js';
import { headersFile } from '../../generator/write/hostFiles.js';

const SUPABASE = 'https://abcd.supabase.co';

/** The headers a host applying the last matching rule gives `path` (as the local server does). */
function headersFor(file: string, path: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const rule of parseHeaders(file)) if (rule.pattern.test(path)) for (const [k, v] of rule.headers) out[k] = v;
  return out;
}

describe('/leads headers', () => {
  it('allow only our own code, the QR code as data:, and connections to us and the Supabase project', () => {
    const csp = inboxCsp(`${SUPABASE}/`);
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("style-src 'self';");
    expect(csp).toContain("img-src 'self' data:;");
    expect(csp).toContain(`connect-src 'self' ${SUPABASE};`);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/unsafe|https:(?!\/\/abcd)/);
  });

  it('are what _headers gives /leads, and leave every visitor page its own policy', () => {
    const file = headersFile({ origin: 'https://www.example.com', inlineScripts: ['x'], reviewsScriptUrl: 'https://static.elfsight.com/platform.js', frameUrls: [], connectUrls: [SUPABASE], pathHeaders: backOfficeHeaders(SUPABASE) });
    expect(headersFor(file, '/leads')).toMatchObject(inboxHeaders(SUPABASE));
    expect(headersFor(file, '/leads')['Referrer-Policy']).toBe('no-referrer');
    expect(headersFor(file, '/contact')['Content-Security-Policy']).not.toBe(inboxCsp(SUPABASE));
    expect(headersFor(file, '/contact')['X-Robots-Tag']).toBeUndefined();
  });

  it('are set by the Cloudflare Pages Function, which no _headers rule reaches', async () => {
    const res = await leadsFunction({
      request: new Request('https://www.example.com/leads'),
      env: { SUPABASE_URL: SUPABASE },
      next: async () => new Response('<!DOCTYPE html>', { headers: { 'content-type': 'text/html', 'cache-control': 'public, max-age=600' } }),
    });
    expect(res.headers.get('content-security-policy')).toBe(inboxCsp(SUPABASE));
    expect(res.headers.get('x-robots-tag')).toBe('noindex, nofollow');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(await res.text()).toBe('<!DOCTYPE html>');
  });
});

describe('leads.html', () => {
  it('is noindex, titled, loads only the bundle and its stylesheet, and keeps markup out of the brand name', () => {
    const html = inboxHtml({ script: '/assets/inbox-abc.js', stylesheets: ['/assets/inbox-inbox-def.css'], files: [] }, 'Bay <Shine> & "Co"');
    expect(html).toContain('<meta name="robots" content="noindex, nofollow">');
    expect(html).toContain('<title>Lead inbox | Bay Shine  Co</title>');
    expect(html).toContain('<link rel="stylesheet" href="/assets/inbox-inbox-def.css">');
    expect(html).toContain('<script type="module" src="/assets/inbox-abc.js"></script>');
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).not.toMatch(/style=|<style/);
  });
});
