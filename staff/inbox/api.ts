/**
 * Everything the inbox asks the database, through supabase-js with the signed-in staff member's
 * session: the RPCs of the inbox migration (paged: a list is never "select everything"), the
 * history, and deleting a lead. Row-level security decides what comes back; nothing is checked here.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import type { AdPlatform, AttributionReport, ChatDelivery, Conversion, InboxLead, InboxStats, LeadEvent, LeadFilters, LeadKind, LeadStatus, TelegramLinkCode, TelegramLinkStatus } from './model.js';
import { dayEnd, dayStart } from './time.js';

export const PAGE_SIZE = 50;
/** The most rows search_leads returns at once (its p_limit check in the migration). */
export const MAX_PAGE = 200;

/** An answer the database refused, with the message staff should read. */
export class InboxError extends Error {}

function check<T>(result: { data: T; error: { message: string; code?: string } | null }, what: string): T {
  if (result.error) {
    // 42501: insufficient privilege; the database says so when the account is not staff at aal2.
    if (result.error.code === '42501') throw new InboxError(`${what}: this account may not read the inbox. Ask the owner to add you as staff.`);
    throw new InboxError(`${what}: ${result.error.message}`);
  }
  return result.data;
}

const trimmed = (value: string) => value.trim() || null;

/** The filters as the RPCs take them (search_leads and count_leads share them). */
export function filterParams(filters: LeadFilters) {
  return {
    p_status: filters.status || null,
    p_kind: filters.kind || null,
    ...rangeParams(filters.from, filters.to),
    p_query: trimmed(filters.query),
    p_channel: filters.channel || null,
    p_campaign: trimmed(filters.campaign),
    p_lang: filters.lang || null,
  };
}

/** A date range of calendar days (YYYY-MM-DD, either may be empty) as the RPCs take it. */
export function rangeParams(from: string, to: string) {
  return { p_from: dayStart(from) ?? null, p_to: dayEnd(to) ?? null };
}

export function inboxApi(supabase: SupabaseClient) {
  return {
    async searchLeads(filters: LeadFilters, offset: number, limit = PAGE_SIZE): Promise<InboxLead[]> {
      return check(await supabase.rpc('search_leads', { ...filterParams(filters), p_limit: limit, p_offset: offset }), 'Loading leads') as InboxLead[];
    },
    async countLeads(filters: LeadFilters): Promise<number> {
      return Number(check(await supabase.rpc('count_leads', filterParams(filters)), 'Counting leads'));
    },
    async stats(): Promise<InboxStats> {
      return check(await supabase.rpc('inbox_stats'), 'Loading the figures') as InboxStats;
    },
    /** A status change with an optional note and job value, or (status null) a note or a value alone. */
    async setStatus(kind: LeadKind, id: string, status: LeadStatus | null, note: string, value: number | null = null): Promise<InboxLead> {
      const data = check(await supabase.rpc('set_lead_status', { p_kind: kind, p_id: id, p_status: status, p_note: trimmed(note), p_value: value }), 'Saving');
      return (Array.isArray(data) ? data[0] : data) as InboxLead;
    },
    /** One lead as the list shows it (a lead opened from its address may not be on the page loaded). */
    async lead(kind: LeadKind, id: string): Promise<InboxLead | undefined> {
      const result = await supabase.from('inbox_leads').select('*').eq('kind', kind).eq('id', id).maybeSingle();
      return (check(result, 'Loading the lead') ?? undefined) as InboxLead | undefined;
    },
    async history(kind: LeadKind, id: string): Promise<LeadEvent[]> {
      const result = await supabase.from('lead_events').select('*').eq('lead_kind', kind).eq('lead_id', id).order('at', { ascending: true }).order('id', { ascending: true });
      return check(result, 'Loading the history') as LeadEvent[];
    },
    /** The lead's messages for the office chat: sent, waiting for a retry, or given up on. */
    async delivery(kind: LeadKind, id: string): Promise<ChatDelivery[]> {
      return (check(await supabase.rpc('lead_delivery', { p_kind: kind, p_id: id }), 'Loading the chat messages') ?? []) as ChatDelivery[];
    },
    /** Every lead the filters match, page by page, for the export. */
    async allLeads(filters: LeadFilters): Promise<InboxLead[]> {
      const all: InboxLead[] = [];
      const pageSize = MAX_PAGE;
      for (;;) {
        const page = await this.searchLeads(filters, all.length, pageSize);
        all.push(...page);
        if (page.length < pageSize) return all;
      }
    },
    /** Leads, contacted, booked, median first response and booked value per channel, campaign and language. */
    async report(from: string, to: string): Promise<AttributionReport> {
      return check(await supabase.rpc('attribution_report', rangeParams(from, to)), 'Loading the report') as AttributionReport;
    },
    /** The booked jobs with a click id of `platform` booked in the range; the database records the export. */
    async conversions(platform: AdPlatform, from: string, to: string): Promise<Conversion[]> {
      return check(await supabase.rpc('ad_conversions', { p_platform: platform, ...rangeParams(from, to) }), 'Exporting conversions') as Conversion[];
    },
    async logExport(count: number, filters: LeadFilters): Promise<void> {
      // The history keeps which filters were used, not the search text: it may be a person's name.
      const logged = {
        status: filters.status || null, kind: filters.kind || null, from: filters.from || null, to: filters.to || null,
        channel: filters.channel || null, campaign: filters.campaign.trim() || null, lang: filters.lang || null, search: Boolean(filters.query.trim()),
      };
      check(await supabase.rpc('log_export', { p_count: count, p_filters: logged }), 'Recording the export');
    },
    /** Whether the signed-in member's Telegram is linked (migration 20261126000200). */
    async telegramStatus(): Promise<TelegramLinkStatus> {
      return check(await supabase.rpc('telegram_link_status'), 'Reading your Telegram link') as TelegramLinkStatus;
    },
    /** A new one-time code to send to the bot; the previous one stops working. */
    async telegramLinkCode(): Promise<TelegramLinkCode> {
      return check(await supabase.rpc('telegram_link_code'), 'Making a link code') as TelegramLinkCode;
    },
    async telegramUnlink(): Promise<void> {
      check(await supabase.rpc('telegram_unlink'), 'Unlinking your Telegram');
    },
    /** Deleting for good (a person's request under California's privacy law); the history keeps only that it happened. */
    async deleteLead(kind: LeadKind, id: string): Promise<void> {
      const table = kind === 'quote' ? 'leads' : 'discount_leads';
      const result = await supabase.from(table).delete({ count: 'exact' }).eq('id', id);
      check(result, 'Deleting');
      if (result.count === 0) throw new InboxError('Deleting: the lead was not deleted (it may be gone already, or this account may not delete).');
    },
  };
}

export type InboxApi = ReturnType<typeof inboxApi>;
