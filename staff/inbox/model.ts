/**
 * The inbox's view of a lead, as the database answers (public.inbox_leads, lead_events, inbox_stats:
 * supabase/migrations/20261124000000_lead_inbox.sql), and the small rules the screens share.
 */
import { DEFAULT_LANGUAGE, LANGUAGE_NAMES, LANGUAGES, isLang, type Lang } from '../../supabase/functions/_shared/languages.js';
import { LEAD_KINDS, isLeadKind, type LeadKind } from '../../supabase/functions/_shared/leadAddress.js';
import type { AttributionColumns } from '../../supabase/functions/_shared/leadRules.js';

export const LEAD_STATUSES = ['new', 'contacted', 'quoted', 'booked', 'lost', 'spam'] as const;
export type LeadStatus = (typeof LEAD_STATUSES)[number];

export const STATUS_LABELS: Record<LeadStatus, string> = {
  new: 'New', contacted: 'Contacted', quoted: 'Quoted', booked: 'Booked', lost: 'Lost', spam: 'Spam',
};

// The two kinds, as the lead's address names them (one source with the Telegram link).
export { LEAD_KINDS, isLeadKind, type LeadKind };

export const KIND_LABELS: Record<LeadKind, string> = { quote: 'Quote request', discount: 'Discount sign-up' };

/**
 * The channels, in the order the filter lists them. Which lead gets which is the database's one
 * rule table (private.touch_channel in 20261126100000_lead_attribution.sql, whose lead_channel
 * domain lists the same keys); here are only their names.
 */
export const CHANNEL_LABELS = {
  google_ads: 'Google Ads',
  microsoft_ads: 'Microsoft Ads',
  meta_ads: 'Meta ads',
  google_business_profile: 'Google Business Profile',
  other_paid: 'Other paid',
  organic_search: 'Organic search',
  email: 'Email',
  other_campaign: 'Other campaigns',
  referral: 'Referral',
  direct: 'Direct',
} as const;
export type Channel = keyof typeof CHANNEL_LABELS;
export const CHANNELS = Object.keys(CHANNEL_LABELS) as Channel[];
/** A lead that came in before issue 31, or from a browser that blocks storage. */
export const NO_CHANNEL = 'none';
export const NO_CHANNEL_LABEL = 'Not recorded';
export const isChannel = (value: unknown): value is Channel => (CHANNELS as unknown[]).includes(value);
export const channelLabel = (channel: string | null): string => (isChannel(channel) ? CHANNEL_LABELS[channel] : NO_CHANNEL_LABEL);

/**
 * The languages a lead may be sent in, and their names, are the leads' one list
 * (supabase/functions/_shared/languages.ts); the office calls back in the lead's language.
 */
export { DEFAULT_LANGUAGE, LANGUAGES, isLang, type Lang };

/** A lead's language as staff read it: "Spanish"; a value the list does not know (none is stored) as it is. */
export const languageLabel = (lang: string | null | undefined): string => (isLang(lang) ? LANGUAGE_NAMES[lang] : lang ?? LANGUAGE_NAMES[DEFAULT_LANGUAGE]);

/** True when the office must call back in another language than the default (the list and the lead show it). */
export const otherLanguage = (lang: string | null | undefined): boolean => (lang ?? DEFAULT_LANGUAGE) !== DEFAULT_LANGUAGE;

export interface InboxLead extends AttributionColumns {
  kind: LeadKind;
  id: string;
  created_at: string;
  status: LeadStatus;
  first_name: string | null;
  last_name: string | null;
  email: string;
  phone: string;
  message: string | null;
  page: string;
  landing_path: string | null;
  referrer_path: string | null;
  notified_at: string | null;
  notify_failed_at: string | null;
  first_response_at: string | null;
  /** What the booked job is worth (USD), when staff said so. */
  booked_value: number | string | null;
  first_channel: Channel | null;
  last_channel: Channel | null;
  /** The last touch's channel and campaign, or the first's when the last visit came direct. */
  channel: Channel | null;
  campaign: string | null;
  /** The language it was sent in (migration 20261127000000). */
  lang: Lang;
}

