/** Every route of the spec, visited in Chromium: the headings, buttons and link targets a visitor relies on. */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../helpers/browser.js';
import { startTestSite, type TestSite } from '../helpers/site.js';

const CITY_PAGES: [slug: string, name: string, faqs: number][] = [
  ['atherton', 'Atherton', 4], ['belmont', 'Belmont', 4], ['brisbane', 'Brisbane', 4], ['burlingame', 'Burlingame', 4], ['campbell', 'Campbell', 4],
  ['colma', 'Colma', 3], ['cupertino', 'Cupertino', 4], ['daly-city', 'Daly City', 4], ['san-jose', 'San Jose', 4], ['palo-alto', 'Palo Alto', 4],
];
const CARD_ONLY = ['Los Altos', 'Saratoga', 'Fremont', 'Los Altos Hills', 'Redwood City', 'Portola Valley', 'Emerald Hills', 'Monte Sereno', 'Los Gatos'];
const SERVICES = ['/deep-cleaning-san-francisco', '/routine-cleaning-bay-area', '/move-in-out-cleaning', '/post-construction-cleaning', '/commercial-janitorial-services'];
const ROUTES = [
  '/', '/services', '/locations', '/checklist', '/contact', '/customer-login', '/book-online', '/privacy-policy', '/terms-of-service',
  ...SERVICES, ...CITY_PAGES.map(([slug]) => `/locations/deep-cleaning-${slug}-ca`),
];
const PHONE_HREF = 'tel:+14085550186';

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

async function open(route: string, width = 1280, javaScriptEnabled = true): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: width < 500 ? 800 : 900 }, javaScriptEnabled });
  const page = await context.newPage();
  await page.goto(site.url + route);
  return page;
}

const hrefOf = (page: Page, name: string | RegExp) => page.getByRole('link', { name, exact: typeof name === 'string' }).first().getAttribute('href');
const hrefsOf = (page: Page, name: string | RegExp) => page.getByRole('link', { name, exact: typeof name === 'string' }).evaluateAll((els) => els.map((e) => e.getAttribute('href')));
const h1 = (page: Page) => page.locator('h1').innerText();

describe('every page', () => {
  it.each(ROUTES)('%s has the header, the footer and one h1', async (route) => {
    const page = await open(route);
    const header = page.locator('header').first();
    expect(await header.getByRole('link', { name: /Bay Shine Cleaning/ }).first().getAttribute('href')).toBe('/');
    const nav = header.getByRole('navigation', { name: 'Main' });
    expect(await nav.getByRole('link').evaluateAll((els) => els.map((e) => [e.textContent, e.getAttribute('href')]))).toEqual([
      ['Services', '/services'], ['Locations', '/locations'], ['Checklist', '/checklist'], ['Contact', '/contact'], ['Customer Login', '/customer-login'],
    ]);
    expect(await header.getByRole('link', { name: /555-0186/ }).first().getAttribute('href')).toBe(PHONE_HREF);
    expect(await header.getByRole('link', { name: 'Book Online', exact: true }).first().getAttribute('href')).toBe('/book-online');
    const footer = page.locator('footer');
    expect(await footer.innerText()).toMatch(/\(408\) 555-0186[\s\S]*hello@bayshinecleaning\.com[\s\S]*San Jose, CA/);
    expect(await footer.getByRole('link', { name: 'Privacy Policy' }).getAttribute('href')).toBe('/privacy-policy');
    expect(await footer.getByRole('link', { name: 'Terms of Service' }).getAttribute('href')).toBe('/terms-of-service');
    expect(await footer.innerText()).toMatch(/© \d{4} Bay Shine Cleaning/);
    expect(await page.locator('h1').count()).toBe(1);
    await page.context().close();
  });

  it.each(ROUTES)('%s fits a 375px phone: no sideways scrolling, tap targets at least 44px', async (route) => {
    const page = await open(route, 375);
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
    await page.context().close();
  });
});

describe('home', () => {
  it('has the hero buttons, claims, stats, services, about and FAQ', async () => {
    const page = await open('/');
    expect(await hrefOf(page, 'Get Free Quote')).toBe('/book-online');
    expect(await page.locator('main').getByRole('link', { name: /555-0186/ }).first().getAttribute('href')).toBe(PHONE_HREF);
    const text = await page.locator('main').innerText();
    for (const s of ['500+', 'Happy Customers', '5+', '10K+', '100%']) expect(text).toContain(s);
    for (const claim of [/five.star/i, /bonded/i, /eco-friendly/i, /trained/i, /satisfaction/i, /flexible/i]) expect(text).toMatch(claim);
    const serviceLinks = await page.locator('main a[href]').evaluateAll((els) => els.map((e) => e.getAttribute('href')));
    for (const s of SERVICES) expect(serviceLinks).toContain(s);
    expect(await page.locator('main details').count()).toBeGreaterThanOrEqual(3);
    await page.context().close();
  });

  it('blurs the hero background until the page is scrolled more than 50px', async () => {
    const page = await open('/');
    const filter = () => page.locator('.hero-blur').evaluate((el) => getComputedStyle(el).filter);
    expect(await filter()).toContain('blur');
    await page.evaluate(() => window.scrollTo(0, 40));
    await page.waitForTimeout(100);
    expect(await filter()).toContain('blur');
    await page.evaluate(() => window.scrollTo(0, 120));
    await expect.poll(filter).toBe('none');
    await page.context().close();
  });
});

