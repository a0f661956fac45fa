/** The 24-hour promise in figures: leads still new, due soon, overdue, the median first response. */
import type { InboxStats } from './model.js';
import { DUE_SOON_HOURS, OVERDUE_HOURS, formatDuration } from './time.js';

export function Figures({ stats }: { stats: InboxStats }) {
  return (
    <section aria-labelledby="figures-title" className="figures">
      <h2 id="figures-title" className="visually-hidden">The 24-hour promise</h2>
      <dl>
        <div className="figure"><dt>New leads</dt><dd>{stats.new}</dd></div>
        <div className={`figure ${stats.dueSoon ? 'due-soon' : ''}`}><dt>Due soon (past {DUE_SOON_HOURS} h)</dt><dd>{stats.dueSoon}</dd></div>
        <div className={`figure ${stats.overdue ? 'overdue' : ''}`}><dt>Overdue (past {OVERDUE_HOURS} h)</dt><dd>{stats.overdue}</dd></div>
        <div className="figure"><dt>Median first response, 30 days</dt><dd>{stats.medianResponseSeconds === null ? '—' : formatDuration(stats.medianResponseSeconds)}</dd></div>
        {stats.notifyFailed > 0 && <div className="figure failed"><dt>Telegram messages failed</dt><dd>{stats.notifyFailed}</dd></div>}
      </dl>
    </section>
  );
}
