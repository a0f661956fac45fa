/**
 * The signed-in inbox: the 24-hour figures, the filtered list (paged, newest first), the marketing
 * report, the weekly chart, the exports, and the lead opened from its address.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { PAGE_SIZE, type InboxApi } from './api.js';
import { leadsCsv } from './csv.js';
import { download } from './download.js';
import { Figures } from './Figures.js';
import { Filters } from './Filters.js';
import { LeadPanel } from './LeadPanel.js';
import { LeadRow } from './LeadRow.js';
import { NO_FILTERS, STATUS_LABELS, type InboxLead, type InboxStats, type LeadFilters, type LeadStatus } from './model.js';
import { Report } from './Report.js';
import { parseLeadHash, type LeadRef } from './route.js';
import { TelegramLink } from './TelegramLink.js';
import { useNow } from './useNow.js';
import { WeeksChart } from './WeeksChart.js';

function useLeadRoute(): [LeadRef | undefined, () => void] {
  const [route, setRoute] = useState(() => parseLeadHash(location.hash));
  useEffect(() => {
    const onHash = () => setRoute(parseLeadHash(location.hash));
    addEventListener('hashchange', onHash);
    return () => removeEventListener('hashchange', onHash);
  }, []);
  const close = useCallback(() => {
    history.replaceState(null, '', location.pathname + location.search);
    setRoute(undefined);
  }, []);
  return [route, close];
}

export function Inbox({ api, email, onSignOut }: { api: InboxApi; email: string; onSignOut: () => void }) {
  const now = useNow();
  const [filters, setFilters] = useState<LeadFilters>(NO_FILTERS);
  const [leads, setLeads] = useState<InboxLead[]>([]);
  const [total, setTotal] = useState<number>();
  const [stats, setStats] = useState<InboxStats>();
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string>();
  const [message, setMessage] = useState('');
  const [exporting, setExporting] = useState(false);
  const [route, closeLead] = useLeadRoute();
  // Answers to an older filter that arrive late are dropped.
  const generation = useRef(0);
  const listHeading = useRef<HTMLHeadingElement>(null);

  const fail = (err: unknown) => setError(err instanceof Error ? err.message : String(err));
  const refreshStats = useCallback(() => api.stats().then(setStats, fail), [api]);

  const reload = useCallback(async (wanted: LeadFilters) => {
    const mine = ++generation.current;
    setLoading(true);
    setError(undefined);
    try {
      const [page, count] = await Promise.all([api.searchLeads(wanted, 0), api.countLeads(wanted)]);
      if (mine !== generation.current) return;
      setLeads(page);
      setTotal(count);
    } catch (err) {
      if (mine === generation.current) fail(err);
    } finally {
      if (mine === generation.current) setLoading(false);
    }
  }, [api]);

  useEffect(() => { void reload(filters); }, [filters, reload]);
  useEffect(() => { void refreshStats(); }, [refreshStats]);

  async function loadMore() {
    const mine = generation.current;
    setLoading(true);
    try {
      const page = await api.searchLeads(filters, leads.length);
      if (mine === generation.current) setLeads((old) => [...old, ...page]);
    } catch (err) {
      fail(err);
    } finally {
      setLoading(false);
    }
  }

  const replaceLead = (lead: InboxLead) => setLeads((old) => old.map((l) => (l.kind === lead.kind && l.id === lead.id ? lead : l)));

  async function changeStatus(lead: InboxLead, status: LeadStatus) {
    setError(undefined);
    try {
      replaceLead(await api.setStatus(lead.kind, lead.id, status, ''));
      setMessage(`Marked ${STATUS_LABELS[status]}`);
      void refreshStats();
    } catch (err) {
      fail(err);
    }
  }

  async function exportCsv() {
    setExporting(true);
    setError(undefined);
    try {
      const all = await api.allLeads(filters);
      download(`leads-${new Date().toISOString().slice(0, 10)}.csv`, leadsCsv(all));
      await api.logExport(all.length, filters);
      setMessage(`Exported ${all.length} ${all.length === 1 ? 'lead' : 'leads'}`);
    } catch (err) {
      fail(err);
    } finally {
      setExporting(false);
    }
  }

  return (
    <>
      <header className="topbar">
        <h1>Lead inbox</h1>
        <p className="who"><span className="visually-hidden">Signed in as </span>{email}</p>
        <button type="button" className="button" onClick={onSignOut}>Sign out</button>
      </header>
      <main className="inbox">
        <p className="visually-hidden" role="status" aria-live="polite">{message}</p>
        {stats && <Figures stats={stats} />}
        {error && <p className="form-error banner" role="alert">{error}</p>}
        <section aria-labelledby="list-title" className="list">
          <div className="list-head">
            <h2 id="list-title" ref={listHeading} tabIndex={-1}>Leads{total !== undefined && <span className="count"> ({total})</span>}</h2>
            <button type="button" className="button" onClick={exportCsv} disabled={exporting || !total}>{exporting ? 'Exporting…' : 'Export CSV'}</button>
          </div>
          <Filters filters={filters} onChange={setFilters} />
          {!loading && leads.length === 0 && <p className="empty">No leads match.</p>}
          <ul className="leads" aria-busy={loading}>
            {leads.map((lead) => <LeadRow key={`${lead.kind}/${lead.id}`} lead={lead} now={now} onStatus={changeStatus} />)}
          </ul>
          {total !== undefined && leads.length < total && (
            <button type="button" className="button more" onClick={loadMore} disabled={loading}>
              {loading ? 'Loading…' : `Load more (${Math.min(PAGE_SIZE, total - leads.length)} of ${total - leads.length} left)`}
            </button>
          )}
        </section>
        <Report api={api} changed={stats} onMessage={setMessage} />
        {stats && <WeeksChart weeks={stats.weeks} />}
        <TelegramLink api={api} />
      </main>
      {route && (
        <LeadPanel key={`${route.kind}/${route.id}`} api={api} leadRef={route} now={now} onClose={closeLead}
          onChanged={(lead, text) => { replaceLead(lead); setMessage(text); void refreshStats(); }}
          onDeleted={(text) => {
            closeLead();
            setMessage(text);
            listHeading.current?.focus();
            void reload(filters);
            void refreshStats();
          }} />
      )}
    </>
  );
}
