/**
 * The JSON-LD search engines read: every block parses, uses only schema.org types and properties
 * that exist (vocabulary from schema-dts's type definitions, offline) with values in their ranges,
 * the business node holds what a local-business result needs (tools/builtSite.ts, which the content
 * gate runs too), and its facts (phone, city, hours) are the ones the page itself shows.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { distPages } from '../helpers/dist.js';
import { collectPageFacts, type PageFacts } from '../helpers/pageFacts.js';
import { isBusiness as isBusinessIn, isIndexable, jsonLdNodes, structuredDataProblems } from '../../tools/builtSite.js';
import { checkJsonLd, loadVocabulary, type Vocabulary } from '../../tools/schemaOrg.js';
import { useBrowser, useSite } from '../helpers/site.js';

const ORIGIN = 'https://www.bayshinecleaning.com'; // tests/globalSetup.ts builds with this SITE_URL

type JsonNode = Record<string, unknown>;
interface Parsed { facts: PageFacts; nodes: JsonNode[]; docs: unknown[]; errors: string[] }

const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** The days as the pages write them, in English and in Spanish (the Spanish pages: "Lun-Sáb"), Sunday first. */
const SHOWN_DAYS = [['Sun', 'Dom'], ['Mon', 'Lun'], ['Tue', 'Mar'], ['Wed', 'Mié', 'Mie'], ['Thu', 'Jue'], ['Fri', 'Vie'], ['Sat', 'Sáb', 'Sab']];

/** "Mon-Sat 9AM-6PM" (or "Mon–Fri 8:30am – 5:30pm", "Lun-Sáb 9AM-6PM") → days and 24-hour times, as schema.org writes them. */
function parseShownHours(text: string): { days: string[]; opens: string; closes: string } | undefined {
  const day = `(${SHOWN_DAYS.flat().join('|')})[a-zé]*\\.?`;
  const time = '(\\d{1,2})(?::(\\d{2}))?\\s*([AaPp])\\.?[Mm]\\.?';
  const m = new RegExp(`${day}\\s*[-–—]\\s*${day},?\\s+${time}\\s*[-–—]\\s*${time}`).exec(text);
  if (!m) return undefined;
  const index = (d: string) => SHOWN_DAYS.findIndex((names) => names.includes(d));
  const days: string[] = [];
  for (let i = index(m[1]!); ; i = (i + 1) % 7) {
    days.push(DAYS[i]!);
    if (i === index(m[2]!)) break;
  }
  const clock = (h: string, min: string | undefined, ap: string) => {
    const hour = (Number(h) % 12) + (ap.toLowerCase() === 'p' ? 12 : 0);
    return `${String(hour).padStart(2, '0')}:${min ?? '00'}`;
  };
  return { days, opens: clock(m[3]!, m[4], m[5]!), closes: clock(m[6]!, m[7], m[8]!) };
}

const digits = (s: string) => s.replace(/\D/g, '');
const asArray = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
const typesOf = (n: JsonNode) => asArray(n['@type'] as string | string[] | undefined);

