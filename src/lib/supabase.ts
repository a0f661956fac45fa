/**
 * The browser's Supabase client, created on first use (supabase-js is a separate chunk that loads
 * only when a form is used). Connection settings are build-time constants that
 * generator/assets/islands.ts defines; with an empty URL the client talks to the page's own origin,
 * where `npm start` serves the embedded backend (generator/serve/backend.ts) with anon key
 * `local-anon-key`.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { supabaseLeadApi, type LeadApi } from './leads.js';

declare const __BAYSHINE_SUPABASE_URL__: string | undefined;
declare const __BAYSHINE_SUPABASE_ANON_KEY__: string | undefined;
declare const __BAYSHINE_LEAD_WEBHOOK_URL__: string | undefined;

/** Anon key the embedded local backend expects when no Supabase project is configured. */
export const LOCAL_ANON_KEY = 'local-anon-key';

export interface LeadBackendConfig {
  /** '' = same origin as the page (embedded backend). */
  supabaseUrl: string;
  supabaseAnonKey: string;
  /** '' = no automation webhook. */
  webhookUrl: string;
}

/** Build-time settings (replaced by the bundler; empty strings where not defined, e.g. in tests). */
export const buildConfig: LeadBackendConfig = {
  supabaseUrl: typeof __BAYSHINE_SUPABASE_URL__ === 'string' ? __BAYSHINE_SUPABASE_URL__ : '',
  supabaseAnonKey: typeof __BAYSHINE_SUPABASE_ANON_KEY__ === 'string' ? __BAYSHINE_SUPABASE_ANON_KEY__ : '',
  webhookUrl: typeof __BAYSHINE_LEAD_WEBHOOK_URL__ === 'string' ? __BAYSHINE_LEAD_WEBHOOK_URL__ : '',
};

/** URL and key the client uses, applying the same-origin fallback. */
export function resolveConnection(config: LeadBackendConfig = buildConfig, origin = globalThis.location?.origin ?? '') {
  return {
    url: config.supabaseUrl || origin,
    key: config.supabaseUrl ? config.supabaseAnonKey : config.supabaseAnonKey || LOCAL_ANON_KEY,
  };
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
