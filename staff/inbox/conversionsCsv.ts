/**
 * Booked jobs as the ad platforms' offline conversion import files (issue 31): Google Ads'
 * "Import conversions from ad clicks" template and Microsoft Advertising's offline conversions
 * template, with their own column names, a first row that gives the time zone of the times, the
 * conversion name the owner set up on the platform, the value and its currency. Written with the
 * inbox's CSV writer, so a cell that a spreadsheet would read as a formula is neutralised.
 */
import { toCsv } from './csv.js';
import type { AdPlatform, Conversion } from './model.js';

/** The times are written in UTC, and the file says so. */
export const CONVERSION_TIME_ZONE = '+0000';
export const CONVERSION_CURRENCY = 'USD';
export const DEFAULT_CONVERSION_NAME = 'Booked job';

export const CONVERSION_HEADERS: Record<AdPlatform, readonly string[]> = {
  google_ads: ['Google Click ID', 'Conversion Name', 'Conversion Time', 'Conversion Value', 'Conversion Currency'],
  microsoft_ads: ['Microsoft Click ID', 'Conversion Name', 'Conversion Time', 'Conversion Value', 'Conversion Currency'],
};

/** 2026-11-20 14:03:00, in UTC (both imports read yyyy-MM-dd HH:mm:ss in the file's time zone). */
export function conversionTime(iso: string): string {
  return new Date(iso).toISOString().slice(0, 19).replace('T', ' ');
}

/** The import file of `platform` for these conversions. */
export function conversionsCsv(platform: AdPlatform, name: string, conversions: readonly Conversion[]): string {
  return toCsv([
    [`Parameters:TimeZone=${CONVERSION_TIME_ZONE}`],
    CONVERSION_HEADERS[platform],
    ...conversions.map((c) => [
      c.click_id, name, conversionTime(c.booked_at),
      c.booked_value === null ? null : Number(c.booked_value), c.booked_value === null ? null : CONVERSION_CURRENCY,
    ]),
  ]);
}

/** conversions-google-ads-2026-11-26.csv */
export function conversionsFileName(platform: AdPlatform, today: Date): string {
  return `conversions-${platform.replace('_', '-')}-${today.toISOString().slice(0, 10)}.csv`;
}
