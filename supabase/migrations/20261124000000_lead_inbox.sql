-- The lead inbox (issue 20): staff read and work the leads, signed in with a second factor.
--
-- Who may do what (tests/backend/inbox-policies.test.ts walks this matrix, role by role):
--   anon            inserts leads (the visitor's columns only, now with landing_path/referrer_path);
--                   reads, changes and calls nothing else.
--   authenticated   sees and changes nothing unless it is on the staff list (private.staff) AND its
--                   session is aal2 (TOTP verified). Staff at aal2 read both lead tables, the view
--                   public.inbox_leads and the history public.lead_events, change `status` (and only
--                   that column), delete leads, and call the inbox RPCs. Non-staff and aal1 sessions
--                   get no rows from the tables and a refusal (42501) from the RPCs.
--   service_role    what it had on the lead tables, read-only on the history, the notification RPCs
--                   and the staff list RPCs (`npm run staff`, the edge function).
-- Nobody writes the history directly: triggers and two functions (owner-run) write it.
--
-- Runs on Supabase (Postgres 15+: security_invoker views) and on PGlite (supabase-standin/database.ts;
-- auth.uid(), auth.jwt() and auth.users come from supabase-standin/authSchema.ts there).

-- 1. Types: one source in SQL for the statuses and for a path of the site.

create domain public.lead_status as text
  constraint lead_status_known check (value in ('new', 'contacted', 'quoted', 'booked', 'lost', 'spam'));

comment on domain public.lead_status is 'Where a lead stands; staff/inbox/model.ts LEAD_STATUSES lists the same values.';

-- The rule of discount_leads.page (leadRules.ts SITE_PATH_PATTERN): a path of this site, never a
-- full URL (another site's address is none of our business) nor a query string (it may carry
-- personal data or tracking ids).
create domain public.site_path as text
  constraint site_path_format check (
    char_length(value) <= 200
    and value ~ '^/([a-z0-9]+(-[a-z0-9]+)*(/[a-z0-9]+(-[a-z0-9]+)*)*)?$'
  );

comment on domain public.site_path is 'A path of this site (leadRules.ts SITE_PATH_PATTERN), at most 200 characters.';

-- 2. The staff list: only the owner (and the service role, through staff_add/staff_remove) changes it.
--    In schema private, which PostgREST does not expose.
create table private.staff (
  user_id uuid primary key references auth.users (id) on delete cascade,
  email text not null check (char_length(email) between 3 and 254),
  added_at timestamptz not null default now()
);

comment on table private.staff is 'Who may use the lead inbox (with a second factor). Change it with npm run staff or the staff_* functions.';

-- RLS on and no policy: nobody but the owner (and security definer functions it owns) reads it,
-- even if a grant slipped in.
alter table private.staff enable row level security;
revoke all on table private.staff from public, anon, authenticated, service_role;

-- Functions created in private from now on are not executable by everyone by default (Postgres
-- grants EXECUTE to PUBLIC otherwise); authenticated gets USAGE on private below, for the policy check.
alter default privileges in schema private revoke execute on functions from public;

-- 3. The lead tables' new columns.
alter table public.leads
  add column status public.lead_status not null default 'new',
  add column first_response_at timestamptz,
  add column notify_failed_at timestamptz,
  -- where the visit began and the page the visitor came to /contact from (issue 20: "which city
  -- and service pages bring work"); page keeps the spec's value 'contact'
  add column landing_path public.site_path,
  add column referrer_path public.site_path;

alter table public.discount_leads
  add column status public.lead_status not null default 'new',
  add column first_response_at timestamptz,
  add column notify_failed_at timestamptz,
  add column landing_path public.site_path,
  add column referrer_path public.site_path;

-- The list pages newest first, optionally by status; "still new" counts use the same index.
create index leads_status_created_at_idx on public.leads (status, created_at desc);
create index discount_leads_status_created_at_idx on public.discount_leads (status, created_at desc);

-- The visitor's two new columns, nothing else (status, first_response_at, ... stay server-set).
grant insert (landing_path, referrer_path) on table public.leads to anon;
grant insert (landing_path, referrer_path) on table public.discount_leads to anon;

-- 4. The history. No foreign key: the 'deleted' event outlives the lead.
create table public.lead_events (
  id bigint generated always as identity primary key,
  at timestamptz not null default now(),
  lead_kind text check (lead_kind in ('quote', 'discount')),
  lead_id uuid,
  actor uuid,
  actor_email text check (char_length(actor_email) <= 320),
  action text not null check (action in ('status', 'note', 'deleted', 'exported', 'notify_failed')),
  from_status public.lead_status,
  to_status public.lead_status,
  -- trimmed and never blank (the lead_text rule), so a note is either there or null
  note public.lead_text check (char_length(note) <= 2000),
  detail jsonb,
  -- an export concerns no one lead; every other event concerns exactly one
  constraint lead_events_lead check ((action = 'exported') = (lead_kind is null and lead_id is null)),
  -- (no "a note event has a note": deleting a lead on request empties its notes)
  constraint lead_events_status check (action <> 'status' or (from_status is not null and to_status is not null))
);

comment on table public.lead_events is 'Who changed which lead, when, with which note; written only by triggers and owner functions.';

-- A lead's history, and the delete trigger's clean-up of its notes.
create index lead_events_lead_idx on public.lead_events (lead_kind, lead_id, at);

-- 5. Everything staff see, both kinds in one list. security_invoker: the caller's grants and
--    row-level security on the tables apply, not the view owner's.
create view public.inbox_leads with (security_invoker = true) as
  select 'quote'::text as kind, l.id, l.created_at, l.status, l.first_name::text as first_name,
         l.last_name::text as last_name, l.email, l.phone::text as phone, l.message::text as message,
         l.page, l.landing_path, l.referrer_path, l.notified_at, l.notify_failed_at, l.first_response_at
    from public.leads l
  union all
  select 'discount'::text, d.id, d.created_at, d.status, null::text, null::text, d.email, d.phone::text,
         null::text, d.page, d.landing_path, d.referrer_path, d.notified_at, d.notify_failed_at,
         d.first_response_at
    from public.discount_leads d;

comment on view public.inbox_leads is 'Quote requests and discount sign-ups in one list (staff at aal2 only, through RLS on the tables).';

-- 6. The staff check. security definer, so that it may read private.staff, which nobody else can;
--    in private (not exposed as an RPC) with USAGE on the schema granted to authenticated, who
--    evaluates the policies. Every other object in private stays refused: no grants on its
--    tables, EXECUTE revoked from its functions.
create function private.is_staff() returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (select 1 from private.staff s where s.user_id = (select auth.uid()))
$$;

comment on function private.is_staff is 'True when the signed-in user is on the staff list (RLS policies and the inbox RPCs).';

-- The inbox RPCs refuse (rather than answer empty) a session that may not use the inbox, so the
-- page can tell "sign in with your code" and "not on the staff list" apart. Same rule as the policies.
create function private.require_staff() returns void
language plpgsql
stable
set search_path = ''
as $$
begin
  if (select auth.jwt() ->> 'aal') is distinct from 'aal2' then
    raise exception using
      errcode = '42501',
      message = 'The lead inbox needs a session verified with the second factor (aal2)';
  end if;
  if not private.is_staff() then
    raise exception using
      errcode = '42501',
      message = 'This account is not on the staff list';
  end if;
end
$$;

revoke all on function private.is_staff() from public, anon, authenticated, service_role;
revoke all on function private.require_staff() from public, anon, authenticated, service_role;
grant usage on schema private to authenticated;
grant execute on function private.is_staff() to authenticated;
grant execute on function private.require_staff() to authenticated;

-- 7. Row-level security, as Supabase documents it: a restrictive policy requires aal2 for every
--    authenticated request, permissive policies let staff in. anon keeps its insert policies.
create policy "Inbox needs a second factor" on public.leads
  as restrictive to authenticated
  using ((select auth.jwt() ->> 'aal') = 'aal2');
create policy "Staff read quote leads" on public.leads
  for select to authenticated using ((select private.is_staff()));
create policy "Staff change quote leads" on public.leads
  for update to authenticated using ((select private.is_staff())) with check ((select private.is_staff()));
create policy "Staff delete quote leads" on public.leads
  for delete to authenticated using ((select private.is_staff()));

create policy "Inbox needs a second factor" on public.discount_leads
  as restrictive to authenticated
  using ((select auth.jwt() ->> 'aal') = 'aal2');
create policy "Staff read discount leads" on public.discount_leads
  for select to authenticated using ((select private.is_staff()));
create policy "Staff change discount leads" on public.discount_leads
  for update to authenticated using ((select private.is_staff())) with check ((select private.is_staff()));
create policy "Staff delete discount leads" on public.discount_leads
  for delete to authenticated using ((select private.is_staff()));

alter table public.lead_events enable row level security;
create policy "Inbox needs a second factor" on public.lead_events
  as restrictive to authenticated
  using ((select auth.jwt() ->> 'aal') = 'aal2');
create policy "Staff read the history" on public.lead_events
  for select to authenticated using ((select private.is_staff()));

-- 8. Grants. New public tables, views and sequences are granted to anon and authenticated by
--    default (on Supabase and in the local bootstrap): take that back, then grant what the
--    policies above are for.
revoke all on table public.lead_events, public.inbox_leads from public, anon, authenticated, service_role;
revoke all on sequence public.lead_events_id_seq from public, anon, authenticated, service_role;

grant select on table public.leads, public.discount_leads, public.lead_events, public.inbox_leads to authenticated;
grant update (status) on table public.leads, public.discount_leads to authenticated; -- notes go through set_lead_status
grant delete on table public.leads, public.discount_leads to authenticated;           -- deleting on request (CCPA)
-- The service role reads the history; it never edits it.
grant select on table public.lead_events, public.inbox_leads to service_role;

-- 9. History: the ONE place that records status changes and notes, whoever makes them (the RPC,
--    a PATCH through the REST API, the owner in the dashboard), and derives first_response_at from them.
--    security definer: nobody may insert into lead_events directly.
create function private.record_lead_change() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_kind text := case tg_table_name when 'leads' then 'quote' else 'discount' end;
  -- set_lead_status passes its note this way (transaction-local), so the note lands in the same event
  v_note text := nullif(current_setting('inbox.note', true), '');
begin
  -- The first response time follows the history; a hand-made value would let the figures drift.
  new.first_response_at := old.first_response_at;
  if new.status is distinct from old.status then
    if old.first_response_at is null and new.status in ('contacted', 'quoted', 'booked') then
      new.first_response_at := now();
    end if;
    insert into public.lead_events (lead_kind, lead_id, actor, actor_email, action, from_status, to_status, note)
      values (v_kind, old.id, auth.uid(), auth.jwt() ->> 'email', 'status', old.status, new.status, v_note);
  elsif v_note is not null then
    insert into public.lead_events (lead_kind, lead_id, actor, actor_email, action, note)
      values (v_kind, old.id, auth.uid(), auth.jwt() ->> 'email', 'note', v_note);
  end if;
  if new.notify_failed_at is not null and new.notify_failed_at is distinct from old.notify_failed_at then
    insert into public.lead_events (lead_kind, lead_id, actor, actor_email, action)
      values (v_kind, old.id, auth.uid(), auth.jwt() ->> 'email', 'notify_failed');
  end if;
  return new;
end
$$;

-- Deleting on a person's request: their notes go, and the history keeps only that a lead was
-- deleted, by whom and when (the lead's id is no personal data once the row is gone).
create function private.record_lead_deletion() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_kind text := case tg_table_name when 'leads' then 'quote' else 'discount' end;
begin
  update public.lead_events set note = null
    where lead_kind = v_kind and lead_id = old.id and note is not null;
  insert into public.lead_events (lead_kind, lead_id, actor, actor_email, action)
    values (v_kind, old.id, auth.uid(), auth.jwt() ->> 'email', 'deleted');
  return old;
end
$$;

revoke all on function private.record_lead_change() from public, anon, authenticated, service_role;
revoke all on function private.record_lead_deletion() from public, anon, authenticated, service_role;

create trigger leads_record_change
  before update on public.leads
  for each row execute function private.record_lead_change();
create trigger discount_leads_record_change
  before update on public.discount_leads
  for each row execute function private.record_lead_change();
create trigger leads_record_deletion
  after delete on public.leads
  for each row execute function private.record_lead_deletion();
create trigger discount_leads_record_deletion
  after delete on public.discount_leads
  for each row execute function private.record_lead_deletion();

-- 10. The inbox RPCs (staff at aal2; security invoker, so row-level security applies as well).

-- A status change with an optional note, or (p_status null) a note alone. The trigger above writes
-- the event; this function only checks the input and hands the note over.
create function public.set_lead_status(p_kind text, p_id uuid, p_status text, p_note text default null)
returns public.inbox_leads
language plpgsql
set search_path = ''
as $$
declare
  v_note text;
  v_lead public.inbox_leads;
begin
  perform private.require_staff();
  if p_kind is null or p_kind not in ('quote', 'discount') then
    raise exception using errcode = '22023', message = 'p_kind must be quote or discount';
  end if;
  if p_id is null then
    raise exception using errcode = '22023', message = 'p_id is required';
  end if;
  perform p_status::public.lead_status; -- refuses an unknown status (23514)
  -- Trimmed as the forms trim (the lead_text characters); blank means no note.
  v_note := nullif(regexp_replace(p_note,
    '^[\u0009-\u000d\u0020\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+|[\u0009-\u000d\u0020\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+$',
    '', 'g'), '');
  if char_length(v_note) > 2000 then
    raise exception using errcode = '22023', message = 'A note is at most 2000 characters';
  end if;
  if p_status is null and v_note is null then
    raise exception using errcode = '22023', message = 'Give a new status, a note, or both';
  end if;

  perform set_config('inbox.note', coalesce(v_note, ''), true);
  if p_kind = 'quote' then
    update public.leads set status = coalesce(p_status, status) where id = p_id;
  else
    update public.discount_leads set status = coalesce(p_status, status) where id = p_id;
  end if;
  if not found then
    raise exception using errcode = 'P0002', message = 'No such lead';
  end if;
  -- The note belongs to this change only, not to a later update in the same transaction.
  perform set_config('inbox.note', '', true);

  select * into v_lead from public.inbox_leads where kind = p_kind and id = p_id;
  return v_lead;
end
$$;

-- The WHERE clause of search_leads and count_leads (one place for the filters and their checks).
-- Values are quoted into the text with %L, so every call is planned with its own values and the
-- status/created_at indexes serve it.
create function private.lead_filter(p_status text, p_kind text, p_from timestamptz, p_to timestamptz, p_query text)
returns text
language plpgsql
stable
set search_path = ''
as $$
declare
  v_where text[] := array['true'];
  v_query text := btrim(p_query);
  v_digits text;
begin
  if p_status is not null then
    perform p_status::public.lead_status; -- refuses an unknown status (23514)
    v_where := v_where || format('l.status = %L', p_status);
  end if;
  if p_kind is not null then
    if p_kind not in ('quote', 'discount') then
      raise exception using errcode = '22023', message = 'p_kind must be quote or discount';
    end if;
    v_where := v_where || format('l.kind = %L', p_kind);
  end if;
  if p_from is not null then
    v_where := v_where || format('l.created_at >= %L::timestamptz', p_from);
  end if;
  if p_to is not null then
    -- inclusive: the inbox passes the end of the last day it shows
    v_where := v_where || format('l.created_at <= %L::timestamptz', p_to);
  end if;
  if char_length(p_query) > 200 then
    raise exception using errcode = '22023', message = 'A search is at most 200 characters';
  end if;
  if v_query <> '' then
    -- A case-insensitive substring of name, email, phone or message; % _ and \ in the search are
    -- literal characters, not wildcards.
    v_where := v_where || format(
      '(concat_ws(%L, l.first_name, l.last_name) ilike %2$L or l.email ilike %2$L or l.phone ilike %2$L or l.message ilike %2$L',
      ' ', '%' || replace(replace(replace(v_query, '\', '\\'), '%', '\%'), '_', '\_') || '%');
    -- "4085550199" finds "(408) 555-0199": phone searches compare digits only.
    v_digits := regexp_replace(v_query, '[^0-9]', '', 'g');
    if v_query ~ '^[0-9 ()+./-]+$' and char_length(v_digits) >= 3 then
      v_where[array_length(v_where, 1)] := v_where[array_length(v_where, 1)]
        || format(' or regexp_replace(l.phone, %L, %L, %L) like %L', '[^0-9]', '', 'g', '%' || v_digits || '%');
    end if;
    v_where[array_length(v_where, 1)] := v_where[array_length(v_where, 1)] || ')';
  end if;
  return array_to_string(v_where, ' and ');
end
$$;

revoke all on function private.lead_filter(text, text, timestamptz, timestamptz, text) from public, anon, authenticated, service_role;
grant execute on function private.lead_filter(text, text, timestamptz, timestamptz, text) to authenticated;

-- One page of the list, newest first (offset paging; p_limit at most 200 rows).
create function public.search_leads(
  p_status text default null,
  p_kind text default null,
  p_from timestamptz default null,
  p_to timestamptz default null,
  p_query text default null,
  p_limit integer default 50,
  p_offset integer default 0
) returns setof public.inbox_leads
language plpgsql
stable
set search_path = ''
as $$
begin
  perform private.require_staff();
  if p_limit is null or p_limit not between 1 and 200 then
    raise exception using errcode = '22023', message = 'p_limit must be between 1 and 200';
  end if;
  if p_offset is null or p_offset < 0 then
    raise exception using errcode = '22023', message = 'p_offset must be 0 or more';
  end if;
  return query execute
    'select l.* from public.inbox_leads l where '
    || private.lead_filter(p_status, p_kind, p_from, p_to, p_query)
    || ' order by l.created_at desc, l.id desc limit $1 offset $2'
    using p_limit, p_offset;
end
$$;

-- How many leads the same filters match (the list's "n leads" and the export's size).
create function public.count_leads(
  p_status text default null,
  p_kind text default null,
  p_from timestamptz default null,
  p_to timestamptz default null,
  p_query text default null
) returns bigint
language plpgsql
stable
set search_path = ''
as $$
declare
  v_count bigint;
begin
  perform private.require_staff();
  execute 'select count(*) from public.inbox_leads l where '
    || private.lead_filter(p_status, p_kind, p_from, p_to, p_query)
    into v_count;
  return v_count;
end
$$;

-- The figures of the inbox's header: the 24-hour promise and the last 12 weeks by source page.
create function public.inbox_stats() returns jsonb
language plpgsql
stable
set search_path = ''
as $$
declare
  v_now timestamptz := now();
  -- Monday 00:00 UTC of this week (date_trunc's weeks are ISO weeks: they start on Monday)
  v_this_week timestamp := date_trunc('week', v_now at time zone 'UTC');
  v_first_week timestamp := v_this_week - interval '11 weeks';
  v_result jsonb;
begin
  perform private.require_staff();
  select jsonb_build_object(
    'new', count(*),
    -- the same boundaries as the list's marks (staff/inbox/time.ts promiseState): 20 h and 24 h old count
    'dueSoon', count(*) filter (where l.created_at <= v_now - interval '20 hours' and l.created_at > v_now - interval '24 hours'),
    'overdue', count(*) filter (where l.created_at <= v_now - interval '24 hours'))
    into v_result
    from public.inbox_leads l where l.status = 'new';

  v_result := v_result || jsonb_build_object(
    'medianResponseSeconds', (
      select percentile_cont(0.5) within group (order by extract(epoch from l.first_response_at - l.created_at))
        from public.inbox_leads l
        where l.created_at > v_now - interval '30 days' and l.first_response_at is not null),
    -- failed notifications that still need someone's attention
    'notifyFailed', (
      select count(*) from public.inbox_leads l where l.notify_failed_at is not null and l.status = 'new'),
    'weeks', (
      with weeks as (
        select w as week from generate_series(v_first_week, v_this_week, interval '1 week') as w
      ), recent as (
        select date_trunc('week', l.created_at at time zone 'UTC') as week, l.status,
               coalesce(l.landing_path, l.referrer_path, case when l.kind = 'discount' then l.page end, '/contact') as source
          from public.inbox_leads l
          where l.created_at >= v_first_week at time zone 'UTC'
      ), by_source as (
        select week, source, count(*) as n from recent group by week, source
      )
      select jsonb_agg(jsonb_build_object(
               'week', to_char(w.week, 'YYYY-MM-DD'),
               'total', (select count(*) from recent r where r.week = w.week),
               'booked', (select count(*) from recent r where r.week = w.week and r.status = 'booked'),
               'sources', coalesce((select jsonb_object_agg(s.source, s.n) from by_source s where s.week = w.week), '{}'::jsonb))
             order by w.week)
        from weeks w));
  return v_result;
end
$$;

-- The export leaves a trace: how many leads, which filters. Only the filters' known keys are kept,
-- and a search text only as "there was one": it is often a person's name, which the history must
-- not keep after that person's lead is deleted. security definer: nobody writes lead_events directly.
create function public.log_export(p_count integer, p_filters jsonb) returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_filters jsonb := '{}'::jsonb;
  v_key text;
begin
  perform private.require_staff();
  if p_count is null or p_count < 0 or p_count > 1000000 then
    raise exception using errcode = '22023', message = 'p_count must be between 0 and 1000000';
  end if;
  if p_filters is not null and jsonb_typeof(p_filters) <> 'object' then
    raise exception using errcode = '22023', message = 'p_filters must be an object';
  end if;
  foreach v_key in array array['status', 'kind', 'from', 'to'] loop
    if jsonb_typeof(p_filters -> v_key) = 'string' and char_length(p_filters ->> v_key) <= 40 then
      v_filters := v_filters || jsonb_build_object(v_key, p_filters ->> v_key);
    end if;
  end loop;
  if coalesce(p_filters -> 'search', p_filters -> 'query') is not null then
    v_filters := v_filters || jsonb_build_object('search',
      coalesce(p_filters -> 'search', p_filters -> 'query') not in ('false'::jsonb, 'null'::jsonb, '""'::jsonb));
  end if;
  insert into public.lead_events (actor, actor_email, action, detail)
    values (auth.uid(), auth.jwt() ->> 'email', 'exported', jsonb_build_object('count', p_count, 'filters', v_filters));
end
$$;

-- 11. Service role only: notify-telegram and `npm run staff`.

-- notify-telegram's claim, now saying which lead it claimed (the message links to it in the inbox).
-- The same rules as claim_lead_notification (20261123000000): the 'notify' rate limit, the newest
-- matching lead of the last ten minutes not yet notified, marked in the same statement.
create function public.claim_lead_for_notification(
  p_client text,
  p_page text,
  p_email text,
  p_phone text,
  p_first_name text default null,
  p_last_name text default null,
  p_message text default null
) returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_claimed uuid;
begin
  perform private.take_rate_limit('notify', coalesce(p_client, ''));
  if p_page = 'contact' then
    update public.leads set notified_at = now()
      where id = (
        select id from public.leads
          where page = p_page and email = p_email and phone = p_phone
            and first_name = p_first_name and last_name = p_last_name and message = p_message
            and notified_at is null and created_at > now() - interval '10 minutes'
          order by created_at desc
          limit 1
          for update skip locked)
      returning id into v_claimed;
    return case when v_claimed is not null then jsonb_build_object('kind', 'quote', 'id', v_claimed) end;
  end if;
  update public.discount_leads set notified_at = now()
    where id = (
      select id from public.discount_leads
        where page = p_page and email = p_email and phone = p_phone
          and notified_at is null and created_at > now() - interval '10 minutes'
        order by created_at desc
        limit 1
        for update skip locked)
    returning id into v_claimed;
  return case when v_claimed is not null then jsonb_build_object('kind', 'discount', 'id', v_claimed) end;
end
$$;

-- The old claim (the deployed function calls it until it is redeployed) is now the new one, so
-- the two cannot drift apart.
create or replace function public.claim_lead_notification(
  p_client text,
  p_page text,
  p_email text,
  p_phone text,
  p_first_name text default null,
  p_last_name text default null,
  p_message text default null
) returns boolean
language sql
security definer
set search_path = ''
as $$
  select public.claim_lead_for_notification(p_client, p_page, p_email, p_phone, p_first_name, p_last_name, p_message) is not null
$$;

-- Telegram refused the message: the inbox says so (the trigger records the 'notify_failed' event).
create function public.record_notification_failure(p_kind text, p_id uuid) returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  if p_kind is null or p_kind not in ('quote', 'discount') then
    raise exception using errcode = '22023', message = 'p_kind must be quote or discount';
  end if;
  if p_kind = 'quote' then
    update public.leads set notify_failed_at = now() where id = p_id;
  else
    update public.discount_leads set notify_failed_at = now() where id = p_id;
  end if;
  if not found then
    raise exception using errcode = 'P0002', message = 'No such lead';
  end if;
end
$$;

-- The staff list. The user must exist in auth.users and p_email must be that user's address (a
-- label that matches the account, so `npm run staff -- list` tells the truth).
create function public.staff_add(p_user_id uuid, p_email text) returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  if p_user_id is null or p_email is null or char_length(p_email) > 254 then
    raise exception using errcode = '22023', message = 'staff_add needs a user id and an email of at most 254 characters';
  end if;
  if not exists (select 1 from auth.users u where u.id = p_user_id and lower(u.email) = lower(p_email)) then
    raise exception using errcode = '22023', message = 'No user with this id and email';
  end if;
  insert into private.staff (user_id, email) values (p_user_id, p_email)
    on conflict (user_id) do update set email = excluded.email;
end
$$;

create function public.staff_remove(p_user_id uuid) returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  delete from private.staff where user_id = p_user_id;
  if not found then
    raise exception using errcode = 'P0002', message = 'Not on the staff list';
  end if;
end
$$;

create function public.staff_list() returns table (user_id uuid, email text, added_at timestamptz)
language sql
stable
security definer
set search_path = ''
as $$
  select s.user_id, s.email, s.added_at from private.staff s order by s.added_at, s.email
$$;

-- 12. Who may call what. Postgres grants EXECUTE to PUBLIC, and Supabase (and the local bootstrap)
--     to anon and authenticated by default: revoke all, grant to the one role each is for.
revoke all on function public.set_lead_status(text, uuid, text, text) from public, anon, authenticated, service_role;
revoke all on function public.search_leads(text, text, timestamptz, timestamptz, text, integer, integer) from public, anon, authenticated, service_role;
revoke all on function public.count_leads(text, text, timestamptz, timestamptz, text) from public, anon, authenticated, service_role;
revoke all on function public.inbox_stats() from public, anon, authenticated, service_role;
revoke all on function public.log_export(integer, jsonb) from public, anon, authenticated, service_role;
revoke all on function public.claim_lead_for_notification(text, text, text, text, text, text, text) from public, anon, authenticated, service_role;
revoke all on function public.claim_lead_notification(text, text, text, text, text, text, text) from public, anon, authenticated, service_role;
revoke all on function public.record_notification_failure(text, uuid) from public, anon, authenticated, service_role;
revoke all on function public.staff_add(uuid, text) from public, anon, authenticated, service_role;
revoke all on function public.staff_remove(uuid) from public, anon, authenticated, service_role;
revoke all on function public.staff_list() from public, anon, authenticated, service_role;

grant execute on function public.set_lead_status(text, uuid, text, text) to authenticated;
grant execute on function public.search_leads(text, text, timestamptz, timestamptz, text, integer, integer) to authenticated;
grant execute on function public.count_leads(text, text, timestamptz, timestamptz, text) to authenticated;
grant execute on function public.inbox_stats() to authenticated;
grant execute on function public.log_export(integer, jsonb) to authenticated;

grant execute on function public.claim_lead_for_notification(text, text, text, text, text, text, text) to service_role;
grant execute on function public.claim_lead_notification(text, text, text, text, text, text, text) to service_role;
grant execute on function public.record_notification_failure(text, uuid) to service_role;
grant execute on function public.staff_add(uuid, text) to service_role;
grant execute on function public.staff_remove(uuid) to service_role;
grant execute on function public.staff_list() to service_role;
