/**
 * One lead opened (/leads#lead/<kind>/<id>): tap-to-call, email, its details, the status changed
 * with one tap and an optional note, its history (who changed what, when, with which note), and
 * deleting it for good after a confirmation.
 */
import { useEffect, useId, useState } from 'react';
import type { InboxApi } from './api.js';
import { AttributionDetails } from './Attribution.js';
import { Dialog } from './Dialog.js';
import { JobValueInput, parseJobValue } from './JobValue.js';
import { LanguageBadge, PromiseBadge } from './LeadRow.js';
import { KIND_LABELS, LEAD_STATUSES, STATUS_LABELS, languageLabel, leadName, leadSource, otherLanguage, type ChatDelivery, type InboxLead, type LeadEvent, type LeadStatus } from './model.js';
import type { LeadRef } from './route.js';
import { formatMoney } from './money.js';
import { formatDuration, responseSeconds, when } from './time.js';


/** Where the lead's announcement in the office chat stands, in staff's words. */
export function chatState(delivery: ChatDelivery[]): string {
  const message = delivery.find((d) => d.what === 'lead');
  if (!message) return 'Not announced (sent before the office chat was set up)';
  if (message.sentAt) {
    const reminder = delivery.find((d) => d.what === 'reminder' && d.sentAt);
    return `Sent ${when(message.sentAt)}${reminder?.sentAt ? `; reminder sent ${when(reminder.sentAt)}` : ''}`;
  }
  if (message.gaveUpAt) return `Telegram message failed: stopped trying ${when(message.gaveUpAt)}${message.lastError ? ` (${message.lastError})` : ''}`;
  if (message.attempts === 0) return 'Waiting to be sent';
  return `Not sent yet: ${message.attempts} ${message.attempts === 1 ? 'try' : 'tries'}${message.nextAttemptAt ? `, next ${when(message.nextAttemptAt)}` : ''}${message.lastError ? ` (${message.lastError})` : ''}`;
}

function describe(event: LeadEvent): string {
  switch (event.action) {
    case 'status': return `Status ${event.from_status ? STATUS_LABELS[event.from_status] ?? event.from_status : '—'} → ${event.to_status ? STATUS_LABELS[event.to_status] ?? event.to_status : '—'}${event.detail?.via === 'telegram' ? ' (from Telegram)' : ''}`;
    case 'note': return event.detail?.booked_value != null ? `Job value ${formatMoney(event.detail.booked_value)}` : 'Note';
    case 'notify_failed': return 'Telegram message failed';
    case 'exported': return 'Exported';
    case 'deleted': return 'Deleted';
  }
}

