-- The auth schema as Supabase Auth's migrations leave it, for the tables and functions the
-- project's migrations and tests touch. Run as supabase_auth_admin, as Supabase Auth runs its
-- migrations at start-up: what is created here is owned by supabase_auth_admin, and postgres gets
-- every privilege on it through the default privileges of 02-migrations.sql, ownership of nothing.
-- Written for these tests; the resulting shape (names, types, defaults, keys, indexes) follows,
-- without copying, supabase/auth migrations/*.up.sql at commit bc32168e13fdc928c98b449fc76bc3fdb9a293c5
-- (migrations last changed at acecb063b0d089d6329af04171b3bc3903508c3b), in particular:
--   20210710035447_alter_users, 20210722035447_adds_confirmed_at, 20210730183235_add_email_change_confirmed,
--   20210909172000_create_identities_table, 20210927181326_add_refresh_token_parent,
--   20220114185340_add_banned_until, 20220224000811_update_auth_functions, 20220323170000_add_user_reauthentication,
--   20220531120530_add_auth_jwt_function, 20220811173540_add_sessions_table, 20221003041349_add_mfa_schema,
--   20221003041400_add_aal_and_factor_id_to_sessions, 20221114143122_add_session_not_after_column,
--   20221215195500_modify_users_email_unique_index, 20221215195800_add_identities_email_column,
--   20230116124310_alter_phone_type, 20230116124412_add_deleted_at, 20231027141322_add_session_refresh_columns,
--   20231114161723_add_sessions_tag, 20231117164230_add_id_pkey_identities, 20240214120130_add_is_anonymous_column,
--   20240427152123_add_one_time_tokens_table, 20240612123726_enable_rls_update_grants,
--   20240729123726_add_mfa_phone_config, 20240802193726_add_mfa_factors_column_last_challenged_at,
--   20241009103726_add_web_authn, 20250925093508_add_last_webauthn_challenge_data,
--   20251007112900_add_session_refresh_token_columns, 20251111201300_add_scopes_to_sessions.
--
-- Left out (the project uses none of them): SAML and SSO (sso_providers, sso_domains,
-- saml_providers, saml_relay_states), flow_state, the OAuth server tables (oauth_clients,
-- oauth_authorizations, oauth_consents, oauth_client_states, custom_oauth_providers, and
-- sessions.oauth_client_id's foreign key), passkeys and webauthn_* tables, the custom claims
-- allowlist, Supabase Auth's rows in auth.schema_migrations, and the comments.

-- The claim functions as they read the claims today (PostgREST sets request.jwt.claims)
create or replace function auth.uid() returns uuid language sql stable as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim.sub', true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'sub')
  )::uuid
$$;
create or replace function auth.role() returns text language sql stable as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim.role', true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'role')
  )::text
$$;
create or replace function auth.email() returns text language sql stable as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim.email', true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'email')
  )::text
$$;
create or replace function auth.jwt() returns jsonb language sql stable as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim', true), ''),
    nullif(current_setting('request.jwt.claims', true), '')
  )::jsonb
$$;

-- auth.users: the image's table brought to today's columns
alter table auth.users rename column confirmed_at to email_confirmed_at;
alter table auth.users rename column email_change_token to email_change_token_new;
alter table auth.users drop constraint users_email_key;
drop index auth.users_instance_id_email_idx;
alter table auth.users
  add column phone text unique default null::varchar,
  add column phone_confirmed_at timestamptz,
  add column phone_change text default ''::varchar,
  add column phone_change_token varchar(255) default '',
  add column phone_change_sent_at timestamptz,
  add column confirmed_at timestamptz generated always as (least(email_confirmed_at, phone_confirmed_at)) stored,
  add column email_change_token_current varchar(255) default '',
  add column email_change_confirm_status smallint default 0 check (email_change_confirm_status between 0 and 2),
  add column banned_until timestamptz,
  add column reauthentication_token varchar(255) default '',
  add column reauthentication_sent_at timestamptz,
  add column is_sso_user boolean not null default false,
  add column deleted_at timestamptz,
  add column is_anonymous boolean not null default false;
create index users_instance_id_email_idx on auth.users (instance_id, lower(email));
create unique index users_email_partial_key on auth.users (email) where is_sso_user = false;
create unique index confirmation_token_idx on auth.users (confirmation_token) where confirmation_token !~ '^[0-9 ]*$';
create unique index recovery_token_idx on auth.users (recovery_token) where recovery_token !~ '^[0-9 ]*$';
create unique index email_change_token_current_idx on auth.users (email_change_token_current) where email_change_token_current !~ '^[0-9 ]*$';
create unique index email_change_token_new_idx on auth.users (email_change_token_new) where email_change_token_new !~ '^[0-9 ]*$';
create unique index reauthentication_token_idx on auth.users (reauthentication_token) where reauthentication_token !~ '^[0-9 ]*$';
create index users_is_anonymous_idx on auth.users (is_anonymous);

create table auth.identities (
  provider_id text not null,
  user_id uuid not null references auth.users (id) on delete cascade,
  identity_data jsonb not null,
  provider text not null,
  last_sign_in_at timestamptz,
  created_at timestamptz,
  updated_at timestamptz,
  email text generated always as (lower(identity_data ->> 'email')) stored,
  id uuid not null default gen_random_uuid() primary key,
  constraint identities_provider_id_provider_unique unique (provider_id, provider)
);
create index identities_email_idx on auth.identities (email text_pattern_ops);
create index identities_user_id_idx on auth.identities (user_id);

create type auth.aal_level as enum ('aal1', 'aal2', 'aal3');
create type auth.factor_type as enum ('totp', 'webauthn', 'phone');
create type auth.factor_status as enum ('unverified', 'verified');
create type auth.one_time_token_type as enum (
  'confirmation_token', 'reauthentication_token', 'recovery_token',
  'email_change_token_new', 'email_change_token_current', 'phone_change_token'
);

create table auth.sessions (
  id uuid not null primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  created_at timestamptz,
  updated_at timestamptz,
  factor_id uuid,
  aal auth.aal_level,
  not_after timestamptz,
  refreshed_at timestamp,
  user_agent text,
  ip inet,
  tag text,
  oauth_client_id uuid,
  refresh_token_hmac_key text,
  refresh_token_counter bigint,
  scopes text constraint sessions_scopes_length check (char_length(scopes) <= 4096)
);
create index sessions_user_id_idx on auth.sessions (user_id);
create index user_id_created_at_idx on auth.sessions (user_id, created_at);
create index sessions_not_after_idx on auth.sessions (not_after desc);
create index sessions_oauth_client_id_idx on auth.sessions (oauth_client_id);

alter table auth.refresh_tokens
  add column parent varchar(255),
  add column session_id uuid references auth.sessions (id) on delete cascade,
  add constraint refresh_tokens_token_unique unique (token);
create index refresh_tokens_parent_idx on auth.refresh_tokens (parent);
create index refresh_tokens_session_id_revoked_idx on auth.refresh_tokens (session_id, revoked);
create index refresh_tokens_updated_at_idx on auth.refresh_tokens (updated_at desc);

create table auth.mfa_factors (
  id uuid not null primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  friendly_name text,
  factor_type auth.factor_type not null,
  status auth.factor_status not null,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  secret text,
  phone text,
  last_challenged_at timestamptz unique,
  web_authn_credential jsonb,
  web_authn_aaguid uuid,
  last_webauthn_challenge_data jsonb
);
create unique index mfa_factors_user_friendly_name_unique on auth.mfa_factors (friendly_name, user_id) where trim(friendly_name) <> '';
create index factor_id_created_at_idx on auth.mfa_factors (user_id, created_at);
create index mfa_factors_user_id_idx on auth.mfa_factors (user_id);
create unique index unique_phone_factor_per_user on auth.mfa_factors (user_id, phone);

create table auth.mfa_challenges (
  id uuid not null primary key,
  factor_id uuid not null constraint mfa_challenges_auth_factor_id_fkey references auth.mfa_factors (id) on delete cascade,
  created_at timestamptz not null,
  verified_at timestamptz,
  ip_address inet not null,
  otp_code text,
  web_authn_session_data jsonb
);
create index mfa_challenge_created_at_idx on auth.mfa_challenges (created_at desc);

create table auth.mfa_amr_claims (
  session_id uuid not null references auth.sessions (id) on delete cascade,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  authentication_method text not null,
  id uuid not null constraint amr_id_pk primary key,
  constraint mfa_amr_claims_session_id_authentication_method_pkey unique (session_id, authentication_method)
);

create table auth.one_time_tokens (
  id uuid not null primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  token_type auth.one_time_token_type not null,
  token_hash text not null check (char_length(token_hash) > 0),
  relates_to text not null,
  created_at timestamp not null default now(),
  updated_at timestamp not null default now()
);
create index one_time_tokens_relates_to_hash_idx on auth.one_time_tokens using hash (relates_to);
create index one_time_tokens_token_hash_hash_idx on auth.one_time_tokens using hash (token_hash);
create unique index one_time_tokens_user_id_token_type_key on auth.one_time_tokens (user_id, token_type);

-- Row-level security on every auth table; postgres may read them and pass that on
do $$
declare
  t text;
begin
  foreach t in array array['schema_migrations', 'instances', 'users', 'audit_log_entries', 'refresh_tokens',
    'mfa_factors', 'sessions', 'mfa_challenges', 'mfa_amr_claims', 'identities', 'one_time_tokens'] loop
    execute format('alter table auth.%I enable row level security', t);
    execute format('grant select on auth.%I to postgres with grant option', t);
  end loop;
end
$$;
