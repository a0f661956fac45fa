/**
 * The inbox's view of a lead, as the database answers (public.inbox_leads, lead_events, inbox_stats:
 * supabase/migrations/20261124000000_lead_inbox.sql), and the small rules the screens share.
 */
import { LEAD_KINDS, isLeadKind, type LeadKind } from '../../supabase/functions/_shared/leadAddress.js';

export const LEAD_STATUSES = ['new', 'contacted', 'quoted', 'booked', 'lost', 'spam'] as const;
export type LeadStatus = (typeof LEAD_STATUSES)[number];

export const STATUS_LABELS: Record<LeadStatus, string> = {
  new: 'New', contacted: 'Contacted', quoted: 'Quoted', booked: 'Booked', lost: 'Lost', spam: 'Spam',
};

// The two kinds, as the lead's address names them (one source with the Telegram link).
export { LEAD_KINDS, isLeadKind, type LeadKind };

export const KIND_LABELS: Record<LeadKind, string> = { quote: 'Quote request', discount: 'Discount sign-up' };

export interface InboxLead {
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
  /** {via: 'telegram'} when a staff member acted from the office chat. */
  detail?: { via?: string } | null;
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
}

export const NO_FILTERS: LeadFilters = { status: '', kind: '', from: '', to: '', query: '' };

/** A lead's name as staff read it; a discount sign-up has none. */
export function leadName(lead: Pick<InboxLead, 'first_name' | 'last_name'>): string {
  return [lead.first_name, lead.last_name].filter(Boolean).join(' ');
}

/** The page that brought the lead: the same rule as inbox_stats' sources (the migration). */
export function leadSource(lead: Pick<InboxLead, 'kind' | 'page' | 'landing_path' | 'referrer_path'>): string {
  return lead.landing_path ?? lead.referrer_path ?? (lead.kind === 'discount' ? lead.page : '/contact');
}

export const isLeadStatus = (value: unknown): value is LeadStatus => (LEAD_STATUSES as readonly unknown[]).includes(value);
