/**
 * Which Supabase project a browser script talks to, for the visitor forms and the staff inbox alike:
 * the build's SUPABASE_URL and anon key (build-time constants the bundler defines), or, when the
 * build has none, the page's own origin, where `npm start` answers as Supabase with the local key.
 */
declare const __BAYSHINE_SUPABASE_URL__: string | undefined;
declare const __BAYSHINE_SUPABASE_ANON_KEY__: string | undefined;

/** Anon key the embedded local backend expects when no Supabase project is configured. */
export const LOCAL_ANON_KEY = 'local-anon-key';

export interface SupabaseBuildSettings {
  /** '' = same origin as the page (embedded backend). */
  supabaseUrl: string;
  supabaseAnonKey: string;
}

/** Build-time settings (replaced by the bundler; empty strings where not defined, e.g. in tests). */
export const supabaseBuildSettings: SupabaseBuildSettings = {
  supabaseUrl: typeof __BAYSHINE_SUPABASE_URL__ === 'string' ? __BAYSHINE_SUPABASE_URL__ : '',
  supabaseAnonKey: typeof __BAYSHINE_SUPABASE_ANON_KEY__ === 'string' ? __BAYSHINE_SUPABASE_ANON_KEY__ : '',
};

/** URL and key the client uses, applying the same-origin fallback. */
export function resolveConnection(config: SupabaseBuildSettings = supabaseBuildSettings, origin = globalThis.location?.origin ?? '') {
  return {
    url: config.supabaseUrl || origin,
    key: config.supabaseUrl ? config.supabaseAnonKey : config.supabaseAnonKey || LOCAL_ANON_KEY,
  };
}
