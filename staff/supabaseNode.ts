/**
 * supabase-js for Node (`npm run staff`, the tests): no session kept, no refresh timers, and a
 * realtime transport that refuses to start, because Node 20 has no global WebSocket and supabase-js
 * will not start without one. Nothing here uses realtime.
 */
import { createClient, type SupabaseClient, type SupabaseClientOptions } from '@supabase/supabase-js';

class NoWebSocket {
  constructor() {
    throw new Error('realtime is not used by this client');
  }
}

export function createNodeClient(url: string, key: string, options: SupabaseClientOptions<'public'> = {}): SupabaseClient {
  return createClient(url, key, {
    ...options,
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false, ...options.auth },
    realtime: { ...options.realtime, transport: NoWebSocket as never },
  });
}
