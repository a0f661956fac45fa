/**
 * Every page as a visitor sees it on a 375px phone and a 1280px desktop, with and without JavaScript:
 * the shared header and footer, what shows in the first screen, which layout each width gets, where
 * each button leads, and what the spec fixes word for word. The pages, services and cities come from
 * the content model (tests/helpers/routes.ts).
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { load } from 'js-yaml';
import { siteSchema } from '../../contracts/content.js';
import { siteRoutes } from '../helpers/routes.js';
import { keepPopupShut, useBrowser, useSite } from '../helpers/site.js';

const PHONE_HREF = 'tel:+14085550186';
const BOOKING_SRC = 'https://bayshinecleaning.bookingkoala.com/booknow/home_cleaning';
const LOGIN_SRC = 'https://bayshinecleaning.bookingkoala.com/login';
const { all: ROUTES, services: SERVICES, cityPages: CITY_PAGES, cardOnlyCities: CARD_ONLY } = await siteRoutes();
const CITY_ROUTES = CITY_PAGES.map((c) => c.route);
/** The Spanish pages (content/es/) and the English ones: each with its own header and footer texts. */
const SPANISH = ROUTES.filter((r) => r === '/es' || r.startsWith('/es/'));
const ENGLISH = ROUTES.filter((r) => !SPANISH.includes(r));
const ES_SITE = siteSchema.parse(load(readFileSync('content/es/site.yaml', 'utf8')));
const PHONE = { width: 375, height: 800 };
const DESKTOP = { width: 1280, height: 900 };
const MAIN_NAV = [['Services', '/services'], ['Locations', '/locations'], ['Checklist', '/checklist'], ['Contact', '/contact'], ['Customer Login', '/customer-login']];

const site = useSite();
const browser = useBrowser(keepPopupShut);

/** The page at `route` in the file's tab for this viewport and JavaScript setting (helpers/site.ts). */
async function open(route: string, viewport = DESKTOP, javaScriptEnabled = true): Promise<Page> {
  const page = await browser.tab({ viewport, javaScriptEnabled });
  await page.goto(site.url + route);
  return page;
}
const hrefs = (page: Page, selector: string) => page.locator(selector).evaluateAll((els) => els.map((e) => e.getAttribute('href')));
/** Whether the element's box lies within the first screen (the visitor sees it without scrolling). */
const inFirstScreen = (page: Page, selector: string) =>
  page.locator(selector).first().evaluate((el) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.top >= 0 && r.bottom <= innerHeight;
  });

