/** One claim of the caller's JWT, as Supabase's auth.uid(), auth.role() and auth.email() read it. */
const claimFunction = (fn: string, claim: string, type: string) => `CREATE OR REPLACE FUNCTION auth.${fn}() RETURNS ${type} LANGUAGE sql STABLE AS $$
  select coalesce(
    nullif(current_setting('request.jwt.claim.${claim}', true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> '${claim}')
  )::${type}
$$;
`;

/**
 * The part of Supabase's `auth` schema that exists on every Supabase project before any migration
 * runs, created on PGlite by the local stand-in (database.ts runs it before the migrations):
 * - auth.uid(), auth.role(), auth.email() and auth.jwt() exactly as Supabase defines them, reading
 *   the claims PostgREST puts in `request.jwt.claims`;
 * - auth.users with the columns the migrations and the local Auth stand-in use (Supabase's table has
 *   more; the names and types of these are Supabase's own);
 * - the tables the local Auth stand-in (auth.ts) keeps its state in, named and shaped as Supabase
 *   Auth's own: auth.sessions, auth.refresh_tokens, auth.mfa_factors, auth.mfa_challenges and
 *   auth.mfa_amr_claims. Two differences, both for safety: refresh_tokens.token holds the SHA-256 of
 *   the token (a copied database yields no usable token), and mfa_factors.last_totp_step (not in
 *   Supabase) records the last time step accepted, so a TOTP code is never accepted twice.
 * Migrations may reference these; they never create them (on Supabase they already exist).
 * Every statement is idempotent: this runs at every start, on new and existing databases.
 */
export const AUTH_SCHEMA_SQL = `
CREATE SCHEMA IF NOT EXISTS auth;

${claimFunction('uid', 'sub', 'uuid')}
${claimFunction('role', 'role', 'text')}
${claimFunction('email', 'email', 'text')}
CREATE OR REPLACE FUNCTION auth.jwt() RETURNS jsonb LANGUAGE sql STABLE AS $$
  select coalesce(
    nullif(current_setting('request.jwt.claim', true), ''),
    nullif(current_setting('request.jwt.claims', true), '')
  )::jsonb
$$;

CREATE TABLE IF NOT EXISTS auth.users (
  instance_id uuid,
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  aud varchar(255) DEFAULT 'authenticated',
  role varchar(255) DEFAULT 'authenticated',
  email varchar(255),
  encrypted_password varchar(255),
  email_confirmed_at timestamptz,
  last_sign_in_at timestamptz,
  raw_app_meta_data jsonb NOT NULL DEFAULT '{}'::jsonb,
  raw_user_meta_data jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  banned_until timestamptz,
  deleted_at timestamptz
);
CREATE UNIQUE INDEX IF NOT EXISTS users_email_key ON auth.users (lower(email));
ALTER TABLE auth.users ADD COLUMN IF NOT EXISTS phone text DEFAULT NULL;
ALTER TABLE auth.users ADD COLUMN IF NOT EXISTS is_anonymous boolean NOT NULL DEFAULT false;

CREATE TABLE IF NOT EXISTS auth.sessions (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES auth.users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  factor_id uuid,
  aal text NOT NULL DEFAULT 'aal1' CHECK (aal IN ('aal1', 'aal2', 'aal3')),
  not_after timestamptz,
  refreshed_at timestamp,
  user_agent text,
  ip inet
);
CREATE INDEX IF NOT EXISTS sessions_user_id_idx ON auth.sessions (user_id);

CREATE TABLE IF NOT EXISTS auth.refresh_tokens (
  instance_id uuid,
  id bigserial PRIMARY KEY,
  token varchar(255) NOT NULL UNIQUE,
  user_id varchar(255) NOT NULL,
  revoked boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  parent varchar(255),
  session_id uuid NOT NULL REFERENCES auth.sessions (id) ON DELETE CASCADE
);
CREATE INDEX IF NOT EXISTS refresh_tokens_session_id_idx ON auth.refresh_tokens (session_id);

CREATE TABLE IF NOT EXISTS auth.mfa_factors (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES auth.users (id) ON DELETE CASCADE,
  friendly_name text,
  factor_type text NOT NULL CHECK (factor_type IN ('totp', 'phone', 'webauthn')),
  status text NOT NULL CHECK (status IN ('unverified', 'verified')),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  secret text,
  phone text,
  last_challenged_at timestamptz,
  last_totp_step bigint
);
CREATE UNIQUE INDEX IF NOT EXISTS mfa_factors_user_friendly_name_unique
  ON auth.mfa_factors (friendly_name, user_id) WHERE trim(friendly_name) <> '';
CREATE INDEX IF NOT EXISTS mfa_factors_user_id_idx ON auth.mfa_factors (user_id);

CREATE TABLE IF NOT EXISTS auth.mfa_challenges (
  id uuid PRIMARY KEY,
  factor_id uuid NOT NULL REFERENCES auth.mfa_factors (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  verified_at timestamptz,
  ip_address inet NOT NULL
);

CREATE TABLE IF NOT EXISTS auth.mfa_amr_claims (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  session_id uuid NOT NULL REFERENCES auth.sessions (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  authentication_method text NOT NULL,
  CONSTRAINT mfa_amr_claims_session_id_authentication_method_pkey UNIQUE (session_id, authentication_method)
);

REVOKE ALL ON SCHEMA auth FROM PUBLIC;
GRANT USAGE ON SCHEMA auth TO anon, authenticated, service_role;
REVOKE ALL ON ALL TABLES IN SCHEMA auth FROM PUBLIC, anon, authenticated, service_role;
GRANT EXECUTE ON FUNCTION auth.uid(), auth.role(), auth.email(), auth.jwt() TO PUBLIC;
`;
