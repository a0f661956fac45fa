/** One lead in the list: kind, language, name, contact, source page, channel and campaign, how long ago, its promise and its status. */
import { channelLabel, KIND_LABELS, languageLabel, leadName, leadSource, otherLanguage, type InboxLead, type LeadStatus } from './model.js';
import { leadHash } from './route.js';
import { StatusSelect } from './StatusSelect.js';
import { formatDuration, promiseState, responseSeconds, timeAgo } from './time.js';

export function PromiseBadge({ lead, now }: { lead: InboxLead; now: Date }) {
  const state = promiseState(lead, now);
  if (state === 'overdue') return <span className="badge overdue">Overdue: past 24 h</span>;
  if (state === 'dueSoon') return <span className="badge due-soon">Due soon: past 20 h</span>;
  const seconds = responseSeconds(lead);
  return seconds === undefined ? null : <span className="badge answered">Answered in {formatDuration(seconds)}</span>;
}

/**
 * The language to call back in, for a lead in another language than the default (an English lead
 * shows none, as before): "Spanish", beside the lead's kind, so nobody calls without a speaker.
 */
export function LanguageBadge({ lang }: { lang: string | null | undefined }) {
  if (!otherLanguage(lang)) return null;
  return <span className="badge lang">{languageLabel(lang)}<span className="visually-hidden">: call back in {languageLabel(lang)}</span></span>;
}

export function LeadRow({ lead, now, onStatus }: { lead: InboxLead; now: Date; onStatus: (lead: InboxLead, status: LeadStatus) => void }) {
  const name = leadName(lead) || lead.email;
  const state = promiseState(lead, now);
  return (
    <li className={`lead-row ${state ?? ''}`}>
      <div className="lead-main">
        <p className="lead-meta">
          <span className={`kind kind-${lead.kind}`}>{KIND_LABELS[lead.kind]}</span>
          <LanguageBadge lang={lead.lang} />
          <time dateTime={lead.created_at} title={new Date(lead.created_at).toLocaleString()}>{timeAgo(new Date(lead.created_at), now)}</time>
        </p>
        <h3 className="lead-name"><a href={leadHash(lead)}>{name}</a></h3>
        <p className="lead-contact">
          <a href={`mailto:${lead.email}`}>{lead.email}</a>
          <a href={`tel:${lead.phone.replace(/[^\d+]/g, '')}`}>{lead.phone}</a>
        </p>
        <p className="lead-source">From <span className="path">{leadSource(lead)}</span></p>
        <p className="lead-channel">{channelLabel(lead.channel)}{lead.campaign && <> · <span className="path">{lead.campaign}</span></>}</p>
        <p className="lead-flags">
          <PromiseBadge lead={lead} now={now} />
          {lead.notify_failed_at && <span className="badge failed">Telegram message failed</span>}
        </p>
      </div>
      <StatusSelect lead={lead} name={name} onStatus={onStatus} />
    </li>
  );
}