describe('every page, phone and desktop', () => {
  it.each(ENGLISH)('%s at 1280px: the header, the footer, one h1, a title and a description, no sideways scrolling, no inline styles, reviews only where the spec embeds them', async (route) => {
    const page = await open(route);
    const header = page.locator('header').first();
    expect(await header.getByRole('link', { name: /Bay Shine Cleaning/ }).first().getAttribute('href')).toBe('/');
    const nav = header.getByRole('navigation', { name: 'Main' });
    expect(await nav.getByRole('link').evaluateAll((els) => els.map((e) => [e.textContent, e.getAttribute('href')]))).toEqual(MAIN_NAV);
    expect(await header.getByRole('link', { name: /555-0186/ }).first().getAttribute('href')).toBe(PHONE_HREF);
    expect(await header.getByRole('link', { name: 'Book Online', exact: true }).first().getAttribute('href')).toBe('/book-online');
    const footer = page.locator('footer');
    expect(await footer.innerText()).toMatch(/\(408\) 555-0186[\s\S]*hello@bayshinecleaning\.com[\s\S]*San Jose, CA/);
    expect(await footer.getByRole('link', { name: 'Privacy Policy' }).getAttribute('href')).toBe('/privacy-policy');
    expect(await footer.getByRole('link', { name: 'Terms of Service' }).getAttribute('href')).toBe('/terms-of-service');
    expect(await footer.innerText()).toMatch(/© \d{4} Bay Shine Cleaning/);
    expect(await page.locator('h1').count()).toBe(1);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
    expect(await page.title()).toMatch(/\S.*Bay Shine Cleaning|Bay Shine Cleaning.*\S/);
    expect((await page.locator('meta[name="description"]').getAttribute('content'))?.length).toBeGreaterThanOrEqual(50);
    // The content security policy forbids inline styles: the browser would drop them silently.
    expect(await page.locator('[style]').count()).toBe(0);
    const reviews = route === '/' || SERVICES.includes(route) || CITY_ROUTES.includes(route);
    expect(await page.locator('[data-island="ReviewsWidget"]').count()).toBe(reviews ? 1 : 0);
    if (reviews) expect(await page.getByRole('heading', { name: 'What Our Customers Say' }).count()).toBe(1);
  });

  it.each(SPANISH)('%s at 1280px: the Spanish header and footer, from content/es/site.yaml; one h1, a title and a description, no sideways scrolling, no inline styles', async (route) => {
    const page = await open(route);
    const header = page.locator('header').first();
    expect(await header.getByRole('link', { name: /Bay Shine Cleaning/ }).first().getAttribute('href')).toBe('/es');
    const nav = header.getByRole('navigation', { name: ES_SITE.navigation.mainNavLabel });
    expect(await nav.getByRole('link').evaluateAll((els) => els.map((e) => [e.textContent, e.getAttribute('href')]))).toEqual(ES_SITE.navigation.primary.map((l) => [l.label, l.href]));
    expect(await header.getByRole('link', { name: /555-0186/ }).first().getAttribute('href')).toBe(PHONE_HREF);
    expect(await header.getByRole('link', { name: ES_SITE.navigation.bookOnline.label, exact: true }).first().getAttribute('href')).toBe('/es/reservar');
    const footer = page.locator('footer');
    expect(await footer.innerText()).toMatch(/\(408\) 555-0186[\s\S]*hello@bayshinecleaning\.com/);
    // The legal pages are English only: their links say so, in words and in hreflang.
    for (const link of ES_SITE.footer.legal) {
      const a = footer.getByRole('link', { name: `${link.label} ${ES_SITE.language!.onlyInEnglish}` });
      expect([await a.getAttribute('href'), await a.getAttribute('hreflang')]).toEqual([link.href, 'en']);
    }
    expect(await page.locator('html').getAttribute('lang')).toBe('es-US');
    expect(await page.locator('h1').count()).toBe(1);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
    expect(await page.title()).toMatch(/\S.*Bay Shine Cleaning|Bay Shine Cleaning.*\S/);
    expect((await page.locator('meta[name="description"]').getAttribute('content'))?.length).toBeGreaterThanOrEqual(50);
    expect(await page.locator('[style]').count()).toBe(0);
  });

  it.each(ROUTES)('%s fits a 375px phone: no sideways scrolling, tap targets at least 44px', async (route) => {
    const page = await open(route, PHONE);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    const small = await page.evaluate(() => {
      const targets = [...document.querySelectorAll<HTMLElement>('a[href], button, summary, [role="tab"]')];
      return targets
        .filter((el) => el.offsetParent !== null && !el.closest('p, article, .sr-only') && !el.classList.contains('sr-only'))
        .filter((el) => {
          const r = el.getBoundingClientRect();
          return r.width > 0 && (r.height < 43.5 || r.width < 43.5);
        })
        .map((el) => `${el.tagName.toLowerCase()} "${(el.textContent ?? '').trim().slice(0, 40)}" ${Math.round(el.getBoundingClientRect().width)}x${Math.round(el.getBoundingClientRect().height)}`);
    });
    expect(small).toEqual([]);
  });

  it.each(ROUTES)('%s without JavaScript: one h1, no sideways scrolling at 375px, no inline styles', async (route) => {
    const page = await open(route, PHONE, false);
    expect(await page.locator('h1').count()).toBe(1);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    expect(await page.locator('[style]').count()).toBe(0);
  });
});