export type LeadAction = 'status' | 'note' | 'deleted' | 'exported' | 'notify_failed';

export interface LeadEvent {
  id: number;
  at: string;
  lead_kind: LeadKind | null;
  lead_id: string | null;
  actor: string | null;
  actor_email: string | null;
  action: LeadAction;
  from_status: LeadStatus | null;
  to_status: LeadStatus | null;
  note: string | null;
  /** {via: 'telegram'} when a staff member acted from the office chat; a job value's change. */
  detail: { via?: string; booked_value?: number | string | null; previous_value?: number | string | null } | null;
}

/** One message about a lead for the office chat (public.lead_delivery, migration 20261126000000). */
export interface ChatDelivery {
  what: 'lead' | 'reminder' | 'taken';
  sentAt: string | null;
  attempts: number;
  nextAttemptAt: string | null;
  gaveUpAt: string | null;
  cancelledAt: string | null;
  lastError: string | null;
}

export interface WeekStats {
  /** Monday of the week, YYYY-MM-DD (UTC). */
  week: string;
  total: number;
  booked: number;
  /** Leads by the page they came from. */
  sources: Record<string, number>;
}

export interface InboxStats {
  new: number;
  dueSoon: number;
  overdue: number;
  medianResponseSeconds: number | null;
  notifyFailed: number;
  weeks: WeekStats[];
}

/** What the list is narrowed to; dates are the staff member's calendar days (YYYY-MM-DD). */
export interface LeadFilters {
  status: LeadStatus | '';
  kind: LeadKind | '';
  from: string;
  to: string;
  query: string;
  channel: Channel | typeof NO_CHANNEL | '';
  campaign: string;
  lang: Lang | '';
}

export const NO_FILTERS: LeadFilters = { status: '', kind: '', from: '', to: '', query: '', channel: '', campaign: '', lang: '' };

/** One row of the report (attribution_report): a channel, or a campaign within it. */
export interface ReportRow {
  channel: Channel | null;
  campaign?: string | null;
  leads: number;
  contacted: number;
  booked: number;
  medianResponseSeconds: number | null;
  bookedValue: number | string;
}
/** One row of the report's count by language (attribution_report's `languages`). */
export interface LanguageReportRow {
  lang: string;
  leads: number;
  contacted: number;
  booked: number;
  medianResponseSeconds: number | null;
  bookedValue: number | string;
}
/** `languages` is missing only from a database without migration 20261127000000. */
export interface AttributionReport { channels: ReportRow[]; campaigns: ReportRow[]; languages?: LanguageReportRow[] }

/** A booked job for an ad platform's offline conversion import (ad_conversions). */
export interface Conversion { kind: LeadKind; id: string; click_id: string; booked_at: string; booked_value: number | string | null }
export const AD_PLATFORMS = ['google_ads', 'microsoft_ads'] as const;
export type AdPlatform = (typeof AD_PLATFORMS)[number];

/** A lead's name as staff read it; a discount sign-up has none. */
export function leadName(lead: Pick<InboxLead, 'first_name' | 'last_name'>): string {
  return [lead.first_name, lead.last_name].filter(Boolean).join(' ');
}

/** The page that brought the lead: the same rule as inbox_stats' sources (the migration). */
export function leadSource(lead: Pick<InboxLead, 'kind' | 'page' | 'landing_path' | 'referrer_path'>): string {
  return lead.landing_path ?? lead.referrer_path ?? (lead.kind === 'discount' ? lead.page : '/contact');
}

export const isLeadStatus = (value: unknown): value is LeadStatus => (LEAD_STATUSES as readonly unknown[]).includes(value);

/** The signed-in member's Telegram link (public.telegram_link_status). */
export type TelegramLinkStatus = { linked: false } | { linked: true; displayName: string; linkedAt: string };

/** A one-time code to send to the office bot (public.telegram_link_code). */
export interface TelegramLinkCode {
  code: string;
  expiresAt: string;
}
