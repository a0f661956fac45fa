-- Supabase's init scripts, as they bear on the project's migrations. Run as postgres while it is
-- still a superuser (supabase/postgres migrations/db/migrate.sh runs them so), on a cluster whose
-- bootstrap superuser is supabase_admin. Written for these tests; it follows, without copying:
--
--   supabase/postgres  migrations/db/init-scripts/00000000000000-initial-schema.sql  (commit aec738186bbc56621326a8f3b6cdf44f6cb60037)
--   supabase/postgres  migrations/db/init-scripts/00000000000001-auth-schema.sql     (commit ce2035d9444012db954fcbbcbdab7139d07ee903)
--   supabase/postgres  migrations/db/init-scripts/00000000000003-post-setup.sql      (commit 79b9d75b2685406029c51120454f7bf38df86106)
--
-- Left out: the pgjwt extension (not packaged by Debian); the storage schema (00000000000002, the
-- project uses no storage) and the dashboard_user grants on it; the pg_cron and pg_net event
-- triggers (those extensions are not installed); passwords other than the test cluster's own.
-- :LOGIN_PASSWORD is replaced by the cluster's random password before this runs.

create publication supabase_realtime;

-- supabase_admin is the cluster's bootstrap superuser already (initdb -U supabase_admin)
alter role supabase_admin with superuser createdb createrole replication bypassrls;

create role supabase_replication_admin with login replication;
create role supabase_read_only_user with login bypassrls;
grant pg_read_all_data to supabase_read_only_user;

create schema if not exists extensions;
create extension if not exists "uuid-ossp" with schema extensions;
create extension if not exists pgcrypto with schema extensions;

-- The API roles (INHERIT comes later, in 02-migrations.sql, as on Supabase)
create role anon nologin noinherit;
create role authenticated nologin noinherit;
create role service_role nologin noinherit bypassrls;

create role authenticator login noinherit password :LOGIN_PASSWORD;
grant anon, authenticated, service_role, supabase_admin to authenticator;

grant usage on schema public to postgres, anon, authenticated, service_role;
-- run by postgres: what postgres creates in public (the migrations) is granted to the API roles
alter default privileges in schema public grant all on tables to postgres, anon, authenticated, service_role;
alter default privileges in schema public grant all on functions to postgres, anon, authenticated, service_role;
alter default privileges in schema public grant all on sequences to postgres, anon, authenticated, service_role;

grant usage on schema extensions to postgres, anon, authenticated, service_role;

alter role supabase_admin set search_path to public, extensions;
alter default privileges for role supabase_admin in schema public grant all on sequences to postgres, anon, authenticated, service_role;
alter default privileges for role supabase_admin in schema public grant all on tables to postgres, anon, authenticated, service_role;
alter default privileges for role supabase_admin in schema public grant all on functions to postgres, anon, authenticated, service_role;

alter role anon set statement_timeout = '3s';
alter role authenticated set statement_timeout = '8s';

-- The auth schema as the image creates it, before Supabase Auth's own migrations (03-auth.sql)
create schema if not exists auth authorization supabase_admin;

create table auth.users (
  instance_id uuid,
  id uuid not null unique,
  aud varchar(255),
  "role" varchar(255),
  email varchar(255) unique,
  encrypted_password varchar(255),
  confirmed_at timestamptz,
  invited_at timestamptz,
  confirmation_token varchar(255),
  confirmation_sent_at timestamptz,
  recovery_token varchar(255),
  recovery_sent_at timestamptz,
  email_change_token varchar(255),
  email_change varchar(255),
  email_change_sent_at timestamptz,
  last_sign_in_at timestamptz,
  raw_app_meta_data jsonb,
  raw_user_meta_data jsonb,
  is_super_admin bool,
  created_at timestamptz,
  updated_at timestamptz,
  constraint users_pkey primary key (id)
);
create index users_instance_id_email_idx on auth.users using btree (instance_id, email);
create index users_instance_id_idx on auth.users using btree (instance_id);

create table auth.refresh_tokens (
  instance_id uuid,
  id bigserial not null,
  "token" varchar(255),
  user_id varchar(255),
  revoked bool,
  created_at timestamptz,
  updated_at timestamptz,
  constraint refresh_tokens_pkey primary key (id)
);
create index refresh_tokens_instance_id_idx on auth.refresh_tokens using btree (instance_id);
create index refresh_tokens_instance_id_user_id_idx on auth.refresh_tokens using btree (instance_id, user_id);
create index refresh_tokens_token_idx on auth.refresh_tokens using btree (token);

create table auth.instances (
  id uuid not null primary key,
  uuid uuid,
  raw_base_config text,
  created_at timestamptz,
  updated_at timestamptz
);

create table auth.audit_log_entries (
  instance_id uuid,
  id uuid not null primary key,
  payload json,
  created_at timestamptz
);
create index audit_logs_instance_id_idx on auth.audit_log_entries using btree (instance_id);

create table auth.schema_migrations ("version" varchar(255) not null primary key);

-- The first claim functions (Supabase Auth's migrations replace them, 03-auth.sql)
create or replace function auth.uid() returns uuid language sql stable as $$
  select nullif(current_setting('request.jwt.claim.sub', true), '')::uuid
$$;
create or replace function auth.role() returns text language sql stable as $$
  select nullif(current_setting('request.jwt.claim.role', true), '')::text
$$;
create or replace function auth.email() returns text language sql stable as $$
  select nullif(current_setting('request.jwt.claim.email', true), '')::text
$$;

grant usage on schema auth to anon, authenticated, service_role;

create role supabase_auth_admin noinherit nocreaterole login noreplication password :LOGIN_PASSWORD;
grant all privileges on schema auth to supabase_auth_admin;
grant all privileges on all tables in schema auth to supabase_auth_admin;
grant all privileges on all sequences in schema auth to supabase_auth_admin;
alter role supabase_auth_admin set search_path = auth;
alter table auth.users owner to supabase_auth_admin;
alter table auth.refresh_tokens owner to supabase_auth_admin;
alter table auth.audit_log_entries owner to supabase_auth_admin;
alter table auth.instances owner to supabase_auth_admin;
alter table auth.schema_migrations owner to supabase_auth_admin;

-- post-setup
alter role supabase_admin set search_path to "$user", public, auth, extensions;
alter role postgres set search_path to "$user", public, extensions;

create role dashboard_user nosuperuser createdb createrole replication;
grant all on database postgres to dashboard_user;
grant all on schema auth, extensions to dashboard_user;
grant all on all tables in schema auth, extensions to dashboard_user;
grant all on all sequences in schema auth, extensions to dashboard_user;
grant all on all routines in schema auth, extensions to dashboard_user;