describe('header and drawer', () => {
  it('on a desktop the navigation is in the bar and the menu button is hidden', async () => {
    const page = await open('/');
    expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Open menu' }).isVisible()).toBe(false);
    expect(await page.locator('header').getByRole('link', { name: 'Book Online', exact: true }).first().isVisible()).toBe(true);
  });

  it('on a phone the bar keeps the logo, a call button and the menu button; the nav waits in the drawer', async () => {
    const page = await open('/', PHONE);
    expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(false);
    expect(await page.getByRole('button', { name: 'Open menu' }).isVisible()).toBe(true);
    const call = page.locator(`header a[href="${PHONE_HREF}"]`).first();
    expect(await call.isVisible()).toBe(true);
    expect(await call.getAttribute('href')).toBe(PHONE_HREF);
    expect(await page.locator('#site-drawer').isVisible()).toBe(false);
  });

  for (const javaScriptEnabled of [true, false]) {
    it(`the drawer opens from the right with the whole nav and closes on a link click, the close button and Escape (JavaScript ${javaScriptEnabled ? 'on' : 'off'})`, async () => {
      const page = await open('/contact', PHONE, javaScriptEnabled);
      await page.getByRole('button', { name: 'Open menu' }).click();
      const drawer = page.locator('#site-drawer');
      await expect.poll(() => drawer.isVisible()).toBe(true);
      const box = (await drawer.boundingBox())!;
      expect(Math.round(box.x + box.width)).toBe(375);
      expect(box.x).toBeGreaterThan(0);
      const nav = drawer.getByRole('navigation');
      expect(await nav.getByRole('link').evaluateAll((els) => els.map((e) => [e.textContent?.trim(), e.getAttribute('href')]))).toEqual(MAIN_NAV);
      expect(await drawer.getByRole('link', { name: 'Book Online' }).getAttribute('href')).toBe('/book-online');
      expect(await drawer.locator(`a[href="${PHONE_HREF}"]`).isVisible()).toBe(true);
      await nav.getByRole('link', { name: 'Checklist' }).click();
      await page.waitForURL(/\/checklist$/);
      expect(await page.locator('h1').innerText()).toBe('Cleaning Checklist');
      expect(await page.locator('#site-drawer').isVisible()).toBe(false);
      await page.getByRole('button', { name: 'Open menu' }).click();
      await expect.poll(() => page.locator('#site-drawer').isVisible()).toBe(true);
      await page.getByRole('button', { name: 'Close menu' }).click();
      await expect.poll(() => page.locator('#site-drawer').isVisible()).toBe(false);
      await page.getByRole('button', { name: 'Open menu' }).click();
      await expect.poll(() => page.locator('#site-drawer').isVisible()).toBe(true);
      await page.keyboard.press('Escape');
      await expect.poll(() => page.locator('#site-drawer').isVisible()).toBe(false);
    });
  }
});

