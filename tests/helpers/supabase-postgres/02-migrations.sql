-- Supabase's own migrations of its image, as they bear on the project's migrations: the net effect
-- of migrations/db/migrations/*.sql of supabase/postgres, run as supabase_admin (migrate.sh runs
-- them so, after the init scripts). Written for these tests; it follows, without copying:
--
--   10000000000000_demote-postgres.sql                    (commit 35d889e382b07f46eaa6f1d28f2e25f93171f93f)
--   20211115181400_update-auth-permissions.sql            (commit 7db7e1a9e34b9ffb9b0e3372ccf08eb4fa772f4b)
--   20211124212715_update-auth-owner.sql                  (commit 7db7e1a9e34b9ffb9b0e3372ccf08eb4fa772f4b)
--   20220322085208_gotrue-session-limit.sql               (commit 7db7e1a9e34b9ffb9b0e3372ccf08eb4fa772f4b)
--   20221028101028_set_authenticator_timeout.sql          (commit 7db7e1a9e34b9ffb9b0e3372ccf08eb4fa772f4b)
--   20221103090837_revoke_admin.sql                       (commit 7db7e1a9e34b9ffb9b0e3372ccf08eb4fa772f4b)
--   20230201083204_grant_auth_roles_to_postgres.sql       (commit 7db7e1a9e34b9ffb9b0e3372ccf08eb4fa772f4b)
--   20230224042246_grant_extensions_perms_for_postgres.sql (commit 7db7e1a9e34b9ffb9b0e3372ccf08eb4fa772f4b)
--   20230306081037_grant_pg_monitor_to_postgres.sql       (commit 7db7e1a9e34b9ffb9b0e3372ccf08eb4fa772f4b)
--   20230529180330_alter_api_roles_for_inherit.sql        (commit 7db7e1a9e34b9ffb9b0e3372ccf08eb4fa772f4b)
--   20231130133139_set_lock_timeout_to_authenticator_role.sql (commit 7db7e1a9e34b9ffb9b0e3372ccf08eb4fa772f4b)
--   20240606060239_grant_predefined_roles_to_postgres.sql (commit 7db7e1a9e34b9ffb9b0e3372ccf08eb4fa772f4b)
--   20250421084701_revoke_admin_roles_from_postgres.sql   (commit 96d8873887e1ec3b668629884d0d53380b2e2145)
--   20251121141100_supabase_auth_admin_db_grants.sql      (commit aca19b4aae6bf93e7ba1a3887a99da0c14bffede)
--   20251215120934_supabase_superuser.sql                 (commit 38ec65d5c9b7f8af6de8ab5881df24b3664cbbd8)
--   20260821154147_revoke_createrole_from_auth_admin.sql  (commit 853417021f98731caff68851d62f3847ae00d74a)
--
-- Net effects only: 20220609081115 granted supabase_auth_admin to postgres and 20250421084701
-- revoked it again, so neither is here (postgres is NOT a member of supabase_auth_admin and owns
-- nothing in auth). Left out: realtime, storage, graphql_public and pg_graphql, pg_cron, pg_net,
-- pgsodium / supabase_vault (20221207154255; also its grant of pgsodium_keyholder to service_role),
-- the PostgREST reload event triggers, session_preload_libraries (supautils and safeupdate are not
-- packaged by Debian; 20220118070449, 20220224211803, 20261010094800), lo_import/lo_export owners,
-- PG16+ only grants (20250605172253), orioledb, pgmq, the subscription schema.

-- demote postgres
grant all on database postgres to postgres;
grant all on schema auth, extensions to postgres;
grant all on all tables in schema auth, extensions to postgres;
grant all on all sequences in schema auth, extensions to postgres;
grant all on all routines in schema auth, extensions to postgres;
alter role postgres nosuperuser createdb createrole login replication bypassrls;

-- auth permissions: supabase_auth_admin owns the auth tables; postgres and dashboard_user get every
-- privilege on them (and on what supabase_auth_admin creates there later) but own none
grant all privileges on schema auth to supabase_auth_admin;
grant all privileges on all tables in schema auth to supabase_auth_admin;
grant all privileges on all sequences in schema auth to supabase_auth_admin;
grant usage on schema auth to postgres;
grant all on all tables in schema auth to postgres, dashboard_user;
grant all on all sequences in schema auth to postgres, dashboard_user;
grant all on all routines in schema auth to postgres, dashboard_user;
alter default privileges for role supabase_auth_admin in schema auth grant all on tables to postgres, dashboard_user;
alter default privileges for role supabase_auth_admin in schema auth grant all on sequences to postgres, dashboard_user;
alter default privileges for role supabase_auth_admin in schema auth grant all on routines to postgres, dashboard_user;

alter function auth.uid() owner to supabase_auth_admin;
alter function auth.role() owner to supabase_auth_admin;
alter function auth.email() owner to supabase_auth_admin;

alter role supabase_auth_admin set idle_in_transaction_session_timeout to 60000;
alter role authenticator set statement_timeout = '8s';
alter role authenticator set lock_timeout to '8s';
revoke supabase_admin from authenticator;

grant anon, authenticated, service_role to postgres;

grant all privileges on all tables in schema extensions to postgres with grant option;
grant all privileges on all routines in schema extensions to postgres with grant option;
grant all privileges on all sequences in schema extensions to postgres with grant option;
alter default privileges in schema extensions grant all on tables to postgres with grant option;
alter default privileges in schema extensions grant all on routines to postgres with grant option;
alter default privileges in schema extensions grant all on sequences to postgres with grant option;

grant pg_monitor to postgres;
grant pg_read_all_data, pg_signal_backend to postgres;

alter role authenticated inherit;
alter role anon inherit;
alter role service_role inherit;

-- postgres may no longer create in auth nor touch Supabase Auth's migration history
revoke create on schema auth from postgres;
revoke all on auth.schema_migrations from dashboard_user, postgres;

grant create on database postgres to supabase_auth_admin;
alter role supabase_auth_admin nocreaterole;

create role supabase_superuser;
grant supabase_superuser to postgres;
