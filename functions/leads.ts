/**
 * Cloudflare Pages Function, /leads: the lead inbox with its own headers (staff/inboxHeaders.ts).
 * Cloudflare joins the values of every _headers rule that matches, so the
 * site-wide policy would be enforced on /leads too; a function's response gets no _headers rules,
 * only these. SUPABASE_URL is the Pages project's environment variable, the same one the build
 * reads (Cloudflare hands it to the build and to functions alike): the policy lets the page talk to it.
 */
import { inboxHeaders } from '../staff/inboxHeaders.js';
import { SECURITY_HEADERS } from '../contracts/securityHeaders.js';
import type { PagesContext } from './_shared/githubOAuth.js';

export async function onRequestGet({ env, next }: PagesContext<{ SUPABASE_URL?: string } | undefined>): Promise<Response> {
  const page = await next();
  const response = new Response(page.body, page);
  for (const [name, value] of Object.entries({ ...SECURITY_HEADERS, ...inboxHeaders(env?.SUPABASE_URL || undefined) })) response.headers.set(name, value);
  return response;
}