describe('home', () => {
  it('on a phone the first screen shows the headline, Get Free Quote and the call button', async () => {
    const page = await open('/', PHONE);
    expect(await inFirstScreen(page, 'h1')).toBe(true);
    const quote = page.locator('main').getByRole('link', { name: 'Get Free Quote' });
    expect(await quote.getAttribute('href')).toBe('/book-online');
    expect(await inFirstScreen(page, 'main a[href="/book-online"]')).toBe(true);
    expect(await page.locator(`main a[href="${PHONE_HREF}"]`).first().innerText()).toMatch(/Call.*\(408\) 555-0186/);
    expect(await inFirstScreen(page, `main a[href="${PHONE_HREF}"]`)).toBe(true);
  });

  it('shows the six claims and the four stat tiles as the spec words them', async () => {
    const page = await open('/', PHONE);
    const claims = page.locator('section', { has: page.getByRole('heading', { name: /Why Bay Area Families Trust/ }) }).locator('li');
    expect(await claims.count()).toBe(6);
    const claimText = (await claims.allInnerTexts()).join('\n');
    for (const claim of [/five-star/i, /bonded & insured/i, /eco-friendly/i, /safe for your family and pets/i, /trained & certified/i, /100% satisfaction guarantee/i, /flexible scheduling/i]) {
      expect(claimText).toMatch(claim);
    }
    const tiles = await page.locator('main dl > div').evaluateAll((els) => els.map((el) => [el.querySelector('dd')?.textContent, el.querySelector('dt')?.textContent]));
    expect(tiles).toEqual([['500+', 'Happy Customers'], ['5+', 'Years Experience'], ['100%', 'Satisfaction Rate'], ['10K+', 'Homes Cleaned']]);
  });

  it('has the reviews, services, about and FAQ sections, in that order after the stats, and at least three FAQs', async () => {
    const page = await open('/');
    const h2 = await page.locator('main h2').allInnerTexts();
    const at = (re: RegExp) => h2.findIndex((t) => re.test(t));
    const order = [/by the Numbers/, /What Our Customers Say/, /Our Cleaning Services/, /About Bay Shine/, /Frequently Asked Questions/].map(at);
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(await hrefs(page, 'section:has(#services-heading) a')).toEqual(SERVICES);
    expect(await page.locator('main details').count()).toBeGreaterThanOrEqual(3);
  });

  it('the hero background is sharp once scrolled past 50px and blurred again back at the top', async () => {
    const page = await open('/', PHONE);
    // A pre-blurred copy over the sharp image; scrolling fades the copy out (no filter to compute).
    const shown = () => page.locator('main section').first().evaluate((hero) => [...hero.querySelectorAll('img')].map((img) => getComputedStyle(img).opacity));
    expect(await shown()).toEqual(['0', '1']); // sharp hidden under the blurred copy
    expect(await page.locator('main section').first().evaluate((hero) => [...hero.querySelectorAll('*')].some((el) => getComputedStyle(el).filter !== 'none'))).toBe(false);
    await page.evaluate(() => scrollTo(0, 50));
    await page.waitForTimeout(150);
    expect(await shown()).toEqual(['0', '1']);
    await page.evaluate(() => scrollTo(0, 51));
    await expect.poll(shown).toEqual(['1', '0']);
    await page.evaluate(() => scrollTo(0, 0));
    await expect.poll(shown).toEqual(['0', '1']);
  });
});

describe('/services', () => {
  it('four cards in spec order; each title opens its service page, lists at least three inclusions, each Get Free Quote opens booking', async () => {
    const page = await open('/services', PHONE);
    const cards = page.locator('main li:has(h2)');
    expect(await cards.locator('h2').allInnerTexts()).toEqual(['Routine Cleaning', 'Deep Cleaning', 'Move In/Out Cleaning', 'Commercial Janitorial Services']);
    expect(await hrefs(page, 'main li h2 a')).toEqual(['/routine-cleaning-bay-area', '/deep-cleaning-san-francisco', '/move-in-out-cleaning', '/commercial-janitorial-services']);
    for (let i = 0; i < 4; i++) {
      const card = cards.nth(i);
      expect((await card.locator('h2 + p').innerText()).length).toBeGreaterThan(40);
      expect(await card.locator('h3').innerText()).toBe("What's Included");
      expect(await card.locator('ul li').count()).toBeGreaterThanOrEqual(3);
      const quote = card.getByRole('link', { name: 'Get Free Quote' });
      expect(await quote.getAttribute('href')).toBe('/book-online');
      expect((await quote.boundingBox())!.height).toBeGreaterThanOrEqual(44);
    }
  });
});

describe('/locations', () => {
  it('shows the three stat cards and 19 city cards with name, population, description and Explore Location', async () => {
    const page = await open('/locations', PHONE);
    const stats = await page.locator('main dl > div').evaluateAll((els) => els.map((el) => [el.querySelector('dd')?.textContent, el.querySelector('dt')?.textContent]));
    expect(stats).toEqual([['13+', 'Cities Served'], ['500+', 'Happy Customers'], ['24/7', 'Support']]);
    const cards = page.locator('[data-testid="city-cards"] > li');
    expect(await cards.count()).toBe(19);
    const byName = Object.fromEntries(await cards.evaluateAll((els) => els.map((el) => [
      el.querySelector('h3')?.textContent?.trim() ?? '',
      { href: el.querySelector('a')?.getAttribute('href'), text: (el as HTMLElement).innerText },
    ])));
    expect(Object.keys(byName).sort()).toEqual([...CITY_PAGES.map((c) => c.name), ...CARD_ONLY].sort());
    for (const { route, name } of CITY_PAGES) expect(byName[name]!.href, name).toBe(route);
    for (const name of CARD_ONLY) expect(byName[name]!.href, name).toBe('/book-online');
    for (const [name, card] of Object.entries(byName)) {
      expect(card.text, name).toMatch(/Population: ~[\d,]+/);
      expect(card.text, name).toMatch(/Explore Location/);
    }
  });

  it("Don't See Your City? offers the contact page and the phone", async () => {
    const page = await open('/locations', PHONE);
    const block = page.locator('section', { has: page.getByRole('heading', { name: "Don't See Your City?" }) });
    expect(await hrefs(page, `section:has(#dont-see-heading) a`)).toEqual(['/contact', PHONE_HREF]);
    expect(await block.getByRole('link', { name: /Call/ }).innerText()).toContain('(408) 555-0186');
  });
});

