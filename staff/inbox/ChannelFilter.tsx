/** Narrowing the list by the marketing that brought the lead: its channel and its campaign. */
import { CHANNEL_LABELS, CHANNELS, isChannel, NO_CHANNEL, NO_CHANNEL_LABEL, type LeadFilters } from './model.js';

export function ChannelFilter({ channel, onChannel, campaign, onCampaign }: {
  channel: LeadFilters['channel']; onChannel: (channel: LeadFilters['channel']) => void; campaign: string; onCampaign: (campaign: string) => void;
}) {
  return (
    <>
      <div className="field">
        <label htmlFor="filter-channel">Channel</label>
        <select id="filter-channel" value={channel}
          onChange={(e) => onChannel(isChannel(e.target.value) ? e.target.value : e.target.value === NO_CHANNEL ? NO_CHANNEL : '')}>
          <option value="">All</option>
          {CHANNELS.map((c) => <option key={c} value={c}>{CHANNEL_LABELS[c]}</option>)}
          <option value={NO_CHANNEL}>{NO_CHANNEL_LABEL}</option>
        </select>
      </div>
      <div className="field">
        <label htmlFor="filter-campaign">Campaign</label>
        <input id="filter-campaign" type="search" value={campaign} maxLength={200} onChange={(e) => onCampaign(e.target.value)} />
      </div>
    </>
  );
}
