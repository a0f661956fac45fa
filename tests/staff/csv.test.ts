import { describe, expect, it } from 'vitest';
import { csvCell, LEAD_CSV_HEADER, leadsCsv, toCsv } from '../../staff/inbox/csv.js';
import { conversionsCsv, conversionsFileName } from '../../staff/inbox/conversionsCsv.js';
import type { Conversion, InboxLead } from '../../staff/inbox/model.js';

/** RFC 4180 read back: records of fields, quotes undone (the test's own small parser). */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { field += '"'; i++; }
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') { record.push(field); field = ''; }
    else if (c === '\r' && text[i + 1] === '\n') { record.push(field); records.push(record); record = []; field = ''; i++; }
    else field += c;
  }
  expect(field, 'the text ends with CRLF').toBe('');
  return records;
}

describe('CSV export (RFC 4180, safe in a spreadsheet)', () => {
  it('ends every record with CRLF and quotes only the fields that need it, doubling quotes', () => {
    expect(toCsv([['a', 'b'], ['1', '2']])).toBe('a,b\r\n1,2\r\n');
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('line\nbreak')).toBe('"line\nbreak"');
    expect(csvCell('carriage\rreturn')).toBe('"carriage\rreturn"');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
    expect(csvCell(42)).toBe('42');
  });

  it.each(['=HYPERLINK("http://evil","x")', '+1 (408) 555-0100', '-2+3', '@SUM(A1)', '\tcmd', '\r=1'])('neutralises a cell a spreadsheet would run: %j', (value) => {
    const [[cell]] = parseCsv(toCsv([[value]])) as [[string]];
    expect(cell).toBe(`'${value}`);
  });

  it('leaves text that only contains those characters later alone', () => {
    expect(csvCell('a=b')).toBe('a=b');
    expect(csvCell('me@example.com')).toBe('me@example.com');
  });

  it('writes one record per lead under the header, and a hostile message survives a round trip', () => {
    const lead: InboxLead = {
      kind: 'quote', id: '0b7c8f1e-1111-4222-8333-944445555666', created_at: '2026-11-20T10:00:00.000Z', status: 'contacted',
      first_name: 'Ana', last_name: 'Lopez, "Jr"', email: 'ana@example.com', phone: '+1 408 555 0100',
      message: 'Two rooms,\r\nplease\n=cmd|"/c calc"!A1', page: 'contact', landing_path: '/locations/deep-cleaning-san-jose-ca', referrer_path: '/services',
      notified_at: null, notify_failed_at: null, first_response_at: '2026-11-20T12:00:00.000Z',
      booked_value: '450.00', first_channel: 'google_ads', last_channel: 'direct', channel: 'google_ads', campaign: '=spring', lang: 'en',
    };
    const discount: InboxLead = { ...lead, kind: 'discount', id: '1b7c8f1e-1111-4222-8333-944445555666', first_name: null, last_name: null, message: null, page: '/services', landing_path: null, referrer_path: null, status: 'new', first_response_at: null, booked_value: null, channel: null, campaign: null, lang: 'es' };
    const records = parseCsv(leadsCsv([lead, discount]));
    expect(records).toHaveLength(3);
    expect(records[0]).toEqual([...LEAD_CSV_HEADER]);
    expect(records[1]).toEqual(['Quote request', lead.created_at, 'Contacted', 'Ana', 'Lopez, "Jr"', 'ana@example.com', "'+1 408 555 0100",
      lead.message, '/locations/deep-cleaning-san-jose-ca', lead.first_response_at, '', lead.id, 'Google Ads', "'=spring", '450', 'English']);
    expect(records[2]!.slice(0, 3)).toEqual(['Discount sign-up', lead.created_at, 'New']);
    expect(records[2]![8]).toBe('/services');
    expect(records[2]!.slice(12)).toEqual(['Not recorded', '', '', 'Spanish']);
  });
});

describe('the offline conversion files', () => {
  const conversions: Conversion[] = [
    { kind: 'quote', id: '0b7c8f1e-1111-4222-8333-944445555666', click_id: 'Cj0KCQiA_x-Y1', booked_at: '2026-11-20T22:03:04.567Z', booked_value: '450.00' },
    { kind: 'discount', id: '1b7c8f1e-1111-4222-8333-944445555666', click_id: '-Cj0KCQ', booked_at: '2026-11-21T08:00:00Z', booked_value: null },
  ];

  it('Google Ads: the time zone row, its own column names, click id, name, time in UTC, value and currency', () => {
    const text = conversionsCsv('google_ads', 'Booked job', conversions);
    expect(text.split('\r\n').slice(0, 2)).toEqual(['Parameters:TimeZone=+0000', 'Google Click ID,Conversion Name,Conversion Time,Conversion Value,Conversion Currency']);
    expect(parseCsv(text).slice(2)).toEqual([
      ['Cj0KCQiA_x-Y1', 'Booked job', '2026-11-20 22:03:04', '450', 'USD'],
      // no value: the platform takes the conversion action's default; a leading - cannot start a formula
      ["'-Cj0KCQ", 'Booked job', '2026-11-21 08:00:00', '', ''],
    ]);
  });

  it('Microsoft Ads: its own click id column; a conversion name that looks like a formula is neutralised', () => {
    const records = parseCsv(conversionsCsv('microsoft_ads', '=HYPERLINK("x")', conversions.slice(0, 1)));
    expect(records[1]![0]).toBe('Microsoft Click ID');
    expect(records[2]).toEqual(['Cj0KCQiA_x-Y1', `'=HYPERLINK("x")`, '2026-11-20 22:03:04', '450', 'USD']);
    expect(conversionsFileName('microsoft_ads', new Date('2026-11-26T10:00:00Z'))).toBe('conversions-microsoft-ads-2026-11-26.csv');
  });
});