describe('/services', () => {
  it('shows four cards, each with a description, What\'s Included and Get Free Quote', async () => {
    const page = await open('/services');
    const cards = page.locator('main li:has(h2)');
    expect(await cards.locator('h2').allInnerTexts()).toEqual(['Routine Cleaning', 'Deep Cleaning', 'Move In/Out Cleaning', 'Commercial Janitorial Services']);
    for (let i = 0; i < 4; i++) {
      const card = cards.nth(i);
      expect(await card.getByRole('heading', { name: "What's Included" }).count()).toBe(1);
      expect(await card.locator('ul li').count()).toBeGreaterThanOrEqual(3);
      expect(await card.getByRole('link', { name: 'Get Free Quote' }).getAttribute('href')).toBe('/book-online');
    }
    await page.context().close();
  });
});

describe('/locations', () => {
  it('shows 19 city cards; Explore Location goes to the city page where one exists, otherwise to /book-online', async () => {
    const page = await open('/locations');
    const cards = page.locator('[data-testid="city-cards"] > li');
    expect(await cards.count()).toBe(19);
    const targets = Object.fromEntries(await cards.evaluateAll((els) => els.map((el) => [el.querySelector('h3')?.textContent ?? '', el.querySelector('a')?.getAttribute('href') ?? ''])));
    for (const [slug, name] of CITY_PAGES) expect(targets[name], name).toBe(`/locations/deep-cleaning-${slug}-ca`);
    for (const name of CARD_ONLY) expect(targets[name], name).toBe('/book-online');
    expect(await cards.first().innerText()).toMatch(/Population: ~[\d,]+/);
    expect(await page.getByRole('link', { name: /Explore Location/ }).count()).toBe(19);
    const main = await page.locator('main').innerText();
    for (const s of ['13+', '500+', '24/7']) expect(main).toContain(s);
    const dontSee = page.locator('section', { has: page.getByRole('heading', { name: "Don't See Your City?" }) });
    const hrefs = await dontSee.locator('a').evaluateAll((els) => els.map((e) => e.getAttribute('href')));
    expect(hrefs).toEqual(['/contact', PHONE_HREF]);
    await page.context().close();
  });
});

describe('/checklist', () => {
  it('has tabs Kitchen, Bath, Bedroom, Common (Kitchen first) with 23, 19, 16 and 15 tasks', async () => {
    const page = await open('/checklist');
    expect(await h1(page)).toBe('Cleaning Checklist');
    expect(await page.title()).toMatch(/^Cleaning Checklist/);
    const tabs = page.getByRole('tab');
    await expect.poll(() => tabs.count()).toBe(4);
    expect(await tabs.allInnerTexts()).toEqual(['Kitchen', 'Bath', 'Bedroom', 'Common']);
    expect(await tabs.first().getAttribute('aria-selected')).toBe('true');
    const counts: number[] = [];
    for (let i = 0; i < 4; i++) {
      await tabs.nth(i).click();
      const panel = page.getByRole('tabpanel').filter({ visible: true });
      counts.push(await panel.locator('tbody tr').count());
    }
    expect(counts).toEqual([23, 19, 16, 15]);
    const header = await page.getByRole('tabpanel').filter({ visible: true }).locator('thead th').allInnerTexts();
    expect(header.map((t) => t.trim())).toEqual(['Task', 'Routine Clean', 'Deep Clean', 'Move-In/Out']);
    const started = page.locator('section', { has: page.getByRole('heading', { name: "Let's Get Started" }) });
    expect(await started.getByRole('link', { name: 'Book Online' }).getAttribute('href')).toBe('/book-online');
    expect(await started.locator(`a[href="${PHONE_HREF}"]`).count()).toBe(1);
    await page.context().close();
  });
});