describe('/checklist', () => {
  it('on a phone the tasks are cards, on a desktop a table with the four columns', async () => {
    const phone = await open('/checklist', PHONE);
    await expect.poll(() => phone.getByRole('tab').count()).toBe(4);
    const panel = phone.getByRole('tabpanel').filter({ visible: true });
    // One table per room; on a phone its header row is visually hidden and each task is a card.
    expect(await panel.locator('thead').evaluate((h) => h.getBoundingClientRect().height)).toBe(1);
    const rows = panel.locator('tbody tr');
    expect(await rows.count()).toBe(23);
    expect(await rows.first().evaluate((r) => getComputedStyle(r).display)).toBe('grid');
    expect((await rows.first().innerText()).split('\n').map((t) => t.trim()).filter(Boolean)).toEqual(expect.arrayContaining(['Routine Clean', 'Deep Clean', 'Move-In/Out']));
    const desktop = await open('/checklist');
    await expect.poll(() => desktop.getByRole('tab').count()).toBe(4);
    const table = desktop.getByRole('tabpanel').filter({ visible: true }).locator('table');
    expect(await table.isVisible()).toBe(true);
    expect((await table.locator('thead th').allInnerTexts()).map((t) => t.trim())).toEqual(['Task', 'Routine Clean', 'Deep Clean', 'Move-In/Out']);
  });

  it('Kitchen is selected first; arrow keys move between Kitchen, Bath, Bedroom and Common with 23, 19, 16 and 15 tasks', async () => {
    const page = await open('/checklist', PHONE);
    const tabs = page.getByRole('tab');
    await expect.poll(() => tabs.count()).toBe(4);
    expect(await tabs.allInnerTexts()).toEqual(['Kitchen', 'Bath', 'Bedroom', 'Common']);
    expect(await page.getByRole('tab', { selected: true }).innerText()).toBe('Kitchen');
    const counts: number[] = [];
    await tabs.first().focus();
    for (let i = 0; i < 4; i++) {
      if (i > 0) await page.keyboard.press('ArrowRight');
      counts.push(await page.getByRole('tabpanel').filter({ visible: true }).locator('tbody tr').count());
    }
    expect(counts).toEqual([23, 19, 16, 15]);
    expect(await page.getByRole('tab', { selected: true }).innerText()).toBe('Common');
  });

  it('without JavaScript every room is listed under its own heading, so nothing is hidden', async () => {
    const page = await open('/checklist', PHONE, false);
    const rooms = page.locator('[data-room]');
    expect(await rooms.locator('h2').allInnerTexts()).toEqual(['Kitchen', 'Bathrooms', 'Bedrooms', 'Common Areas']);
    const counts = await rooms.evaluateAll((els) => els.map((el) => el.querySelectorAll('tbody tr').length));
    expect(counts).toEqual([23, 19, 16, 15]);
  });

  it("is the Cleaning Checklist; Let's Get Started offers Book Online and the phone", async () => {
    const page = await open('/checklist', PHONE);
    expect(await page.locator('h1').innerText()).toBe('Cleaning Checklist');
    expect(await page.title()).toMatch(/^Cleaning Checklist/);
    expect(await hrefs(page, 'section:has(#get-started) a')).toEqual(['/book-online', PHONE_HREF]);
    expect(await page.locator('section:has(#get-started) a').first().innerText()).toBe('Book Online');
  });
});

