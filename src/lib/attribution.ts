/**
 * Which marketing brought a lead (issue 31), sent with it as two touches: the first (the visit
 * that first brought this browser here, kept ATTRIBUTION_DAYS) and the last (this visit's). A
 * touch is the campaign parameters of the address it landed on (utm_*, the ad click ids), the
 * referring site's host (never its URL), the page and the time.
 *
 * The inline font loader (src/scripts/font-loader.js) writes them on every page: this visit's touch
 * under TOUCH_KEY in sessionStorage, the first under FIRST_TOUCH_KEY in localStorage. It keeps the
 * values as the address carried them; this module, loaded with the forms' code only, holds each
 * value to the rule the database checks (leadRules.ts) and drops what breaks it, so that a bad
 * campaign value never costs the visitor their lead.
 */
import {
  ATTRIBUTION_DAYS, TOUCH_FIELDS, TOUCHES, touchFieldSchemas, type AttributionColumns, type Touch, type TouchValues,
} from '../../supabase/functions/_shared/leadRules.js';

/** Storage keys the font loader spells out too: keep both alike. */
export const TOUCH_KEY = 'touch';
export const FIRST_TOUCH_KEY = 'firstTouch';

const DAY_MS = 86_400_000;

/** A value as it is stored: campaign text trimmed, a host in lower case; anything else as it came. */
function normalised(field: string, value: unknown): unknown {
  if (typeof value !== 'string') return value;
  return field === 'referrer_host' ? value.toLowerCase() : value.trim();
}

/**
 * A touch read back from storage, each field valid or left out; null when there is none, when it
 * is no touch at all, or (maxAgeDays) when it is older than that or its time is unknown.
 */
export function cleanTouch(raw: string | null, now: Date, maxAgeDays?: number): TouchValues | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw ?? 'null');
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null;
  const touch: TouchValues = {};
  for (const field of TOUCH_FIELDS) {
    const value = normalised(field, (parsed as Record<string, unknown>)[field]);
    if (touchFieldSchemas[field].safeParse(value).success) touch[field] = value as string;
  }
  // A time ahead of this clock is no time (the database also bounds it by the lead's own).
  if (!(Date.parse(touch.touch_at ?? '') <= now.getTime())) delete touch.touch_at;
  if (maxAgeDays !== undefined && !(now.getTime() - Date.parse(touch.touch_at ?? '') < maxAgeDays * DAY_MS)) return null;
  return Object.keys(touch).length ? touch : null;
}

function storedItem(storage: () => Storage, key: string): string | null {
  try {
    return storage().getItem(key);
  } catch {
    return null; // storage blocked: the lead goes without
  }
}

/** Both touches as the lead's columns (first_utm_source … last_touch_at), unknown ones null. */
export function touchColumns(touches: Record<Touch, TouchValues | null>): AttributionColumns {
  const columns: AttributionColumns = {};
  for (const touch of TOUCHES) {
    for (const field of TOUCH_FIELDS) columns[`${touch}_${field}`] = touches[touch]?.[field] ?? null;
  }
  return columns;
}

/** The touches of this browser, for a lead sent now. */
export function currentAttribution(now: Date = new Date()): AttributionColumns {
  return touchColumns({
    first: cleanTouch(storedItem(() => window.localStorage, FIRST_TOUCH_KEY), now, ATTRIBUTION_DAYS),
    last: cleanTouch(storedItem(() => window.sessionStorage, TOUCH_KEY), now),
  });
}

/** True when a row carries any attribution (so a refused insert is worth sending again without). */
export function hasAttribution(columns: AttributionColumns): boolean {
  return Object.values(columns).some((value) => value !== null && value !== undefined);
}