describe('/contact', () => {
  it('has the heading, the quote form and the four info cards', async () => {
    const page = await open('/contact');
    expect(await h1(page)).toBe('Get Your Free Quote Today');
    expect(await page.getByRole('heading', { name: 'Request Your Quote' }).count()).toBe(1);
    for (const label of ['First Name', 'Last Name', 'Email', 'Phone', 'Message']) expect(await page.getByLabel(label, { exact: true }).count(), label).toBe(1);
    const main = await page.locator('main').innerText();
    expect(main).toMatch(/Call Us[\s\S]*\(408\) 555-0186[\s\S]*24\/7/);
    expect(main).toMatch(/Email Us[\s\S]*hello@bayshinecleaning\.com[\s\S]*Quick response guaranteed/i);
    expect(main).toMatch(/Service Area[\s\S]*Silicon Valley[\s\S]*50\+ mile radius/);
    expect(main).toMatch(/Business Hours[\s\S]*Mon-Sat 9AM-6PM[\s\S]*emergency services available/i);
    await page.context().close();
  });
});

describe('embedded booking pages', () => {
  it('/customer-login explains the portal and embeds it 650px high', async () => {
    const page = await open('/customer-login');
    const text = await page.locator('main').innerText();
    expect(text).toMatch(/booking/i);
    expect(text).toMatch(/history/i);
    expect(text).toMatch(/preferences/i);
    const frame = page.locator('main iframe');
    expect(await frame.getAttribute('src')).toBe('https://bayshinecleaning.bookingkoala.com/login');
    expect(await frame.evaluate((el) => el.getBoundingClientRect().height)).toBe(650);
    await page.context().close();
  });

  it('/book-online fills the window below the header: calc(100vh - 80px)', async () => {
    const page = await open('/book-online');
    const frame = page.locator('main iframe');
    expect(await frame.getAttribute('src')).toBe('https://bayshinecleaning.bookingkoala.com/booknow/home_cleaning');
    expect(await frame.evaluate((el) => el.getBoundingClientRect().height)).toBe(900 - 80);
    expect(await page.title()).toMatch(/Book/);
    expect(await page.locator('meta[name="description"]').getAttribute('content')).toBeTruthy();
    await page.context().close();
  });
});

describe('legal pages', () => {
  it('terms of service were last updated February 6, 2025 and list the cancellation terms', async () => {
    const page = await open('/terms-of-service');
    const text = await page.locator('main').innerText();
    expect(text).toContain('February 6, 2025');
    for (const term of ['$50', '50%', '100%', '$3,000', '8-10', '10-12', '12-2', '2-4', '5 PM', '30 days', 'Independence Day', 'Thanksgiving', 'Christmas Eve', "New Year's Eve"]) {
      expect(text, term).toContain(term);
    }
    await page.context().close();
  });

  it('privacy policy is readable with its own title', async () => {
    const page = await open('/privacy-policy');
    expect(await h1(page)).toMatch(/Privacy Policy/);
    expect(await page.locator('main h2').count()).toBeGreaterThan(3);
    await page.context().close();
  });
});

describe('service pages', () => {
  it.each(SERVICES)('%s has the shared layout and links to the other four services', async (route) => {
    const page = await open(route);
    const main = page.locator('main');
    expect(await main.locator('details').count()).toBeGreaterThanOrEqual(2);
    expect(await main.getByText('Los Gatos', { exact: true }).count()).toBe(1);
    const areas = main.locator('section', { has: page.locator('h2', { hasText: /area/i }) }).locator('li');
    expect(await areas.count()).toBe(35);
    const related = await main.locator('a[href]').evaluateAll((els) => els.map((e) => e.getAttribute('href')));
    for (const other of SERVICES.filter((s) => s !== route)) expect(related).toContain(other);
    expect(related).not.toContain(route);
    const ctas = await main.locator('a[href^="/"]').evaluateAll((els) => els.map((e) => e.getAttribute('href')).filter((h) => !['/', '/services', '/locations'].includes(h!) && !h!.startsWith('/locations/')));
    expect(new Set(ctas.filter((h) => !SERVICES.includes(h!)))).toEqual(new Set(['/book-online']));
    await page.context().close();
  });

  it('routine cleaning offers Weekly, Biweekly (MOST POPULAR) and Monthly, each with a Book button', async () => {
    const page = await open('/routine-cleaning-bay-area');
    for (const plan of ['Weekly', 'Biweekly', 'Monthly']) {
      const card = page.locator('li', { has: page.getByRole('heading', { name: plan, exact: true }) });
      expect(await card.locator('a').getAttribute('href'), plan).toBe('/book-online');
      expect(await card.locator('a').innerText()).toMatch(/Book/);
    }
    expect(await page.locator('li', { has: page.getByRole('heading', { name: 'Biweekly', exact: true }) }).innerText()).toContain('MOST POPULAR');
    await page.context().close();
  });

  it('move in/out has Move In and Move Out cards with Book buttons', async () => {
    const page = await open('/move-in-out-cleaning');
    for (const title of ['Move In', 'Move Out']) {
      const card = page.locator('li', { has: page.getByRole('heading', { name: title, exact: true }) });
      expect(await card.locator('ul li').count()).toBeGreaterThan(2);
      expect(await card.locator('a').getAttribute('href')).toBe('/book-online');
    }
    await page.context().close();
  });

  it('post-construction lists the three project types and the four-step process', async () => {
    const page = await open('/post-construction-cleaning');
    const h3 = await page.locator('main h3').allInnerTexts();
    for (const t of ['New Construction', 'Renovations', 'Remodeling', 'Assessment', 'Debris Removal', 'Deep Cleaning', 'Final Inspection']) expect(h3).toContain(t);
    await page.context().close();
  });

  it('commercial lists business types, six frequencies and benefits', async () => {
    const page = await open('/commercial-janitorial-services');
    const h3 = await page.locator('main h3').allInnerTexts();
    for (const t of ['Office Buildings', 'Retail Spaces', 'Medical Facilities', 'Daily', 'Weekly', 'Bi-weekly', 'Monthly', 'One-time', 'Seasonal']) expect(h3).toContain(t);
    await page.context().close();
  });
});

