/**
 * Every page as a visitor sees it on a 375px phone and a 1280px desktop, with and without JavaScript:
 * what shows in the first screen, which layout each width gets, where each button leads, and what
 * the spec fixes word for word. (routes.test.ts checks the shared header/footer and each route's
 * spec content at desktop width; this file adds the phone, the no-JavaScript state and the chrome.)
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../helpers/browser.js';
import { startTestSite, type TestSite } from '../helpers/site.js';

const PHONE_HREF = 'tel:+14085550186';
const BOOKING_SRC = 'https://bayshinecleaning.bookingkoala.com/booknow/home_cleaning';
const LOGIN_SRC = 'https://bayshinecleaning.bookingkoala.com/login';
/** The five service pages in site order (content order: routine first). */
const SERVICES = ['/routine-cleaning-bay-area', '/deep-cleaning-san-francisco', '/move-in-out-cleaning', '/post-construction-cleaning', '/commercial-janitorial-services'];
const CITY_PAGES: [slug: string, name: string][] = [
  ['san-jose', 'San Jose'], ['cupertino', 'Cupertino'], ['palo-alto', 'Palo Alto'], ['atherton', 'Atherton'], ['belmont', 'Belmont'],
  ['brisbane', 'Brisbane'], ['burlingame', 'Burlingame'], ['campbell', 'Campbell'], ['colma', 'Colma'], ['daly-city', 'Daly City'],
];
const CARD_ONLY = ['Los Altos', 'Saratoga', 'Fremont', 'Los Altos Hills', 'Redwood City', 'Portola Valley', 'Emerald Hills', 'Monte Sereno', 'Los Gatos'];
const CITY_ROUTES = CITY_PAGES.map(([slug]) => `/locations/deep-cleaning-${slug}-ca`);
const ROUTES = [
  '/', '/services', '/locations', '/checklist', '/contact', '/customer-login', '/book-online', '/privacy-policy', '/terms-of-service',
  ...SERVICES, ...CITY_ROUTES,
];
const PHONE = { width: 375, height: 800 };
const DESKTOP = { width: 1280, height: 900 };

let site: TestSite;
let browser: Browser;

beforeAll(async () => {
  site = await startTestSite();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
});

/** A fresh page; the discount popup is kept shut (it has its own tests) so it never covers what we look at. */
async function open(route: string, viewport = DESKTOP, javaScriptEnabled = true): Promise<Page> {
  const context: BrowserContext = await browser.newContext({ viewport, javaScriptEnabled });
  if (javaScriptEnabled) await context.addInitScript(() => sessionStorage.setItem('discount-popup-shown', 'true'));
  const page = await context.newPage();
  await page.goto(site.url + route);
  return page;
}
const done = (page: Page) => page.context().close();
const hrefs = (page: Page, selector: string) => page.locator(selector).evaluateAll((els) => els.map((e) => e.getAttribute('href')));
/** Whether the element's box lies within the first screen (the visitor sees it without scrolling). */
const inFirstScreen = (page: Page, selector: string) =>
  page.locator(selector).first().evaluate((el) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.top >= 0 && r.bottom <= innerHeight;
  });

describe('every page, phone and desktop', () => {
  it.each(ROUTES)('%s: no sideways scrolling at 1280px, a title and a description, no inline styles', async (route) => {
    const page = await open(route);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
    expect(await page.title()).toMatch(/\S.*Bay Shine Cleaning|Bay Shine Cleaning.*\S/);
    expect((await page.locator('meta[name="description"]').getAttribute('content'))?.length).toBeGreaterThanOrEqual(50);
    // The content security policy forbids inline styles: the browser would drop them silently.
    expect(await page.locator('[style]').count()).toBe(0);
    await done(page);
  });

  it.each(ROUTES)('%s without JavaScript: one h1, no sideways scrolling at 375px, no inline styles', async (route) => {
    const page = await open(route, PHONE, false);
    expect(await page.locator('h1').count()).toBe(1);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    expect(await page.locator('[style]').count()).toBe(0);
    await done(page);
  });
});

