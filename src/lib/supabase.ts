/**
 * The browser's Supabase client, created on first use (supabase-js is a separate chunk that loads
 * only when a form is used). Connection settings are build-time constants that
 * generator/assets/islands.ts defines, read by contracts/supabaseConnection.ts (the staff inbox uses
 * the same rule); with an empty URL the client talks to the page's own origin,
 * where `npm start` serves the embedded backend (supabase-standin/backend.ts) with anon key
 * `local-anon-key`.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { LOCAL_ANON_KEY, resolveConnection as resolveSupabase, supabaseBuildSettings, type SupabaseBuildSettings } from '../../contracts/supabaseConnection.js';
import { supabaseLeadApi, type LeadApi } from './leads.js';

declare const __BAYSHINE_LEAD_WEBHOOK_URL__: string | undefined;

/** The connection rule is shared with the staff inbox (contracts/supabaseConnection.ts). */
export { LOCAL_ANON_KEY };

export interface LeadBackendConfig extends SupabaseBuildSettings {
  /** '' = no automation webhook. */
  webhookUrl: string;
}

/** Build-time settings (replaced by the bundler; empty strings where not defined, e.g. in tests). */
export const buildConfig: LeadBackendConfig = {
  ...supabaseBuildSettings,
  webhookUrl: typeof __BAYSHINE_LEAD_WEBHOOK_URL__ === 'string' ? __BAYSHINE_LEAD_WEBHOOK_URL__ : '',
};

/** URL and key the client uses, applying the same-origin fallback (contracts/supabaseConnection.ts). */
export function resolveConnection(config: LeadBackendConfig = buildConfig, origin?: string) {
  return resolveSupabase(config, origin);
}

let client: Promise<SupabaseClient> | undefined;

/** The shared client (one per page). A failed chunk load is retried on the next call. */
function getSupabase(): Promise<SupabaseClient> {
  if (!client) {
    const { url, key } = resolveConnection();
    const pending = import('@supabase/supabase-js').then(({ createClient }) =>
      createClient(url, key, {
        // Visitors never sign in: no session storage, refresh timers or URL parsing.
        auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
      }),
    );
    pending.catch(() => {
      if (client === pending) client = undefined;
    });
    client = pending;
  }
  return client;
}

/** Starts loading supabase-js early (e.g. when the visitor starts filling a form). */
export function preloadSupabase(): void {
  getSupabase().catch(() => {});
}

/** The forms' backend operations over the shared client. */
export async function getLeadApi(): Promise<LeadApi> {
  return supabaseLeadApi(await getSupabase());
}
