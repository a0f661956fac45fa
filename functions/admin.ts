/**
 * Cloudflare Pages Function, /admin: the CMS page with its own headers (cms/adminHeaders.ts).
 * Cloudflare joins the values of every _headers rule that matches, so the site-wide policy would
 * be enforced on /admin too; a function's response gets no _headers rules, only these.
 */
import { ADMIN_HEADERS } from '../cms/adminHeaders.js';
import { SECURITY_HEADERS } from '../contracts/securityHeaders.js';
import type { PagesContext } from './_shared/githubOAuth.js';

export async function onRequestGet({ next }: PagesContext<unknown>): Promise<Response> {
  const page = await next();
  const response = new Response(page.body, page);
  for (const [name, value] of Object.entries({ ...SECURITY_HEADERS, ...ADMIN_HEADERS })) response.headers.set(name, value);
  return response;
}
