-- The database's security checks, for the going-live check (`npm run doctor` with the service role
-- key), which reaches the database only over the API. They follow the security lints of Supabase's
-- Security Advisor (splinter: rls_disabled_in_public, rls_enabled_no_policy, security_definer_view,
-- function_search_path_mutable) and the project's own rule that no function is callable by a
-- visitor. Each row names a lint and the object; no row means nothing to fix. The tests run
-- splinter itself on the migrated database (tests/backend/supabase-postgres.test.ts).
create function public.security_findings() returns table (lint text, object text)
language sql stable set search_path = ''
as $$
  select 'rls_disabled_in_public', format('%I.%I', n.nspname, c.relname)
    from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relrowsecurity
  union all
  select 'rls_enabled_no_policy', format('%I.%I', n.nspname, c.relname)
    from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
    where n.nspname in ('public', 'private') and c.relkind in ('r', 'p') and c.relrowsecurity
      and not exists (select 1 from pg_catalog.pg_policy p where p.polrelid = c.oid)
  union all
  select 'security_definer_view', format('%I.%I', n.nspname, c.relname)
    from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and c.relkind = 'v'
      and not coalesce(c.reloptions && array['security_invoker=true', 'security_invoker=on', 'security_invoker=1'], false)
  union all
  select 'function_search_path_mutable', format('%I.%I', n.nspname, p.proname)
    from pg_catalog.pg_proc p join pg_catalog.pg_namespace n on n.oid = p.pronamespace
    where n.nspname in ('public', 'private')
      and not exists (select 1 from pg_catalog.pg_depend d where d.objid = p.oid and d.deptype = 'e')
      and not coalesce(exists (select 1 from unnest(p.proconfig) cfg where cfg like 'search_path=%'), false)
  union all
  select 'anon_function_executable', format('%I.%I', n.nspname, p.proname)
    from pg_catalog.pg_proc p join pg_catalog.pg_namespace n on n.oid = p.pronamespace
    where n.nspname in ('public', 'private') and has_function_privilege('anon', p.oid, 'EXECUTE')
  order by 1, 2
$$;

revoke all on function public.security_findings() from public, anon, authenticated, service_role;
grant execute on function public.security_findings() to service_role;
