/**
 * The security headers every response of the site carries besides its Content-Security-Policy:
 * written into _headers (hostFiles.ts) and set by the Cloudflare Pages Function of /admin
 * (functions/admin.ts), which _headers does not reach. No Node imports: that function bundles it.
 */
export const SECURITY_HEADERS: Record<string, string> = {
  'Strict-Transport-Security': 'max-age=63072000; includeSubDomains; preload',
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), usb=(), interest-cohort=()',
};
