import { useId } from 'react';
import { LEAD_STATUSES, STATUS_LABELS, isLeadStatus, type InboxLead, type LeadStatus } from './model.js';

/** The status of a lead in the list, changed with one choice (no note; the lead's view takes one). */
export function StatusSelect({ lead, name, onStatus }: { lead: InboxLead; name: string; onStatus: (lead: InboxLead, status: LeadStatus) => void }) {
  const id = useId();
  return (
    <div className="status-select">
      <label htmlFor={id}>Status<span className="visually-hidden"> of {name}</span></label>
      <select id={id} value={lead.status} className={`status status-${lead.status}`}
        onChange={(event) => isLeadStatus(event.target.value) && onStatus(lead, event.target.value)}>
        {LEAD_STATUSES.map((status) => <option key={status} value={status}>{STATUS_LABELS[status]}</option>)}
      </select>
    </div>
  );
}
