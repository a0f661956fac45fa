/**
 * The inbox's Supabase client: the project the build names (or the page's own origin, which
 * `npm start` answers), with supabase-js's default session handling: kept in localStorage and
 * refreshed before it expires. Only reading a session from the address is off: staff sign in with
 * a password here, never through a redirect, and the address's #fragment names a lead (a crafted
 * link must not sign anyone in to another account).
 */
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { resolveConnection } from '../../contracts/supabaseConnection.js';

export function inboxClient(): SupabaseClient {
  const { url, key } = resolveConnection();
  return createClient(url, key, { auth: { detectSessionInUrl: false } });
}