describe('/contact', () => {
  it('has the headline, the form Request Your Quote and the cards Call Us, Email Us, Service Area, Business Hours', async () => {
    const page = await open('/contact', PHONE);
    expect(await page.locator('h1').innerText()).toBe('Get Your Free Quote Today');
    expect(await page.getByRole('heading', { level: 2, name: 'Request Your Quote' }).isVisible()).toBe(true);
    expect(await page.locator('main form').count()).toBe(1);
    for (const label of ['First Name', 'Last Name', 'Email', 'Phone', 'Message']) expect(await page.getByLabel(label, { exact: true }).count(), label).toBe(1);
    const cards = page.getByRole('list', { name: 'Other ways to reach us' }).locator('li');
    expect(await cards.locator('h2').allInnerTexts()).toEqual(['Call Us', 'Email Us', 'Service Area', 'Business Hours']);
    const text = await cards.allInnerTexts();
    expect(text[0]).toMatch(/\(408\) 555-0186[\s\S]*24\/7/);
    expect(text[1]).toMatch(/hello@bayshinecleaning\.com[\s\S]*Quick response guaranteed/i);
    expect(text[2]).toMatch(/Silicon Valley[\s\S]*50\+ mile radius/);
    expect(text[3]).toMatch(/Mon-Sat 9AM-6PM[\s\S]*Emergency services available/i);
    expect(await cards.nth(0).locator('a').getAttribute('href')).toBe(PHONE_HREF);
    expect(await cards.nth(1).locator('a').getAttribute('href')).toBe('mailto:hello@bayshinecleaning.com');
  });
});

describe('embedded booking service', () => {
  it.each([[PHONE], [DESKTOP]])('/customer-login at %o: intro about bookings, history and preferences, portal 650px high', async (viewport) => {
    const page = await open('/customer-login', viewport);
    expect(await page.locator('h1').innerText()).toBe('Customer Login');
    const intro = await page.locator('main').innerText();
    for (const words of [/manage your bookings/i, /view your cleaning history/i, /update your preferences/i]) expect(intro).toMatch(words);
    const frame = page.locator('main iframe');
    expect(await frame.getAttribute('src')).toBe(LOGIN_SRC);
    expect(await frame.getAttribute('title')).toBeTruthy();
    expect((await frame.boundingBox())!.height).toBe(650);
  });

  it.each([[PHONE], [DESKTOP]])('/book-online at %o: the booking page fills the window less 80px', async (viewport) => {
    const page = await open('/book-online', viewport);
    const frame = page.locator('main iframe');
    expect(await frame.getAttribute('src')).toBe(BOOKING_SRC);
    expect(await frame.getAttribute('title')).toBeTruthy();
    expect((await frame.boundingBox())!.height).toBe(viewport.height - 80);
    expect(await page.title()).toBe('Book a Cleaning Online | Bay Shine Cleaning');
    expect(await page.locator('meta[name="description"]').getAttribute('content')).toMatch(/book/i);
  });
});

describe('legal pages', () => {
  it.each([['/terms-of-service', 'Terms of Service'], ['/privacy-policy', 'Privacy Policy']])('%s shows its title and Last updated: February 6, 2025', async (route, title) => {
    const page = await open(route, PHONE);
    expect(await page.locator('h1').innerText()).toBe(title);
    expect(await page.locator('main').innerText()).toContain('Last updated: February 6, 2025');
  });

  it('terms of service list the cancellation terms', async () => {
    const page = await open('/terms-of-service');
    const text = await page.locator('main').innerText();
    for (const term of ['$50', '50%', '100%', '$3,000', '8-10', '10-12', '12-2', '2-4', '5 PM', '30 days', 'Independence Day', 'Thanksgiving', 'Christmas Eve', "New Year's Eve"]) {
      expect(text, term).toContain(term);
    }
  });

  it('the privacy policy has more than three sections', async () => {
    const page = await open('/privacy-policy');
    expect(await page.locator('main h2').count()).toBeGreaterThan(3);
  });
});

