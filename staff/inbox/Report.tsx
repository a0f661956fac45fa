/**
 * Which marketing brings booked jobs (issue 31): for the leads that came in between two days, per
 * channel and per campaign, how many leads, how many were contacted and booked, the booking rate,
 * the median first response and what the booked jobs are worth; the same per language the leads
 * were sent in; and the booked jobs of those days for the ad platforms' offline conversion import.
 */
import { useEffect, useState, type ReactNode } from 'react';
import type { InboxApi } from './api.js';
import { ConversionExport } from './ConversionExport.js';
import { channelLabel, languageLabel, type AttributionReport, type LanguageReportRow, type ReportRow } from './model.js';
import { formatMoney } from './money.js';
import { formatDuration } from './time.js';

/** YYYY-MM-DD of the staff member's own calendar, `days` before today. */
function dayBefore(days: number, today = new Date()): string {
  const d = new Date(today.getFullYear(), today.getMonth(), today.getDate() - days);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

type Counts = Pick<ReportRow, 'leads' | 'contacted' | 'booked' | 'medianResponseSeconds' | 'bookedValue'>;

const rate = (row: Counts) => (row.leads ? `${Math.round((row.booked / row.leads) * 100)}%` : '—');

/** A row's figures after its name (and campaign): the same columns in every table. */
function CountCells({ row }: { row: Counts }) {
  return (
    <>
      <td>{row.leads}</td><td>{row.contacted}</td><td>{row.booked}</td><td>{rate(row)}</td>
      <td>{row.medianResponseSeconds === null ? '—' : formatDuration(row.medianResponseSeconds)}</td>
      <td>{formatMoney(row.bookedValue)}</td>
    </>
  );
}

function Rows({ rows, campaign }: { rows: ReportRow[]; campaign?: boolean }) {
  return (
    <tbody>
      {rows.map((row) => (
        <tr key={`${row.channel}/${row.campaign ?? ''}`}>
          <th scope="row">{channelLabel(row.channel)}</th>
          {campaign && <td className="text">{row.campaign ?? <span className="muted">none</span>}</td>}
          <CountCells row={row} />
        </tr>
      ))}
    </tbody>
  );
}

function LanguageRows({ rows }: { rows: LanguageReportRow[] }) {
  return (
    <tbody>
      {rows.map((row) => (
        <tr key={row.lang}>
          <th scope="row">{languageLabel(row.lang)}</th>
          <CountCells row={row} />
        </tr>
      ))}
    </tbody>
  );
}

function Table({ caption, first = 'Channel', campaign, children }: { caption: string; first?: string; campaign?: boolean; children: ReactNode }) {
  return (
    <div className="table-scroll" tabIndex={0} role="group" aria-label={caption}>
      <table>
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{first}</th>{campaign && <th scope="col" className="text">Campaign</th>}<th scope="col">Leads</th><th scope="col">Contacted</th>
            <th scope="col">Booked</th><th scope="col">Booking rate</th><th scope="col">Median first response</th><th scope="col">Booked value</th>
          </tr>
        </thead>
        {children}
      </table>
    </div>
  );
}

export function Report({ api, changed, onMessage }: { api: InboxApi; changed: unknown; onMessage: (text: string) => void }) {
  const [from, setFrom] = useState(() => dayBefore(29));
  const [to, setTo] = useState(() => dayBefore(0));
  const [report, setReport] = useState<AttributionReport>();
  const [error, setError] = useState<string>();

  useEffect(() => {
    let current = true;
    setError(undefined);
    api.report(from, to).then((r) => current && setReport(r), (err: unknown) => current && setError((err as Error).message));
    return () => { current = false; };
  }, [api, from, to, changed]);

  return (
    <section aria-labelledby="report-title" className="report">
      <h2 id="report-title">Marketing report</h2>
      <p className="muted">Leads that came in between these days, by the channel and campaign that brought them and the language they were sent in.</p>
      <div className="report-range">
        <div className="field">
          <label htmlFor="report-from">From</label>
          <input id="report-from" type="date" value={from} max={to || undefined} onChange={(e) => setFrom(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="report-to">To</label>
          <input id="report-to" type="date" value={to} min={from || undefined} onChange={(e) => setTo(e.target.value)} />
        </div>
      </div>
      {error && <p className="form-error" role="alert">{error}</p>}
      {report && (report.channels.length === 0 ? <p className="empty">No leads in these days.</p> : (
        <>
          <Table caption="By channel"><Rows rows={report.channels} /></Table>
          <Table caption="By campaign" campaign><Rows rows={report.campaigns} campaign /></Table>
          {report.languages && <Table caption="By language" first="Language"><LanguageRows rows={report.languages} /></Table>}
        </>
      ))}
      <ConversionExport api={api} from={from} to={to} onMessage={onMessage} />
    </section>
  );
}