describe('structured data (JSON-LD)', () => {
  const site = useSite();
  const browser = useBrowser();
  let vocab: Vocabulary;
  let pages: Parsed[];

  beforeAll(async () => {
    vocab = loadVocabulary();
    const routes = (await distPages(site.dist)).map((p) => p.route);
    pages = (await collectPageFacts(browser, site.url, routes)).map((facts) => ({ facts, ...jsonLdNodes(facts) }));
  }, 120_000);

  const indexable = () => pages.filter((p) => isIndexable(p.facts));
  const isBusiness = (n: JsonNode) => isBusinessIn(vocab, n);

  it('every block parses and uses only schema.org types and properties that exist, with values in their ranges; every indexable page describes the business in one node, the same everywhere, with name, description, url, telephone, address (CA, locality) and areaServed', () => {
    expect(pages.filter((p) => isIndexable(p.facts)).length).toBeGreaterThan(20);
    const problems = structuredDataProblems(vocab, pages.map((p) => p.facts), ORIGIN);
    expect(problems.length, problems.join('\n')).toBe(0);
  });

  it('the shared check refuses a page with two business nodes, none, a wrong url or a block that does not parse', () => {
    const home = pages.find((p) => p.facts.route === '/')!.facts;
    const business = JSON.stringify({ '@context': 'https://schema.org', '@graph': [pages.find((p) => p.facts.route === '/')!.nodes.find(isBusiness)] });
    const page = (route: string, jsonLd: string[]) => ({ route, robots: null, jsonLd });
    const problems = structuredDataProblems(vocab, [home, page('/two', [business, business]), page('/none', []), page('/broken', ['{']), page('/url', [business.replace(`"${ORIGIN}/"`, '"https://elsewhere.example/"')])], ORIGIN);
    expect(problems).toEqual(expect.arrayContaining([
      '/two: 2 LocalBusiness nodes, expected 1',
      '/none: 0 LocalBusiness nodes, expected 1',
      '/none: no JSON-LD on an indexable page',
      expect.stringMatching(/^\/broken: JSON-LD block 1 does not parse/),
      `/url: business.url is https://elsewhere.example/, expected ${ORIGIN}/`,
    ]));
  });

  it('the vocabulary check itself catches made-up types, properties and values', () => {
    expect(checkJsonLd(vocab, {
      '@context': 'https://schema.org', '@type': 'HomeAndConstructionBusiness', name: 'x', priceRange: '$$', areaServed: { '@type': 'City', name: 'San Jose' },
    })).toEqual([]);
    expect(checkJsonLd(vocab, {
      '@context': 'https://schema.org', '@type': 'HomeAndConstructionBusiness', phone: '1', areaServed: { '@type': 'Person', name: 'x' },
      openingHoursSpecification: { '@type': 'OpeningHoursSpecification', dayOfWeek: 'Mon' }, address: { '@type': 'PostalAdress' },
    })).toHaveLength(4);
  });

  it('the phone number, city and opening hours in the data are the ones the page shows', () => {
    const problems: string[] = [];
    for (const { facts, nodes } of indexable()) {
      const b = nodes.find(isBusiness);
      if (!b) continue;
      const text = facts.text.replace(/\s+/g, ' ');
      // phone: a tel: link to the same number, and the same digits written on the page
      const national = digits(String(b.telephone)).replace(/^1/, '');
      if (!facts.telLinks.some((href) => digits(href).replace(/^1/, '') === national)) problems.push(`${facts.route}: no tel: link to ${String(b.telephone)} (links: ${facts.telLinks.join(', ') || 'none'})`);
      const shownPhones = [...text.matchAll(/\(?\d{3}\)?[\s.-]*\d{3}[\s.-]*\d{4}/g)].map((m) => digits(m[0]));
      if (!shownPhones.includes(national)) problems.push(`${facts.route}: the page does not show ${String(b.telephone)}`);
      // city
      const address = b.address as JsonNode;
      const city = `${String(address.addressLocality)}, ${String(address.addressRegion)}`;
      if (!text.includes(city)) problems.push(`${facts.route}: the page does not show the business address "${city}"`);
      // hours
      const spec = b.openingHoursSpecification as JsonNode | undefined;
      const shown = parseShownHours(text);
      if (!spec || !shown) {
        problems.push(`${facts.route}: opening hours ${spec ? 'not shown on the page' : 'missing from the data'}`);
      } else {
        const data = { days: asArray(spec.dayOfWeek as string | string[]).map((d) => d.replace('https://schema.org/', '')), opens: String(spec.opens).slice(0, 5), closes: String(spec.closes).slice(0, 5) };
        if (JSON.stringify(data) !== JSON.stringify(shown)) problems.push(`${facts.route}: hours in the data ${JSON.stringify(data)} differ from the page ${JSON.stringify(shown)}`);
      }
      // name
      if (!text.includes(String(b.name))) problems.push(`${facts.route}: the page does not show the business name ${String(b.name)}`);
    }
    expect(problems.length, problems.join('\n')).toBe(0);
  });

  it('a city page\'s Service serves exactly its own city, named on the page; its business node is the site-wide one', () => {
    const cityPages = indexable().filter((p) => p.facts.route.startsWith('/locations/'));
    expect(cityPages.length).toBeGreaterThan(0);
    const home = indexable().find((p) => p.facts.route === '/')!.nodes.find(isBusiness);
    for (const { facts, nodes } of cityPages) {
      const served = nodes.filter((n) => typesOf(n).includes('Service')).flatMap((n) => asArray(n.areaServed as JsonNode[]).map((c) => c.name));
      expect(served, facts.route).toHaveLength(1);
      expect(facts.text, facts.route).toContain(String(served[0]));
      // Search engines merge nodes by @id: one business, the same facts on every page.
      expect(nodes.find(isBusiness), facts.route).toEqual(home);
    }
  });

  it('every city in areaServed is named where it is claimed: on the service\'s own page, and somewhere on the site', () => {
    const problems: string[] = [];
    const everywhere = pages.map((p) => p.facts.text).join('\n');
    for (const { facts, nodes } of indexable()) {
      for (const n of nodes) {
        const names = asArray(n.areaServed as JsonNode[] | undefined).map((c) => String(c.name));
        const own = typesOf(n).includes('Service') && n.url === facts.canonicals[0];
        for (const name of names) {
          if (own && !facts.text.includes(name)) problems.push(`${facts.route}: the service serves ${name} but the page does not name it`);
          else if (!everywhere.includes(name)) problems.push(`${facts.route}: ${name} is in areaServed but no page names it`);
        }
      }
    }
    expect(problems.length, [...new Set(problems)].join('\n')).toBe(0);
  });

  it('pages, services and breadcrumbs point at real canonical addresses of the site', () => {
    const canonicals = new Set(pages.flatMap((p) => p.facts.canonicals));
    const problems: string[] = [];
    for (const { facts, nodes } of indexable()) {
      for (const n of nodes) {
        const types = typesOf(n);
        if (types.includes('WebPage') && n.url !== facts.canonicals[0]) problems.push(`${facts.route}: WebPage.url ${String(n.url)} is not the page's canonical ${facts.canonicals[0]}`);
        if (types.includes('Service') && !canonicals.has(String(n.url))) problems.push(`${facts.route}: Service.url ${String(n.url)} is no page of the site`);
        if (types.includes('BreadcrumbList')) {
          const items = asArray(n.itemListElement as JsonNode[]);
          items.forEach((item, i) => {
            if (item.position !== i + 1) problems.push(`${facts.route}: breadcrumb ${i + 1} has position ${String(item.position)}`);
            if (!canonicals.has(String(item.item))) problems.push(`${facts.route}: breadcrumb ${String(item.name)} → ${String(item.item)} is no page of the site`);
          });
          if (items.at(-1)?.item !== facts.canonicals[0]) problems.push(`${facts.route}: the last breadcrumb is not the page itself`);
        }
      }
    }
    expect(problems.length, problems.join('\n')).toBe(0);
  });
});

describe('parseShownHours', () => {
  it('reads the usual ways of writing opening hours', () => {
    expect(parseShownHours('Call us Mon-Sat 9AM-6PM')).toEqual({ days: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'], opens: '09:00', closes: '18:00' });
    expect(parseShownHours('Monday – Friday, 8:30 am – 5:30 pm')).toEqual({ days: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'], opens: '08:30', closes: '17:30' });
    expect(parseShownHours('open daily')).toBeUndefined();
  });
});