describe('service pages', () => {
  it.each(SERVICES)('%s on a phone: hero with Book Online, then intro, why-choose, reviews, the 35 areas, FAQ, call to action, related; its buttons lead only to booking', async (route) => {
    const page = await open(route, PHONE);
    expect(await inFirstScreen(page, 'h1')).toBe(true);
    const heroBook = page.locator('main section').first().getByRole('link', { name: 'Book Online' });
    expect(await heroBook.getAttribute('href')).toBe('/book-online');
    const ids = await page.locator('main h2').evaluateAll((els) => els.map((e) => e.id));
    const order = ['intro-heading', 'why-heading', 'reviews-heading', 'areas-heading', 'service-faq-heading', 'cta-heading', 'related-heading'].map((id) => ids.indexOf(id));
    expect(order.every((i) => i >= 0), ids.join(' ')).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(await page.locator('section:has(#service-faq-heading) details').count()).toBeGreaterThanOrEqual(2);
    expect(await hrefs(page, 'section:has(#cta-heading) a')).toEqual(['/book-online']);
    // The related cards lead to the four other services, in site order.
    expect(await hrefs(page, 'section:has(#related-heading) a')).toEqual(SERVICES.filter((s) => s !== route));
    expect(await page.locator('section:has(#areas-heading) li').count()).toBe(35);
    const ctas = (await hrefs(page, 'main a[href^="/"]')).filter((h) => !['/', '/services', '/locations'].includes(h!) && !h!.startsWith('/locations/'));
    expect(new Set(ctas.filter((h) => !SERVICES.includes(h!)))).toEqual(new Set(['/book-online']));
  });

  it('the 35 served cities are listed, and the ten with a page link to it', async () => {
    const page = await open('/deep-cleaning-san-francisco', PHONE);
    const areas = page.locator('section:has(#areas-heading) li');
    expect(await areas.count()).toBe(35);
    const links = Object.fromEntries(await page.locator('section:has(#areas-heading) a').evaluateAll((els) => els.map((e) => [e.textContent?.trim(), e.getAttribute('href')])));
    expect(links).toEqual(Object.fromEntries(CITY_PAGES.map((c) => [c.name, c.route])));
    for (const name of ['San Francisco', 'Los Gatos', 'Mountain View']) expect(await areas.getByText(name, { exact: true }).count(), name).toBe(1);
  });

  it('routine cleaning offers Weekly, Biweekly (MOST POPULAR) and Monthly, each with a Book button', async () => {
    const page = await open('/routine-cleaning-bay-area');
    for (const plan of ['Weekly', 'Biweekly', 'Monthly']) {
      const card = page.locator('li', { has: page.getByRole('heading', { name: plan, exact: true }) });
      expect(await card.locator('a').getAttribute('href'), plan).toBe('/book-online');
      expect(await card.locator('a').innerText()).toMatch(/Book/);
    }
    expect(await page.locator('li', { has: page.getByRole('heading', { name: 'Biweekly', exact: true }) }).innerText()).toContain('MOST POPULAR');
  });

  it('move in/out has Move In and Move Out cards with Book buttons', async () => {
    const page = await open('/move-in-out-cleaning');
    for (const title of ['Move In', 'Move Out']) {
      const card = page.locator('li', { has: page.getByRole('heading', { name: title, exact: true }) });
      expect(await card.locator('ul li').count()).toBeGreaterThan(2);
      expect(await card.locator('a').getAttribute('href')).toBe('/book-online');
    }
  });

  it('post-construction lists the three project types and the four-step process', async () => {
    const page = await open('/post-construction-cleaning');
    const h3 = await page.locator('main h3').allInnerTexts();
    for (const t of ['New Construction', 'Renovations', 'Remodeling', 'Assessment', 'Debris Removal', 'Deep Cleaning', 'Final Inspection']) expect(h3).toContain(t);
  });

  it('commercial lists business types, six frequencies and benefits', async () => {
    const page = await open('/commercial-janitorial-services');
    const h3 = await page.locator('main h3').allInnerTexts();
    for (const t of ['Office Buildings', 'Retail Spaces', 'Medical Facilities', 'Daily', 'Weekly', 'Bi-weekly', 'Monthly', 'One-time', 'Seasonal']) expect(h3).toContain(t);
  });
});

