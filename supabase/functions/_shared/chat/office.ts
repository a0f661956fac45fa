/**
 * What the scheduled run adds to the office chat's outbox before it sends (issue 30): one reminder
 * for each lead still new once its delay of opening hours has passed, and at the opening of each
 * business day one summary when some lead is overdue or due that day. The math is officeHours.ts;
 * the database re-checks every lead and keeps each message to once
 * (supabase/migrations/20261126000100_chat_reminders.sql).
 */
import { openingOfBusinessDay, reminderDueAt } from './officeHours.ts';
import type { OfficeHoursResult } from './officeHoursSource.ts';

import type { Rpc } from './database.ts';
export type { Rpc };

export interface OfficePlanDeps {
  rpc: Rpc;
  now: () => Date;
  /** The office hours the site publishes (officeHoursSource.ts), or why they could not be read. */
  settings: OfficeHoursResult;
  log: (msg: string) => void;
}

export interface OfficePlan {
  /** Reminders added to the outbox this run. */
  reminders: number;
  /** Whether today's summary is in the outbox (now or earlier); undefined outside a day's opening. */
  summary?: boolean;
  /** Why nothing was planned. */
  skipped?: string;
}

interface Candidate {
  kind: 'quote' | 'discount';
  id: string;
  createdAt: string;
}

function candidatesOf(value: unknown): Candidate[] {
  if (!Array.isArray(value)) throw new Error('chat_reminder_candidates answered something other than a list');
  return value.filter((c): c is Candidate =>
    typeof c === 'object' && c !== null && (c.kind === 'quote' || c.kind === 'discount') && typeof c.id === 'string'
    && typeof c.createdAt === 'string' && !Number.isNaN(Date.parse(c.createdAt)));
}

/**
 * Plans the run's reminders and summary. Never throws: a failure is logged (no lead's details, only
 * what went wrong) and the run goes on to send what is already waiting.
 */
export async function planOfficeMessages(deps: OfficePlanDeps): Promise<OfficePlan> {
  const { settings, log } = deps;
  if (!settings.hours) {
    log(`[office] no reminders or summary this run: ${settings.error}`);
    return { reminders: 0, skipped: settings.error };
  }
  const hours = settings.hours;
  const now = deps.now();
  const plan: OfficePlan = { reminders: 0 };
  try {
    const candidates = candidatesOf(await deps.rpc('chat_reminder_candidates', { p_now: now.toISOString() }));
    const due = candidates.filter((c) => reminderDueAt(new Date(c.createdAt), hours).getTime() <= now.getTime());
    if (due.length) {
      plan.reminders = Number(await deps.rpc('chat_enqueue_reminders', {
        p_leads: due.map(({ kind, id }) => ({ kind, id })), p_now: now.toISOString(),
      })) || 0;
    }
    const opening = openingOfBusinessDay(now, hours);
    if (opening) {
      plan.summary = (await deps.rpc('chat_enqueue_summary', {
        p_day: opening.day, p_due_before: opening.closesAt.toISOString(), p_now: now.toISOString(),
      })) === true;
    }
  } catch (err) {
    const reason = `the reminders could not be planned: ${err instanceof Error ? err.message : 'error'}`;
    log(`[office] ${reason}`);
    return { ...plan, skipped: reason };
  }
  return plan;
}
