/**
 * The response headers of /leads, in one place: generator/write/hostFiles.ts writes them into
 * _headers (the local server and Netlify read them there) and the Cloudflare Pages Function
 * functions/leads.ts sets them (Cloudflare joins the values of every matching _headers rule, which
 * would add the public policy to this one). No Node imports: the Pages Function bundles it.
 *
 * Stricter than the public pages: only our own script and stylesheet (no inline code or style
 * attribute), images from us and data: (the QR code of the authenticator enrolment), connections
 * to us and the Supabase project, nothing framed and no framing; the page is never cached or
 * indexed and sends no referrer (a lead's address carries its id).
 */
export function inboxCsp(supabaseUrl?: string): string {
  const supabase = supabaseUrl ? ` ${new URL(supabaseUrl).origin}` : '';
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src 'self'${supabase}`,
    "frame-src 'none'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "object-src 'none'",
  ].join('; ');
}

export function inboxHeaders(supabaseUrl?: string): Record<string, string> {
  return {
    'Content-Security-Policy': inboxCsp(supabaseUrl),
    'X-Robots-Tag': 'noindex, nofollow',
    'Cache-Control': 'no-store',
    'Referrer-Policy': 'no-referrer',
  };
}
