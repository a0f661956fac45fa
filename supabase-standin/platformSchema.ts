/**
 * The three platform pieces of a Supabase project that the scheduled lead delivery run uses
 * (migration 20261126000000), as the local stand-in provides them on PGlite, which has none of them:
 * - `cron`: pg_cron's cron.schedule / cron.unschedule and its tables cron.job and
 *   cron.job_run_details, with pg_cron's names and columns; scheduler.ts runs the jobs;
 * - `net`: pg_net's net.http_post, which queues a request in net.http_request_queue as pg_net does,
 *   and net._http_response; scheduler.ts sends the queued requests (pg_net's background worker);
 * - `vault`: Supabase Vault's vault.create_secret, vault.update_secret and vault.decrypted_secrets.
 *   Here the secret is stored as it is (PGlite has no libsodium): the local database is the
 *   developer's own, and its only secrets are local ones (backend.ts puts the stand-in's own address
 *   in 'project_url'; the migration makes 'lead_delivery_secret').
 * None of these schemas is exposed or granted to the API roles, as on Supabase. Runs before the
 * migrations at every start; every statement is idempotent.
 */
/** pg_cron's SQL surface (the real one on Supabase and on the tests' PostgreSQL). */
export const CRON_SQL = `
CREATE SCHEMA IF NOT EXISTS cron;
CREATE TABLE IF NOT EXISTS cron.job (
  jobid bigserial PRIMARY KEY,
  schedule text NOT NULL,
  command text NOT NULL,
  nodename text NOT NULL DEFAULT 'localhost',
  nodeport integer NOT NULL DEFAULT 5432,
  database text NOT NULL DEFAULT current_database(),
  username text NOT NULL DEFAULT current_user,
  active boolean NOT NULL DEFAULT true,
  jobname text UNIQUE
);
CREATE TABLE IF NOT EXISTS cron.job_run_details (
  jobid bigint,
  runid bigserial PRIMARY KEY,
  job_pid integer,
  database text,
  username text,
  command text,
  status text,
  return_message text,
  start_time timestamptz,
  end_time timestamptz
);
CREATE OR REPLACE FUNCTION cron.schedule(job_name text, schedule text, command text) RETURNS bigint
LANGUAGE sql AS $$
  INSERT INTO cron.job (jobname, schedule, command) VALUES (job_name, schedule, command)
  ON CONFLICT (jobname) DO UPDATE SET schedule = excluded.schedule, command = excluded.command, active = true
  RETURNING jobid
$$;
CREATE OR REPLACE FUNCTION cron.unschedule(job_name text) RETURNS boolean
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM cron.job WHERE jobname = job_name;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'could not find valid entry for job ''%''', job_name;
  END IF;
  RETURN true;
END
$$;
`;

/** pg_net's SQL surface: requests are queued as pg_net queues them; someone else sends them. */
export const NET_SQL = `
CREATE SCHEMA IF NOT EXISTS net;
CREATE TABLE IF NOT EXISTS net.http_request_queue (
  id bigserial PRIMARY KEY,
  method text NOT NULL,
  url text NOT NULL,
  headers jsonb NOT NULL,
  body bytea,
  timeout_milliseconds integer NOT NULL
);
CREATE TABLE IF NOT EXISTS net._http_response (
  id bigint,
  status_code integer,
  content_type text,
  headers jsonb,
  content text,
  timed_out boolean,
  error_msg text,
  created timestamptz NOT NULL DEFAULT now()
);
CREATE OR REPLACE FUNCTION net.http_post(
  url text,
  body jsonb DEFAULT '{}'::jsonb,
  params jsonb DEFAULT '{}'::jsonb,
  headers jsonb DEFAULT '{"Content-Type": "application/json"}'::jsonb,
  timeout_milliseconds integer DEFAULT 5000
) RETURNS bigint
LANGUAGE sql AS $$
  INSERT INTO net.http_request_queue (method, url, headers, body, timeout_milliseconds)
  VALUES ('POST', url, headers, convert_to(body::text, 'UTF8'), timeout_milliseconds)
  RETURNING id
$$;
`;

/** Supabase Vault's SQL surface, the secret stored as it is. */
export const VAULT_SQL = `
CREATE SCHEMA IF NOT EXISTS vault;
CREATE TABLE IF NOT EXISTS vault.secrets (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text UNIQUE,
  description text NOT NULL DEFAULT '',
  secret text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE OR REPLACE VIEW vault.decrypted_secrets AS
  SELECT id, name, description, secret, secret AS decrypted_secret, created_at, updated_at FROM vault.secrets;
CREATE OR REPLACE FUNCTION vault.create_secret(new_secret text, new_name text DEFAULT NULL, new_description text DEFAULT '', new_key_id uuid DEFAULT NULL)
RETURNS uuid LANGUAGE sql AS $$
  INSERT INTO vault.secrets (secret, name, description) VALUES (new_secret, new_name, coalesce(new_description, '')) RETURNING id
$$;
CREATE OR REPLACE FUNCTION vault.update_secret(secret_id uuid, new_secret text DEFAULT NULL, new_name text DEFAULT NULL, new_description text DEFAULT NULL, new_key_id uuid DEFAULT NULL)
RETURNS void LANGUAGE sql AS $$
  UPDATE vault.secrets SET secret = coalesce(new_secret, secret), name = coalesce(new_name, name),
    description = coalesce(new_description, description), updated_at = now()
  WHERE id = secret_id
$$;
`;

export const PLATFORM_SCHEMA_SQL = `
${CRON_SQL}
${NET_SQL}
${VAULT_SQL}
REVOKE ALL ON SCHEMA cron, net, vault FROM PUBLIC;
REVOKE ALL ON ALL TABLES IN SCHEMA cron, net, vault FROM PUBLIC, anon, authenticated, service_role;
REVOKE ALL ON ALL FUNCTIONS IN SCHEMA cron, net, vault FROM PUBLIC, anon, authenticated, service_role;
`;