describe('city pages', () => {
  it.each(CITY_PAGES)('$route: title, hero 70% of the screen (phone and desktop) with the H1 and Book Online Now; Schedule and Book buttons lead to booking; six benefits, its FAQs, related services', async ({ route, name, faqs }) => {
    const page = await open(route, PHONE);
    expect(await page.title()).toBe(`Deep Cleaning Services in ${name}, CA | Bay Shine Cleaning`);
    const hero = page.locator('main section').first();
    expect((await hero.boundingBox())!.height).toBeGreaterThanOrEqual(Math.floor(PHONE.height * 0.7));
    expect(await hero.locator('h1').innerText()).toBe(`Deep Cleaning Services in ${name}, CA`);
    expect(await hero.locator('img').count()).toBe(1);
    const book = hero.getByRole('link', { name: 'Book Online Now' });
    expect(await book.getAttribute('href')).toBe('/book-online');
    expect(await inFirstScreen(page, 'main section a[href="/book-online"]')).toBe(true);
    for (const label of [`Schedule Your ${name} Deep Cleaning Today!`, `Book Your ${name} Deep Cleaning!`]) {
      const link = page.getByRole('link', { name: label, exact: true });
      expect(await link.getAttribute('href'), label).toBe('/book-online');
      expect((await link.boundingBox())!.height, label).toBeGreaterThanOrEqual(44);
    }
    expect(await page.locator('section:has(#benefits-heading) li svg').count()).toBe(6);
    const faq = page.locator('section', { has: page.getByRole('heading', { name: `Frequently Asked Questions - ${name} Deep Cleaning` }) });
    expect(await faq.locator('details').count()).toBe(faqs);
    expect(await page.getByRole('heading', { name: `Ready to Transform Your ${name} Home?` }).count()).toBe(1);
    expect(await hrefs(page, 'section:has(#related-heading) a')).toEqual([
      '/routine-cleaning-bay-area', '/move-in-out-cleaning', '/post-construction-cleaning', '/commercial-janitorial-services',
    ]);
    await page.setViewportSize(DESKTOP);
    expect((await hero.boundingBox())!.height).toBeGreaterThanOrEqual(Math.floor(DESKTOP.height * 0.7));
  });

  it('FAQ accordions keep one item open at a time and can close it again, without JavaScript', async () => {
    const page = await open('/locations/deep-cleaning-san-jose-ca', DESKTOP, false);
    const items = page.locator('main details');
    const open_ = () => items.evaluateAll((els) => els.map((e) => (e as HTMLDetailsElement).open));
    expect(await open_()).toEqual([true, false, false, false]);
    await items.nth(2).locator('summary').click();
    expect(await open_()).toEqual([false, false, true, false]);
    await items.nth(2).locator('summary').press('Enter');
    expect(await open_()).toEqual([false, false, false, false]);
  });
});

describe('not found', () => {
  it('on a phone: status 404, Oops! Page not found, a big link home, the path in the console', async () => {
    const context = await browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    const logged: string[] = [];
    page.on('console', (m) => logged.push(m.text()));
    const response = await page.goto(`${site.url}/locations/deep-cleaning-nowhere-ca`);
    expect(response?.status()).toBe(404);
    expect(await page.locator('h1').innerText()).toBe('404');
    expect(await page.getByText('Oops! Page not found', { exact: true }).isVisible()).toBe(true);
    const home = page.locator('main a');
    expect(await home.count()).toBe(1);
    expect(await home.getAttribute('href')).toBe('/');
    expect((await home.boundingBox())!.height).toBeGreaterThanOrEqual(44);
    await expect.poll(() => logged.find((l) => l.includes('/locations/deep-cleaning-nowhere-ca'))).toBeTruthy();
    expect(await page.locator('meta[name="robots"]').getAttribute('content')).toBe('noindex');
    await context.close();
  });
});
