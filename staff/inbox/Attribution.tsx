/**
 * Where a lead came from, for its view: its channel and campaign, and each touch (the first, and
 * the last when it differs) with its source, medium, campaign, term, click id, referring site and
 * landing page. Entries of the lead's <dl>.
 */
import { CLICK_IDS, type Touch } from '../../supabase/functions/_shared/leadLimits.js';
import { channelLabel, type InboxLead } from './model.js';
import { when } from './time.js';


/** One touch in words: "google / cpc · spring-deep-clean · gclid Cj0… · from www.google.com to /locations/…". */
export function touchText(lead: InboxLead, touch: Touch): string {
  const field = (name: string) => lead[`${touch}_${name}` as keyof InboxLead] as string | null | undefined;
  const parts = [
    [field('utm_source'), field('utm_medium')].filter(Boolean).join(' / '),
    field('utm_campaign'), field('utm_term') && `term "${field('utm_term')}"`, field('utm_content') && `ad ${field('utm_content')}`,
    ...CLICK_IDS.map((id) => field(id) && `${id} ${field(id)}`),
    field('referrer_host') && `from ${field('referrer_host')}`,
    field('landing_path') && `landed on ${field('landing_path')}`,
    field('touch_at') && when(field('touch_at')!),
  ];
  return parts.filter(Boolean).join(' · ');
}

export function AttributionDetails({ lead }: { lead: InboxLead }) {
  const first = touchText(lead, 'first');
  const last = touchText(lead, 'last');
  const same = first === last;
  return (
    <>
      <dt>Channel</dt>
      <dd>{channelLabel(lead.channel)}{lead.campaign && <> · campaign <span className="path">{lead.campaign}</span></>}</dd>
      {first && <><dt>{same ? 'First and last visit' : 'First visit'}</dt><dd className="touch">{channelLabel(lead.first_channel)}: {first}</dd></>}
      {last && !same && <><dt>Last visit</dt><dd className="touch">{channelLabel(lead.last_channel)}: {last}</dd></>}
    </>
  );
}
