/**
 * The inbox's Supabase client: the project the build names (or the page's own origin, which
 * `npm start` answers), with supabase-js's default auth: the session kept in localStorage and
 * refreshed before it expires.
 */
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { resolveConnection } from '../../contracts/supabaseConnection.js';

export function inboxClient(): SupabaseClient {
  const { url, key } = resolveConnection();
  return createClient(url, key);
}