describe('city pages', () => {
  it.each(CITY_PAGES)('/locations/deep-cleaning-%s-ca follows the city page layout', async (slug, name, faqs) => {
    const page = await open(`/locations/deep-cleaning-${slug}-ca`);
    expect(await h1(page)).toBe(`Deep Cleaning Services in ${name}, CA`);
    expect(await page.title()).toBe(`Deep Cleaning Services in ${name}, CA | Bay Shine Cleaning`);
    const hero = page.locator('main section').first();
    expect(await hero.evaluate((el) => el.getBoundingClientRect().height)).toBeGreaterThanOrEqual(Math.floor(900 * 0.7));
    expect(await hrefOf(page, 'Book Online Now')).toBe('/book-online');
    expect(await hrefOf(page, `Schedule Your ${name} Deep Cleaning Today!`)).toBe('/book-online');
    const benefits = page.locator('section', { has: page.getByRole('heading', { name: new RegExp(`^Why ${name} Residents Choose`) }) });
    expect(await benefits.locator('li').count()).toBe(6);
    const faq = page.locator('section', { has: page.getByRole('heading', { name: `Frequently Asked Questions - ${name} Deep Cleaning` }) });
    expect(await faq.locator('details').count()).toBe(faqs);
    expect(await page.getByRole('heading', { name: `Ready to Transform Your ${name} Home?` }).count()).toBe(1);
    expect(await hrefOf(page, `Book Your ${name} Deep Cleaning!`)).toBe('/book-online');
    const related = page.locator('section', { has: page.getByRole('heading', { name: `Related Services in ${name}` }) });
    expect(await related.locator('a').evaluateAll((els) => els.map((e) => e.getAttribute('href')))).toEqual([
      '/routine-cleaning-bay-area', '/move-in-out-cleaning', '/post-construction-cleaning', '/commercial-janitorial-services',
    ]);
    await page.context().close();
  });

  it('FAQ accordions keep one item open at a time and can close it again, without JavaScript', async () => {
    const page = await open('/locations/deep-cleaning-san-jose-ca', 1280, false);
    const items = page.locator('main details');
    const open_ = () => items.evaluateAll((els) => els.map((e) => (e as HTMLDetailsElement).open));
    expect(await open_()).toEqual([true, false, false, false]);
    await items.nth(2).locator('summary').click();
    expect(await open_()).toEqual([false, false, true, false]);
    await items.nth(2).locator('summary').press('Enter');
    expect(await open_()).toEqual([false, false, false, false]);
    await page.context().close();
  });
});

describe('small screens without JavaScript', () => {
  it('the menu button opens a drawer with the navigation, and Escape closes it', async () => {
    const page = await open('/services', 375, false);
    const drawer = page.locator('#site-drawer');
    expect(await drawer.isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Menu' }).first().click();
    await expect.poll(() => drawer.isVisible()).toBe(true);
    expect(await drawer.getByRole('link').evaluateAll((els) => els.map((e) => e.getAttribute('href')))).toEqual(
      expect.arrayContaining(['/services', '/locations', '/checklist', '/contact', '/customer-login', '/book-online', PHONE_HREF]),
    );
    await page.keyboard.press('Escape');
    await expect.poll(() => drawer.isVisible()).toBe(false);
    await page.context().close();
  });
});

describe('not found', () => {
  it('answers an unknown path with 404, Oops! Page not found, a link home, and logs the path', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const logged: string[] = [];
    page.on('console', (m) => logged.push(m.text()));
    const response = await page.goto(`${site.url}/no/such/page`);
    expect(response?.status()).toBe(404);
    expect(await h1(page)).toBe('404');
    expect(await page.locator('main').innerText()).toContain('Oops! Page not found');
    expect(await page.locator('main a').getAttribute('href')).toBe('/');
    await expect.poll(() => logged.some((l) => l.includes('/no/such/page'))).toBe(true);
    await context.close();
  });
});
