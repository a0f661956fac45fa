/**
 * Leads per week for the last 12 weeks by the page they came from, and how many were booked: an
 * inline SVG (stacked bars, the booked count as a dark bar beside each), with a table of the same
 * figures for screen readers and anyone who would rather read numbers.
 */
import { useLayoutEffect, useRef } from 'react';
import type { WeekStats } from './model.js';

/** Series colours: each at least 3:1 against white (WCAG non-text contrast). */
const COLOURS = ['#137a70', '#3559b7', '#8a5d06', '#a23b72', '#64748b'];
const BOOKED_COLOUR = '#151b26';
const TOP_SOURCES = 4;
const OTHER = 'Other pages';

/** The busiest pages over the period get their own colour; the rest are summed as "Other pages". */
export function chartSeries(weeks: readonly WeekStats[]): string[] {
  const totals = new Map<string, number>();
  for (const week of weeks) for (const [source, n] of Object.entries(week.sources)) totals.set(source, (totals.get(source) ?? 0) + n);
  const sorted = [...totals].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([source]) => source);
  return sorted.length > TOP_SOURCES + 1 ? [...sorted.slice(0, TOP_SOURCES), OTHER] : sorted;
}

function weekValue(week: WeekStats, series: string, named: readonly string[]): number {
  if (series !== OTHER) return week.sources[series] ?? 0;
  return Object.entries(week.sources).filter(([source]) => !named.includes(source)).reduce((sum, [, n]) => sum + n, 0);
}

/** A legend's colour sample, drawn (a style attribute would need 'unsafe-inline' in the policy). */
const Swatch = ({ colour }: { colour: string }) => <svg className="swatch" width="12" height="12" aria-hidden="true"><rect width="12" height="12" rx="2" fill={colour} /></svg>;

const shortDate = (day: string) => new Date(`${day}T00:00:00Z`).toLocaleDateString(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' });

export function WeeksChart({ weeks }: { weeks: readonly WeekStats[] }) {
  const series = chartSeries(weeks);
  const named = series.filter((s) => s !== OTHER);
  const max = Math.max(1, ...weeks.map((w) => w.total));
  const width = 640;
  const height = 240;
  const left = 32;
  const bottom = 28;
  const top = 12;
  const plot = height - bottom - top;
  const slot = (width - left) / Math.max(1, weeks.length);
  const bar = Math.min(28, slot * 0.45);
  const y = (n: number) => top + plot - (n / max) * plot;
  const ticks = [...new Set([0, Math.round(max / 2), max])];
  const totalLeads = weeks.reduce((sum, w) => sum + w.total, 0);
  const totalBooked = weeks.reduce((sum, w) => sum + w.booked, 0);
  // On a phone the chart scrolls sideways: start at this week, the one the owner looks for.
  const scroller = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const el = scroller.current;
    if (el) el.scrollLeft = el.scrollWidth;
  }, [weeks]);

  return (
    <section aria-labelledby="chart-title" className="chart">
      <h2 id="chart-title">Leads per week, last 12 weeks</h2>
      <p className="muted">{totalLeads} leads, {totalBooked} booked. Bars show where the leads came from; the dark bar beside each is how many were booked.</p>
      <div ref={scroller} className="chart-scroll" tabIndex={0} role="group" aria-labelledby="chart-title">
        <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-labelledby="chart-svg-title">
          <title id="chart-svg-title">{`Leads per week by source page, and bookings: ${totalLeads} leads, ${totalBooked} booked in 12 weeks (the table below has every figure)`}</title>
          {ticks.map((t) => (
            <g key={t}>
              <line x1={left} x2={width} y1={y(t)} y2={y(t)} stroke="#dde2e8" />
              <text x={left - 6} y={y(t) + 4} textAnchor="end" fontSize="12" fill="#4b5768">{t}</text>
            </g>
          ))}
          {weeks.map((week, i) => {
            const x = left + i * slot + (slot - bar * 1.5) / 2;
            let stacked = 0;
            return (
              <g key={week.week}>
                {series.map((s, j) => {
                  const n = weekValue(week, s, named);
                  if (!n) return null;
                  const rect = <rect key={s} x={x} width={bar} y={y(stacked + n)} height={y(stacked) - y(stacked + n)} fill={COLOURS[j % COLOURS.length]} />;
                  stacked += n;
                  return rect;
                })}
                {week.booked > 0 && <rect x={x + bar + 2} width={bar / 2} y={y(week.booked)} height={y(0) - y(week.booked)} fill={BOOKED_COLOUR} />}
                {i % 2 === 0 && <text x={x + bar / 2} y={height - 8} textAnchor="middle" fontSize="12" fill="#4b5768">{shortDate(week.week)}</text>}
              </g>
            );
          })}
        </svg>
      </div>
      <ul className="legend">
        {series.map((s, j) => <li key={s}><Swatch colour={COLOURS[j % COLOURS.length]!} /><span>{s}</span></li>)}
        <li><Swatch colour={BOOKED_COLOUR} /><span>Booked</span></li>
      </ul>
      <details>
        <summary>The figures as a table</summary>
        <div className="table-scroll">
          <table>
            <caption className="visually-hidden">Leads per week by source page</caption>
            <thead>
              <tr><th scope="col">Week of</th><th scope="col">Leads</th><th scope="col">Booked</th>{series.map((s) => <th key={s} scope="col">{s}</th>)}</tr>
            </thead>
            <tbody>
              {weeks.map((week) => (
                <tr key={week.week}>
                  <th scope="row">{shortDate(week.week)}</th><td>{week.total}</td><td>{week.booked}</td>
                  {series.map((s) => <td key={s}>{weekValue(week, s, named)}</td>)}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </section>
  );
}
