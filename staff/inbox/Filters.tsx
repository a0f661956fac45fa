/** Narrowing the list: status, kind, language, channel and campaign, a date range, and a search of name, email, phone and message. */
import { useEffect, useState, type FormEvent } from 'react';
import { ChannelFilter } from './ChannelFilter.js';
import { KIND_LABELS, LANGUAGES, LEAD_KINDS, LEAD_STATUSES, NO_FILTERS, STATUS_LABELS, isLang, isLeadKind, isLeadStatus, languageLabel, type LeadFilters } from './model.js';

export function Filters({ filters, onChange }: { filters: LeadFilters; onChange: (filters: LeadFilters) => void }) {
  const [query, setQuery] = useState(filters.query);
  const [campaign, setCampaign] = useState(filters.campaign);
  useEffect(() => setQuery(filters.query), [filters.query]);
  useEffect(() => setCampaign(filters.campaign), [filters.campaign]);
  const set = (patch: Partial<LeadFilters>) => onChange({ ...filters, ...patch });
  // Typed text (the search, the campaign) applies with Search or Enter; the choices at once.
  const search = (event: FormEvent) => {
    event.preventDefault();
    set({ query, campaign });
  };
  const active = JSON.stringify(filters) !== JSON.stringify(NO_FILTERS);
  return (
    <form role="search" className="filters" onSubmit={search} aria-label="Filter the leads">
      <div className="field search">
        <label htmlFor="filter-query">Search name, email, phone or message</label>
        <div className="search-row">
          <input id="filter-query" type="search" value={query} maxLength={200} onChange={(e) => setQuery(e.target.value)} />
          <button type="submit" className="button">Search</button>
        </div>
      </div>
      <div className="field">
        <label htmlFor="filter-status">Status</label>
        <select id="filter-status" value={filters.status} onChange={(e) => set({ status: isLeadStatus(e.target.value) ? e.target.value : '' })}>
          <option value="">All</option>
          {LEAD_STATUSES.map((s) => <option key={s} value={s}>{STATUS_LABELS[s]}</option>)}
        </select>
      </div>
      <div className="field">
        <label htmlFor="filter-kind">Kind</label>
        <select id="filter-kind" value={filters.kind} onChange={(e) => set({ kind: isLeadKind(e.target.value) ? e.target.value : '' })}>
          <option value="">All</option>
          {LEAD_KINDS.map((k) => <option key={k} value={k}>{KIND_LABELS[k]}</option>)}
        </select>
      </div>
      <div className="field">
        <label htmlFor="filter-lang">Language</label>
        <select id="filter-lang" value={filters.lang} onChange={(e) => set({ lang: isLang(e.target.value) ? e.target.value : '' })}>
          <option value="">All</option>
          {LANGUAGES.map((l) => <option key={l} value={l}>{languageLabel(l)}</option>)}
        </select>
      </div>
      <ChannelFilter channel={filters.channel} onChannel={(channel) => set({ channel })} campaign={campaign} onCampaign={setCampaign} />
      <div className="field">
        <label htmlFor="filter-from">From</label>
        <input id="filter-from" type="date" value={filters.from} max={filters.to || undefined} onChange={(e) => set({ from: e.target.value })} />
      </div>
      <div className="field">
        <label htmlFor="filter-to">To</label>
        <input id="filter-to" type="date" value={filters.to} min={filters.from || undefined} onChange={(e) => set({ to: e.target.value })} />
      </div>
      {active && <button type="button" className="button link clear" onClick={() => onChange(NO_FILTERS)}>Clear filters</button>}
    </form>
  );
}
