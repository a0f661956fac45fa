/** Server render of each island (as templates/components/Island.tsx does it): what a visitor without JavaScript gets. */
import { createElement, type ComponentType } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import ChecklistTabs from '../../src/islands/ChecklistTabs.js';
import ContactForm from '../../src/islands/ContactForm.js';
import DiscountPopup from '../../src/islands/DiscountPopup.js';
import ReviewsWidget from '../../src/islands/ReviewsWidget.js';
import Toaster from '../../src/islands/Toaster.js';
import { islandLoaders, type IslandName } from '../../src/islands/registry.js';
import { toast, dismissToast } from '../../src/lib/toast.js';
import { checklistProps, checklistRooms, contactProps, contactTexts, discountProps, discountTexts, reviewsProps } from './fixtures.js';

function render<P extends object>(name: IslandName, component: ComponentType<P>, props: P): string {
  return renderToString(createElement(component, props), { identifierPrefix: `${name}-` });
}

function decode(html: string): string {
  return html.replace(/&#x27;/g, "'").replace(/&quot;/g, '"').replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>');
}

/** Text content (tags removed, entities decoded). */
function text(html: string): string {
  return decode(html.replace(/<[^>]+>/g, ' ')).replace(/\s+/g, ' ');
}

describe('registry', () => {
  it('loads every island module with a default component', async () => {
    for (const [name, load] of Object.entries(islandLoaders)) {
      const mod = await load();
      expect(typeof mod.default, name).toBe('function');
    }
  });
});

describe('ContactForm server render', () => {
  const html = render('ContactForm', ContactForm, contactProps);

  it('has every label tied to its control and the submit button', () => {
    for (const [field, label] of Object.entries(contactTexts.fields)) {
      const m = new RegExp(`<label for="([^"]+)"[^>]*>${label}</label>`).exec(html);
      expect(m, label).not.toBeNull();
      expect(html).toContain(`id="${m![1]}"`);
      if (field !== 'honeypot') expect(html).toMatch(new RegExp(`id="${m![1]}"[^>]*name="${field}"`));
    }
    expect(html).toMatch(new RegExp(`<button type="submit"[^>]*>${contactTexts.submit}</button>`));
    expect(html).not.toContain(contactTexts.submitting);
    expect(decode(html)).toContain(`placeholder="${contactTexts.messagePlaceholder}"`);
  });

  it('uses the island id prefix and no error state', () => {
    expect(html).toMatch(/id="[^"]*ContactForm-[^"]*"/);
    expect(html).not.toContain('aria-invalid');
    expect(html).not.toContain('role="alert"');
  });

  it('hides the honeypot from people and assistive technology', () => {
    const honeypot = /<div aria-hidden="true"[^>]*>(.*?)<\/div>/.exec(html);
    expect(honeypot).not.toBeNull();
    const input = /<input[^>]*name="website"[^>]*>/.exec(honeypot![1]!)![0];
    expect(input).toContain('tabindex="-1"');
    expect(input).toMatch(/autocomplete="off"/i);
    expect(honeypot![0]).toContain('-left-[10000px]');
  });

  it('posts (never GETs personal data into a URL) and turns native validation off', () => {
    const form = /<form[^>]*>/.exec(html)![0];
    expect(form).toContain('method="post"');
    expect(form).toMatch(/novalidate/i);
  });
});

describe('DiscountPopup server render', () => {
  const html = render('DiscountPopup', DiscountPopup, discountProps);

  it('is a closed dialog labelled by its title', () => {
    expect(html).toMatch(/^<dialog /);
    expect(html).not.toMatch(/<dialog[^>]* open/);
    const labelledBy = /<dialog aria-labelledby="([^"]+)"/.exec(html)![1];
    expect(html).toContain(`<h2 id="${labelledBy}"`);
    expect(text(html)).toContain(discountTexts.title);
  });

  it('contains the fields, submit and the SMS consent note', () => {
    const t = text(html);
    for (const s of [discountTexts.fields.email, discountTexts.fields.phone, discountTexts.submit, discountTexts.consent]) expect(t).toContain(s);
    expect(t).toMatch(/STOP/);
    expect(html).toContain(`aria-label="${discountTexts.close}"`);
  });
});

describe('ChecklistTabs server render (no JavaScript)', () => {
  const html = render('ChecklistTabs', ChecklistTabs, checklistProps);

  it('has no tab list yet (its tabs would control nothing) and offers jump links to the rooms instead', () => {
    expect(html).not.toContain('role="tablist"');
    expect(html).not.toContain('role="tab"');
    for (const room of checklistProps.rooms) expect(html).toMatch(new RegExp(`<a href="#${room.panel}"[^>]*>${room.label}</a>`));
  });

  it('carries no task: the page renders the rooms, the island only switches between them', () => {
    for (const { task } of checklistRooms.flatMap((r) => r.tasks)) expect(text(html)).not.toContain(task);
  });
});

describe('ReviewsWidget server render', () => {
  const html = render('ReviewsWidget', ReviewsWidget, reviewsProps);
  it('reserves space, shows the loading text, and gives no-JS visitors the link', () => {
    expect(html).toContain('min-h-[420px]');
    expect(text(html)).toContain(reviewsProps.loading);
    expect(html).toMatch(new RegExp(`<noscript>.*${reviewsProps.linkLabel}.*</noscript>`));
    expect(html).not.toContain('<script');
  });
});

describe('Toaster', () => {
  it('renders empty live regions on the server, even with pending toasts', () => {
    toast({ title: 'Queued' });
    const html = render('Toaster', Toaster, { closeLabel: 'Close' });
    dismissToast();
    expect(html).toContain('role="status" aria-live="polite"');
    expect(html).toContain('role="alert" aria-live="assertive"');
    expect(html).not.toContain('Queued');
  });
});
