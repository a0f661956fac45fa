/**
 * The content manager's date field on the business's clock (cms/app/zonedDate.ts,
 * zonedDateTime.tsx): a `…Z` value of an older entry (Decap's own widget saved UTC, decap-cms
 * #7319) shows as the California wall time of that moment; a value without an offset shows as the
 * wall time it is; what the field saves is that wall time without an offset, and reads back, in
 * the business's zone, as the same moment. None of it depends on the zone of the editor's computer
 * (the control is drawn here as a browser in Paris would draw it).
 */
import { isValidElement, type ReactElement, type ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { parseZoned } from '../../contracts/zonedTime.js';
import { momentText, storedValueOf, wallTimeNow, wallTimeOf, zoneName } from '../../cms/app/zonedDate.js';
import { zonedDateTimeControl, zonedDateTimePreview } from '../../cms/app/zonedDateTime.js';

const LA = 'America/Los_Angeles';

describe('the date field\'s value, on the business\'s clock', () => {
  it('shows a UTC value of an older entry as the California wall time of that moment, in winter and in summer', () => {
    expect(wallTimeOf('2026-11-20T17:30:00.000Z', LA)).toBe('2026-11-20T09:30'); // PST, UTC-8
    expect(wallTimeOf('2026-07-04T16:00:00Z', LA)).toBe('2026-07-04T09:00'); // PDT, UTC-7
    // Late in the UTC day is the day before in California.
    expect(wallTimeOf('2026-11-21T02:30:00.000Z', LA)).toBe('2026-11-20T18:30');
    expect(wallTimeOf('2026-11-20T09:30-05:00', LA)).toBe('2026-11-20T06:30');
    // What Decap's own YAML parser makes of a …Z value: a Date.
    expect(wallTimeOf(new Date('2026-11-20T17:30:00.000Z'), LA)).toBe('2026-11-20T09:30');
  });

  it('shows a value written without an offset as the very wall time it is, and a date alone as the start of that day', () => {
    expect(wallTimeOf('2026-11-20T09:30', LA)).toBe('2026-11-20T09:30');
    expect(wallTimeOf('2026-07-04T09:00', LA)).toBe('2026-07-04T09:00');
    expect(wallTimeOf('2026-11-20T09:30:45', LA)).toBe('2026-11-20T09:30');
    expect(wallTimeOf('2026-11-20', LA)).toBe('2026-11-20T00:00');
  });

  it('shows nothing for no value, or one that is no date (the form then asks for one)', () => {
    for (const value of [undefined, null, '', '  ', 'soon', '2026-02-30T09:00', new Date(Number.NaN), 42]) expect(wallTimeOf(value, LA), String(value)).toBe('');
  });

  it('saves the wall time typed, without an offset, which the build reads back as the same moment', () => {
    for (const moment of ['2026-11-20T17:30:00.000Z', '2026-07-04T16:00:00Z', '2026-01-01T07:59:00Z', '2026-03-08T18:00:00Z', '2026-11-01T20:15:00Z']) {
      const saved = storedValueOf(wallTimeOf(moment, LA));
      expect(saved, moment).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/);
      expect(parseZoned(saved, LA)!.time, moment).toBe(Date.parse(moment));
    }
    // Typed in the field: kept as typed.
    expect(storedValueOf('2026-11-20T09:30')).toBe('2026-11-20T09:30');
    expect(parseZoned(storedValueOf('2026-11-20T09:30'), LA)!.iso).toBe('2026-11-20T09:30:00-08:00');
    // Cleared, or not yet complete (what a date input reports meanwhile): nothing.
    expect(storedValueOf('')).toBe('');
    expect(storedValueOf('2026-11-20')).toBe('');
  });

  it('"Now" is the business\'s wall clock, to the minute', () => {
    expect(wallTimeNow(LA, Date.parse('2026-11-21T02:30:59.999Z'))).toBe('2026-11-20T18:30');
    expect(wallTimeNow('Europe/Paris', Date.parse('2026-11-21T02:30:00Z'))).toBe('2026-11-21T03:30');
  });

  it('names the zone and the moment as an editor reads them', () => {
    expect(zoneName(LA)).toBe('Pacific Time');
    expect(momentText(Date.parse('2026-11-21T02:30:00Z'), LA)).toBe('November 20, 2026 at 6:30 PM');
  });
});

/** The elements of a rendered tree, depth first. */
function* elements(node: ReactNode): Generator<ReactElement<Record<string, unknown>>> {
  if (Array.isArray(node)) {
    for (const child of node) yield* elements(child);
  } else if (isValidElement<Record<string, unknown>>(node)) {
    yield node;
    yield* elements(node.props.children as ReactNode);
  }
}

describe('the date field as drawn', () => {
  const draw = (value: unknown, changes: string[]) => {
    const Control = zonedDateTimeControl(LA, 'Europe/Paris');
    const props = { forID: 'date', value, onChange: (v: string) => changes.push(v), classNameWrapper: 'c' };
    // A function component without hooks: called, it gives the tree the test can click through.
    return { tree: (Control as (p: typeof props) => ReactElement)(props), html: renderToStaticMarkup(<Control {...props} />) };
  };

  it('shows the California wall time of a UTC value on a computer in Paris, and says which clock is which', () => {
    const { html } = draw('2026-11-20T17:30:00.000Z', []);
    expect(html).toContain('type="datetime-local"');
    expect(html).toContain('value="2026-11-20T09:30"');
    expect(html).toContain('Pacific Time (America/Los_Angeles), the business&#x27;s clock');
    expect(html).toContain('On this computer&#x27;s clock (Europe/Paris) that is November 20, 2026 at 6:30 PM.');
    expect(html).toContain('aria-describedby="date-zone"');
  });

  it('saves what is typed without an offset, and Now as the business\'s wall time', () => {
    const changes: string[] = [];
    const { tree } = draw('', changes);
    const all = [...elements(tree)];
    const input = all.find((e) => e.type === 'input')!;
    (input.props.onChange as (e: { target: { value: string } }) => void)({ target: { value: '2026-12-24T16:00' } });
    const now = all.find((e) => e.type === 'button')!;
    (now.props.onClick as () => void)();
    expect(changes[0]).toBe('2026-12-24T16:00');
    expect(changes[1]).toBe(wallTimeNow(LA));
  });

  it('lists the value in the preview pane as the business\'s wall time', () => {
    const Preview = zonedDateTimePreview(LA);
    expect(renderToStaticMarkup(<Preview value="2026-11-21T02:30:00.000Z" />)).toBe('<span>November 20, 2026 at 6:30 PM</span>');
    expect(renderToStaticMarkup(<Preview value="2026-11-20T18:30" />)).toBe('<span>November 20, 2026 at 6:30 PM</span>');
  });
});