describe('header and drawer', () => {
  it('on a desktop the navigation is in the bar and the menu button is hidden', async () => {
    const page = await open('/');
    expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Open menu' }).isVisible()).toBe(false);
    expect(await page.locator('header').getByRole('link', { name: 'Book Online', exact: true }).first().isVisible()).toBe(true);
    await done(page);
  });

  it('on a phone the bar keeps the logo, a call button and the menu button; the nav waits in the drawer', async () => {
    const page = await open('/', PHONE);
    expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(false);
    expect(await page.getByRole('button', { name: 'Open menu' }).isVisible()).toBe(true);
    const call = page.locator(`header a[href="${PHONE_HREF}"]`).first();
    expect(await call.isVisible()).toBe(true);
    expect(await call.getAttribute('href')).toBe(PHONE_HREF);
    expect(await page.locator('#site-drawer').isVisible()).toBe(false);
    await done(page);
  });

  for (const javaScriptEnabled of [true, false]) {
    it(`the drawer opens from the right with the whole nav and closes on a link click (JavaScript ${javaScriptEnabled ? 'on' : 'off'})`, async () => {
      const page = await open('/contact', PHONE, javaScriptEnabled);
      await page.getByRole('button', { name: 'Open menu' }).click();
      const drawer = page.locator('#site-drawer');
      await expect.poll(() => drawer.isVisible()).toBe(true);
      const box = (await drawer.boundingBox())!;
      expect(Math.round(box.x + box.width)).toBe(375);
      expect(box.x).toBeGreaterThan(0);
      const nav = drawer.getByRole('navigation');
      expect(await nav.getByRole('link').evaluateAll((els) => els.map((e) => [e.textContent?.trim(), e.getAttribute('href')]))).toEqual([
        ['Services', '/services'], ['Locations', '/locations'], ['Checklist', '/checklist'], ['Contact', '/contact'], ['Customer Login', '/customer-login'],
      ]);
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
      await done(page);
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
    await done(page);
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
    await done(page);
  });

  it('has the reviews, services, about and FAQ sections, in that order after the stats', async () => {
    const page = await open('/');
    const h2 = await page.locator('main h2').allInnerTexts();
    const at = (re: RegExp) => h2.findIndex((t) => re.test(t));
    const order = [/by the Numbers/, /What Our Customers Say/, /Our Cleaning Services/, /About Bay Shine/, /Frequently Asked Questions/].map(at);
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(await hrefs(page, 'section:has(#services-heading) a')).toEqual(['/routine-cleaning-bay-area', '/deep-cleaning-san-francisco', '/move-in-out-cleaning', '/post-construction-cleaning', '/commercial-janitorial-services']);
    await done(page);
  });

  it('the hero background is sharp once scrolled past 50px and blurred again back at the top', async () => {
    const page = await open('/', PHONE);
    const filter = () => page.locator('.hero-blur').evaluate((el) => getComputedStyle(el).filter);
    expect(await filter()).toMatch(/blur\(\d/);
    await page.evaluate(() => scrollTo(0, 50));
    await page.waitForTimeout(150);
    expect(await filter()).toMatch(/blur\(\d/);
    await page.evaluate(() => scrollTo(0, 51));
    await expect.poll(filter).toBe('none');
    await page.evaluate(() => scrollTo(0, 0));
    await expect.poll(filter).toMatch(/blur\(\d/);
    await done(page);
  });
});

describe('/services', () => {
  it('four cards in spec order; each title opens its service page, each Get Free Quote opens booking', async () => {
    const page = await open('/services', PHONE);
    const cards = page.locator('main li:has(h2)');
    expect(await cards.count()).toBe(4);
    expect(await hrefs(page, 'main li h2 a')).toEqual(['/routine-cleaning-bay-area', '/deep-cleaning-san-francisco', '/move-in-out-cleaning', '/commercial-janitorial-services']);
    for (let i = 0; i < 4; i++) {
      const card = cards.nth(i);
      expect((await card.locator('h2 + p').innerText()).length).toBeGreaterThan(40);
      expect(await card.locator('h3').innerText()).toBe("What's Included");
      const quote = card.getByRole('link', { name: 'Get Free Quote' });
      expect(await quote.getAttribute('href')).toBe('/book-online');
      expect((await quote.boundingBox())!.height).toBeGreaterThanOrEqual(44);
    }
    await done(page);
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
    expect(Object.keys(byName).sort()).toEqual([...CITY_PAGES.map(([, n]) => n), ...CARD_ONLY].sort());
    for (const [slug, name] of CITY_PAGES) expect(byName[name]!.href, name).toBe(`/locations/deep-cleaning-${slug}-ca`);
    for (const name of CARD_ONLY) expect(byName[name]!.href, name).toBe('/book-online');
    for (const [name, card] of Object.entries(byName)) {
      expect(card.text, name).toMatch(/Population: ~[\d,]+/);
      expect(card.text, name).toMatch(/Explore Location/);
    }
    await done(page);
  });

  it("Don't See Your City? offers the contact page and the phone", async () => {
    const page = await open('/locations', PHONE);
    const block = page.locator('section', { has: page.getByRole('heading', { name: "Don't See Your City?" }) });
    expect(await hrefs(page, `section:has(#dont-see-heading) a`)).toEqual(['/contact', PHONE_HREF]);
    expect(await block.getByRole('link', { name: /Call/ }).innerText()).toContain('(408) 555-0186');
    await done(page);
  });
});

describe('/checklist', () => {
  it('on a phone the tasks are cards, on a desktop a table with the four columns', async () => {
    const phone = await open('/checklist', PHONE);
    await expect.poll(() => phone.getByRole('tab').count()).toBe(4);
    const panel = phone.getByRole('tabpanel').filter({ visible: true });
    expect(await panel.locator('table').isVisible()).toBe(false);
    expect(await panel.locator('ul > li').filter({ visible: true }).count()).toBe(23);
    await done(phone);
    const desktop = await open('/checklist');
    await expect.poll(() => desktop.getByRole('tab').count()).toBe(4);
    const table = desktop.getByRole('tabpanel').filter({ visible: true }).locator('table');
    expect(await table.isVisible()).toBe(true);
    expect((await table.locator('thead th').allInnerTexts()).map((t) => t.trim())).toEqual(['Task', 'Routine Clean', 'Deep Clean', 'Move-In/Out']);
    await done(desktop);
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
      counts.push(await page.getByRole('tabpanel').filter({ visible: true }).locator('ul > li').count());
    }
    expect(counts).toEqual([23, 19, 16, 15]);
    expect(await page.getByRole('tab', { selected: true }).innerText()).toBe('Common');
    await done(page);
  });

  it('without JavaScript every room is listed under its own heading, so nothing is hidden', async () => {
    const page = await open('/checklist', PHONE, false);
    const rooms = page.locator('[data-room]');
    expect(await rooms.locator('h2').allInnerTexts()).toEqual(['Kitchen', 'Bathrooms', 'Bedrooms', 'Common Areas']);
    const counts = await rooms.evaluateAll((els) => els.map((el) => el.querySelectorAll('ul > li').length));
    expect(counts).toEqual([23, 19, 16, 15]);
    await done(page);
  });

  it("Let's Get Started offers Book Online and the phone", async () => {
    const page = await open('/checklist', PHONE);
    expect(await hrefs(page, 'section:has(#get-started) a')).toEqual(['/book-online', PHONE_HREF]);
    expect(await page.locator('section:has(#get-started) a').first().innerText()).toBe('Book Online');
    await done(page);
  });
});

describe('/contact', () => {
  it('has the headline, the form Request Your Quote and the cards Call Us, Email Us, Service Area, Business Hours', async () => {
    const page = await open('/contact', PHONE);
    expect(await page.locator('h1').innerText()).toBe('Get Your Free Quote Today');
    expect(await page.getByRole('heading', { level: 2, name: 'Request Your Quote' }).isVisible()).toBe(true);
    expect(await page.locator('main form').count()).toBe(1);
    const cards = page.getByRole('list', { name: 'Other ways to reach us' }).locator('li');
    expect(await cards.locator('h2').allInnerTexts()).toEqual(['Call Us', 'Email Us', 'Service Area', 'Business Hours']);
    const text = await cards.allInnerTexts();
    expect(text[0]).toMatch(/\(408\) 555-0186[\s\S]*24\/7/);
    expect(text[1]).toMatch(/hello@bayshinecleaning\.com[\s\S]*Quick response guaranteed/i);
    expect(text[2]).toMatch(/Silicon Valley[\s\S]*50\+ mile radius/);
    expect(text[3]).toMatch(/Mon-Sat 9AM-6PM[\s\S]*Emergency services available/i);
    expect(await cards.nth(0).locator('a').getAttribute('href')).toBe(PHONE_HREF);
    expect(await cards.nth(1).locator('a').getAttribute('href')).toBe('mailto:hello@bayshinecleaning.com');
    await done(page);
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
    await done(page);
  });

  it.each([[PHONE], [DESKTOP]])('/book-online at %o: the booking page fills the window less 80px', async (viewport) => {
    const page = await open('/book-online', viewport);
    const frame = page.locator('main iframe');
    expect(await frame.getAttribute('src')).toBe(BOOKING_SRC);
    expect(await frame.getAttribute('title')).toBeTruthy();
    expect((await frame.boundingBox())!.height).toBe(viewport.height - 80);
    expect(await page.title()).toBe('Book a Cleaning Online | Bay Shine Cleaning');
    expect(await page.locator('meta[name="description"]').getAttribute('content')).toMatch(/book/i);
    await done(page);
  });
});

describe('legal pages', () => {
  it.each([['/terms-of-service', 'Terms of Service'], ['/privacy-policy', 'Privacy Policy']])('%s shows its title and Last updated: February 6, 2025', async (route, title) => {
    const page = await open(route, PHONE);
    expect(await page.locator('h1').innerText()).toBe(title);
    expect(await page.locator('main').innerText()).toContain('Last updated: February 6, 2025');
    await done(page);
  });
});

describe('service pages', () => {
  it.each(SERVICES)('%s on a phone: hero with Book Online, then intro, why-choose, reviews, areas, FAQ, call to action, related', async (route) => {
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
    await done(page);
  });

  it('the 35 served cities are listed, and the ten with a page link to it', async () => {
    const page = await open('/deep-cleaning-san-francisco', PHONE);
    const areas = page.locator('section:has(#areas-heading) li');
    expect(await areas.count()).toBe(35);
    const links = Object.fromEntries(await page.locator('section:has(#areas-heading) a').evaluateAll((els) => els.map((e) => [e.textContent?.trim(), e.getAttribute('href')])));
    expect(links).toEqual(Object.fromEntries(CITY_PAGES.map(([slug, name]) => [name, `/locations/deep-cleaning-${slug}-ca`])));
    for (const name of ['San Francisco', 'Los Gatos', 'Mountain View']) expect(await areas.getByText(name, { exact: true }).count(), name).toBe(1);
    await done(page);
  });
});

describe('city pages', () => {
  it.each(CITY_PAGES)('%s on a phone: hero 70% of the screen with the H1 and Book Online Now; Schedule and Book buttons lead to booking', async (slug, name) => {
    const page = await open(`/locations/deep-cleaning-${slug}-ca`, PHONE);
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
    expect(await page.getByRole('heading', { name: `Frequently Asked Questions - ${name} Deep Cleaning` }).count()).toBe(1);
    expect(await hrefs(page, 'section:has(#related-heading) a')).toEqual([
      '/routine-cleaning-bay-area', '/move-in-out-cleaning', '/post-construction-cleaning', '/commercial-janitorial-services',
    ]);
    await done(page);
  });
});

describe('reviews widget', () => {
  it.each(ROUTES)('%s shows the reviews section only where the spec embeds it', async (route) => {
    const page = await open(route, DESKTOP, false);
    const expected = route === '/' || SERVICES.includes(route) || CITY_ROUTES.includes(route);
    expect(await page.locator('[data-island="ReviewsWidget"]').count()).toBe(expected ? 1 : 0);
    if (expected) expect(await page.getByRole('heading', { name: 'What Our Customers Say' }).count()).toBe(1);
    await done(page);
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
