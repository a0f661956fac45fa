/**
 * The office hours as the site publishes them (`${SITE_URL}/office-hours.json`, written by the build
 * from content/site.yaml): read by the scheduled run before it plans reminders, and by
 * `npm run doctor`. The answer comes over the network, so it is bounded in time and size and checked
 * field by field; anything else is a reason, never an exception, and the run then plans nothing.
 */
import { boundedText } from '../requestBody.ts';
import { OFFICE_HOURS_PATH, officeHoursSchema, type OfficeHours } from './officeHours.ts';

/** The file is about 150 bytes; anything much larger is not it. */
const MAX_BYTES = 4096;
const TIMEOUT_MS = 5000;

export type OfficeHoursResult = { hours: OfficeHours; error?: undefined } | { hours?: undefined; error: string };

/** Where the hours are published for the site at `siteUrl`, or undefined when it is not an http(s) address. */
export function officeHoursUrl(siteUrl: string | undefined): string | undefined {
  if (!siteUrl?.trim()) return undefined;
  try {
    const url = new URL(siteUrl.trim());
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
    return `${url.origin}${OFFICE_HOURS_PATH}`;
  } catch {
    return undefined;
  }
}

/** Reads and checks the published office hours of the site at `siteUrl`. */
export async function readOfficeHours(siteUrl: string | undefined, fetchFn: typeof fetch, timeoutMs = TIMEOUT_MS): Promise<OfficeHoursResult> {
  const url = officeHoursUrl(siteUrl);
  if (!url) return { error: 'SITE_URL is not set to the site\'s http(s) address, so the office hours cannot be read' };
  let res: Response;
  try {
    res = await fetchFn(url, { headers: { Accept: 'application/json' }, redirect: 'follow', signal: AbortSignal.timeout(timeoutMs) });
  } catch (err) {
    return { error: `${url} could not be reached (${err instanceof Error ? err.name : 'error'})` };
  }
  if (!res.ok) {
    await res.body?.cancel().catch(() => {});
    return { error: `${url} answered ${res.status}` };
  }
  let text: string | undefined;
  try {
    text = await boundedText(res, MAX_BYTES);
  } catch (err) {
    return { error: `${url} could not be read (${err instanceof Error ? err.name : 'error'})` };
  }
  if (text === undefined) return { error: `${url} is larger than ${MAX_BYTES} bytes` };
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { error: `${url} is not JSON` };
  }
  const parsed = officeHoursSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { error: `${url} is not valid office hours (${issue ? `${issue.path.join('.') || 'file'}: ${issue.message}` : 'invalid'})` };
  }
  return { hours: parsed.data };
}