export function LeadPanel({ api, leadRef, now, onClose, onChanged, onDeleted }: {
  api: InboxApi; leadRef: LeadRef; now: Date; onClose: () => void; onChanged: (lead: InboxLead, message: string) => void; onDeleted: (message: string) => void;
}) {
  const [lead, setLead] = useState<InboxLead | null>();
  const [events, setEvents] = useState<LeadEvent[]>([]);
  const [delivery, setDelivery] = useState<ChatDelivery[]>();
  const [note, setNote] = useState('');
  const [value, setValue] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const noteId = useId();

  async function load() {
    const [found, history, chat] = await Promise.all([
      api.lead(leadRef.kind, leadRef.id), api.history(leadRef.kind, leadRef.id), api.delivery(leadRef.kind, leadRef.id).catch(() => undefined),
    ]);
    setLead(found ?? null);
    setEvents(history);
    setDelivery(chat);
  }
  useEffect(() => {
    setLead(undefined);
    load().catch((err: unknown) => setError(String((err as Error).message ?? err)));
  }, [leadRef.kind, leadRef.id]);

  async function save(status: LeadStatus | null) {
    if (!lead) return;
    setBusy(true);
    setError(undefined);
    try {
      const updated = await api.setStatus(lead.kind, lead.id, status, note, parseJobValue(value));
      setNote('');
      setValue('');
      await load();
      onChanged(updated ?? lead, status ? `Marked ${STATUS_LABELS[status]}` : 'Note saved');
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  }

  async function remove() {
    if (!lead) return;
    setBusy(true);
    try {
      await api.deleteLead(lead.kind, lead.id);
      onDeleted(`Deleted the lead of ${leadName(lead) || lead.email}`);
    } catch (err) {
      setError((err as Error).message);
      setConfirming(false);
    } finally {
      setBusy(false);
    }
  }

  const title = lead ? leadName(lead) || lead.email : lead === null ? 'Lead not found' : 'Loading lead…';
  const seconds = lead ? responseSeconds(lead) : undefined;
  return (
    <Dialog title={title} onClose={onClose} className="lead-panel">
      {lead === null && <p>This lead does not exist any more (it may have been deleted), or this account may not see it.</p>}
      {error && <p className="form-error" role="alert">{error}</p>}
      {lead && (
        <>
          <p className="lead-meta">
            <span className={`kind kind-${lead.kind}`}>{KIND_LABELS[lead.kind]}</span>
            <LanguageBadge lang={lead.lang} />
            <span>received {when(lead.created_at)}</span>
          </p>
          <p className="lead-flags">
            <PromiseBadge lead={lead} now={now} />
            {lead.notify_failed_at && <span className="badge failed">Telegram message failed {when(lead.notify_failed_at)}</span>}
          </p>
          <div className="contact-actions">
            <a className="button primary" href={`tel:${lead.phone.replace(/[^\d+]/g, '')}`}>Call {lead.phone}</a>
            <a className="button" href={`mailto:${lead.email}`}>Email {lead.email}</a>
          </div>
          <dl className="details">
            <dt>Language</dt><dd>{otherLanguage(lead.lang) ? `${languageLabel(lead.lang)}: call back in ${languageLabel(lead.lang)}` : languageLabel(lead.lang)}</dd>
            {lead.message !== null && <><dt>Message</dt><dd className="message">{lead.message}</dd></>}
            <dt>Source page</dt><dd className="path">{leadSource(lead)}</dd>
            {lead.referrer_path && lead.landing_path && <><dt>Came to the form from</dt><dd className="path">{lead.referrer_path}</dd></>}
            <AttributionDetails lead={lead} />
            {lead.booked_value !== null && <><dt>Job value</dt><dd>{formatMoney(lead.booked_value)}</dd></>}
            <dt>First response</dt><dd>{seconds === undefined ? 'Not yet' : `${formatDuration(seconds)} after it came in`}</dd>
            {delivery && <><dt>Office chat</dt><dd>{chatState(delivery)}</dd></>}
          </dl>

          <section aria-labelledby={`${noteId}-status`} className="status-editor">
            <h3 id={`${noteId}-status`}>Status: {STATUS_LABELS[lead.status]}</h3>
            <JobValueInput value={value} onChange={setValue} />
            <label htmlFor={noteId}>Note (optional, saved with the change)</label>
            <textarea id={noteId} value={note} maxLength={2000} rows={2} onChange={(e) => setNote(e.target.value)} />
            <div className="chips" role="group" aria-label="Change the status">
              {LEAD_STATUSES.map((status) => (
                <button key={status} type="button" className={`chip status-${status}`} aria-pressed={lead.status === status} disabled={busy || (status === lead.status && !note.trim() && parseJobValue(value) === null)}
                  onClick={() => save(status === lead.status ? null : status)}>
                  {STATUS_LABELS[status]}
                </button>
              ))}
              <button type="button" className="button" disabled={busy || (!note.trim() && parseJobValue(value) === null)} onClick={() => save(null)}>Save note only</button>
            </div>
          </section>

          <section aria-labelledby={`${noteId}-history`}>
            <h3 id={`${noteId}-history`}>History</h3>
            {events.length === 0 ? <p>No changes yet.</p> : (
              <ol className="history">
                {events.map((event) => (
                  <li key={event.id}>
                    <p><strong>{describe(event)}</strong> <span className="muted">by {event.actor_email ?? 'the system'}, <time dateTime={event.at}>{when(event.at)}</time></span></p>
                    {event.note && <p className="note">{event.note}</p>}
                  </li>
                ))}
              </ol>
            )}
          </section>

          <div className="danger-zone">
            <button type="button" className="button danger" onClick={() => setConfirming(true)}>Delete this lead for good…</button>
          </div>
          {confirming && (
            <Dialog title="Delete this lead for good?" role="alertdialog" onClose={() => setConfirming(false)} className="confirm">
              <p>The lead of <strong>{leadName(lead) || lead.email}</strong> and the notes on it are removed and cannot be brought back. The history keeps only that a lead was deleted, by whom and when. Do this when the person asked for their data to be deleted.</p>
              <div className="dialog-actions">
                <button type="button" className="button" onClick={() => setConfirming(false)} autoFocus>Keep it</button>
                <button type="button" className="button danger" disabled={busy} onClick={remove}>Delete for good</button>
              </div>
            </Dialog>
          )}
        </>
      )}
    </Dialog>
  );
}
