/**
 * Which page brought a lead (src/lib/leadSource.ts): the path rule the forms apply before sending,
 * what a form reads from the page as it sends, and the inline font loader that notes the visit's
 * first page (run here as the page runs it, so its storage key and the forms' cannot drift apart).
 * The marketing touches the same loader notes are tests/islands/attribution.test.ts.
 */
import { readFileSync } from 'node:fs';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LEAD_LIMITS } from '../../supabase/functions/_shared/leadRules.js';
import { currentLeadSource, LANDING_KEY, sitePath } from '../../src/lib/leadSource.js';
import { fakeStorage } from './fixtures.js';

const ORIGIN = 'https://bayshine.example';

describe('sitePath: a page of this site, or null', () => {
  it.each([
    ['/', '/'],
    ['/contact', '/contact'],
    ['/locations/deep-cleaning-san-jose-ca', '/locations/deep-cleaning-san-jose-ca'],
    [`${ORIGIN}/services`, '/services'],
    [`${ORIGIN}/`, '/'],
    ['/contact?x=1', '/contact'],
    [`${ORIGIN}/contact?utm_source=mail&email=a@b.co#form`, '/contact'],
    ['/services#top', '/services'],
    [`/${'a'.repeat(LEAD_LIMITS.page - 1)}`, `/${'a'.repeat(LEAD_LIMITS.page - 1)}`],
  ])('%j → %j', (address, path) => {
    expect(sitePath(address, ORIGIN)).toBe(path);
  });

  it.each([
    [null, 'nothing'],
    ['', 'empty (no referrer)'],
    ['https://evil.example/contact', 'another site'],
    ['http://bayshine.example/contact', 'another scheme of the same host'],
    ['https://bayshine.example:8443/contact', 'another port'],
    ['//evil.com', 'protocol-relative'],
    ['//evil.com/contact', 'protocol-relative with a path'],
    ['/Foo%20Bar', 'upper case and an escape'],
    ['/Contact', 'upper case'],
    ['/deep-cleaning/', 'trailing slash'],
    ['/about.html', 'a file name'],
    ['/a//b', 'empty segment'],
    [`/${'a'.repeat(LEAD_LIMITS.page)}`, 'over 200 characters'],
    ['javascript:alert(1)', 'a script address'],
    ['data:text/html,<p>x', 'a data address'],
    ['http://[::1', 'not a URL'],
  ] as Array<[string | null, string]>)('%j (%s) → null', (address) => {
    expect(sitePath(address, ORIGIN)).toBeNull();
  });

  it('never matches an opaque origin', () => {
    expect(sitePath('file:///etc/passwd', 'null')).toBeNull();
  });
});

/** `extra` with the properties of `globals` copied as they are (getters stay getters). */
function withGlobals(globals: object, extra: object): object {
  return Object.defineProperties(extra, Object.getOwnPropertyDescriptors(globals));
}

const blockedStorage = {
  get sessionStorage(): Storage { throw new DOMException('The operation is insecure.', 'SecurityError'); },
};

/** Runs src/scripts/font-loader.js as a page at `pathname` would (no FontFace API nor paint timing: it stops after noting the page and waiting for its load). */
function runFontLoader(globals: object, pathname: string): void {
  const source = readFileSync('src/scripts/font-loader.js', 'utf8');
  runInNewContext(source, withGlobals(globals, { location: { pathname }, document: { currentScript: { dataset: {} } }, addEventListener() {} }));
}

describe('the visit as the forms see it', () => {
  afterEach(() => vi.unstubAllGlobals());

  function page(href: string, referrer: string, storage: object): void {
    vi.stubGlobal('window', withGlobals(storage, { location: new URL(href) }));
    vi.stubGlobal('document', { referrer });
  }

  it('the font loader notes the first page of the session only, and the form reads it with the referrer', () => {
    const sessionStorage = fakeStorage();
    runFontLoader({ sessionStorage }, '/locations/deep-cleaning-san-jose-ca');
    runFontLoader({ sessionStorage }, '/services');
    runFontLoader({ sessionStorage }, '/contact');
    expect(sessionStorage.getItem(LANDING_KEY)).toBe('/locations/deep-cleaning-san-jose-ca');
    page(`${ORIGIN}/contact`, `${ORIGIN}/services?ref=nav`, { sessionStorage });
    expect(currentLeadSource()).toMatchObject({ landing_path: '/locations/deep-cleaning-san-jose-ca', referrer_path: '/services' });
  });

  it('a first visit straight to the form: landing there, no referrer', () => {
    const sessionStorage = fakeStorage();
    runFontLoader({ sessionStorage }, '/contact');
    page(`${ORIGIN}/contact`, '', { sessionStorage });
    expect(currentLeadSource()).toMatchObject({ landing_path: '/contact', referrer_path: null });
  });

  it('a visitor from a search engine: the referrer is not kept', () => {
    const sessionStorage = fakeStorage();
    runFontLoader({ sessionStorage }, '/');
    page(`${ORIGIN}/`, 'https://www.google.com/', { sessionStorage });
    expect(currentLeadSource()).toMatchObject({ landing_path: '/', referrer_path: null });
  });

  it('a first page that is not a page of the site (a 404 address) is sent as null', () => {
    const sessionStorage = fakeStorage();
    runFontLoader({ sessionStorage }, '/Old%20Page');
    page(`${ORIGIN}/contact`, `${ORIGIN}/Old%20Page`, { sessionStorage });
    expect(currentLeadSource()).toMatchObject({ landing_path: null, referrer_path: null });
  });

  it('blocked storage: the font loader goes on and the form sends no landing page', () => {
    expect(() => runFontLoader(blockedStorage, '/')).not.toThrow();
    page(`${ORIGIN}/contact`, `${ORIGIN}/`, blockedStorage);
    expect(currentLeadSource()).toMatchObject({ landing_path: null, referrer_path: '/' });
  });
});
