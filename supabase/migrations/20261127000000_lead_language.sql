-- The language a lead was sent in (the site's Spanish pages under /es/): every quote request and
-- discount sign-up records it, so the office calls back in that language; the office chat says so
-- first, and the inbox shows it, filters by it and counts by it.
--
-- The languages are supabase/functions/_shared/languages.ts (LANGUAGES), the one list the forms, the
-- chat and the inbox read. SQL states the same list once, in the check constraint below;
-- tests/backend/lead-rules.test.ts reads that constraint back from the database and holds it equal
-- to LANGUAGES, and runs one table of values through zod (leadRules.ts) and this constraint.
--
-- A lead that says no language is English (DEFAULT_LANGUAGE): the English site came first, so every
-- lead stored before this migration gets 'en', and a form of a page built before it (which sends no
-- `lang`) stores 'en' too. Nothing else may be stored: not another language ('fr'), not a tag of
-- another shape ('EN', 'es-US', ''), not null.
--
-- Sorts after issue 31's migration (20261126100000); what it redefines it copies whole and changes
-- only where it says "lang".

-- 1. The column, the same on both lead tables; the list is written here once.
do $do$
declare
  v_table text;
begin
  foreach v_table in array array['leads', 'discount_leads'] loop
    execute format($sql$
    alter table public.%1$I
      add column lang text not null default 'en',
      add constraint %1$s_lang_known check (lang in ('en', 'es'))
    $sql$, v_table);
  end loop;
end
$do$;

comment on column public.leads.lang is 'The language of the page the quote request was sent from (languages.ts LANGUAGES); the office calls back in it.';
comment on column public.discount_leads.lang is 'The language of the page the discount sign-up was sent from (languages.ts LANGUAGES); the office calls back in it.';

-- The visitor writes it with the rest of the lead (the insert policies need no change: they are
-- about rows, and the check constraint about the value). Nobody may change it afterwards.
grant insert (lang) on table public.leads, public.discount_leads to anon;

-- 2. The inbox's list gains the lead's language, at the end so the functions that return this row
--    type keep working. Otherwise as in 20261126100000_lead_attribution.sql.
create or replace view public.inbox_leads with (security_invoker = true) as
  select l.kind, l.id, l.created_at, l.status, l.first_name, l.last_name, l.email, l.phone, l.message,
         l.page, l.landing_path, l.referrer_path, l.notified_at, l.notify_failed_at, l.first_response_at,
         l.booked_value,
         l.first_utm_source, l.first_utm_medium, l.first_utm_campaign, l.first_utm_term, l.first_utm_content,
         l.first_gclid, l.first_gbraid, l.first_wbraid, l.first_fbclid, l.first_msclkid,
         l.first_referrer_host, l.first_landing_path, l.first_touch_at,
         l.last_utm_source, l.last_utm_medium, l.last_utm_campaign, l.last_utm_term, l.last_utm_content,
         l.last_gclid, l.last_gbraid, l.last_wbraid, l.last_fbclid, l.last_msclkid, l.last_referrer_host,
         l.last_landing_path, l.last_touch_at,
         l.first_channel, l.last_channel,
         coalesce(nullif(l.last_channel, 'direct'), l.first_channel, l.last_channel)::text as channel,
         case when nullif(l.last_channel, 'direct') is not null then l.last_utm_campaign else coalesce(l.first_utm_campaign, l.last_utm_campaign) end::text as campaign,
         l.lang
  from (
    select 'quote'::text as kind, q.id, q.created_at, q.status, q.first_name::text as first_name,
           q.last_name::text as last_name, q.email, q.phone::text as phone, q.message::text as message,
           q.page, q.landing_path, q.referrer_path, q.notified_at, q.notify_failed_at, q.first_response_at,
           q.booked_value, q.first_utm_source, q.first_utm_medium, q.first_utm_campaign, q.first_utm_term,
           q.first_utm_content, q.first_gclid, q.first_gbraid, q.first_wbraid, q.first_fbclid,
           q.first_msclkid, q.first_referrer_host, q.first_landing_path, q.first_touch_at, q.last_utm_source,
           q.last_utm_medium, q.last_utm_campaign, q.last_utm_term, q.last_utm_content, q.last_gclid,
           q.last_gbraid, q.last_wbraid, q.last_fbclid, q.last_msclkid, q.last_referrer_host,
           q.last_landing_path, q.last_touch_at,
           private.touch_channel(q.first_utm_source, q.first_utm_medium, q.first_utm_campaign, q.first_gclid,
             q.first_gbraid, q.first_wbraid, q.first_fbclid, q.first_msclkid, q.first_referrer_host,
             q.first_landing_path, q.first_touch_at)::text as first_channel,
           private.touch_channel(q.last_utm_source, q.last_utm_medium, q.last_utm_campaign, q.last_gclid,
             q.last_gbraid, q.last_wbraid, q.last_fbclid, q.last_msclkid, q.last_referrer_host,
             q.last_landing_path, q.last_touch_at)::text as last_channel,
           q.lang
      from public.leads q
    union all
    select 'discount'::text, d.id, d.created_at, d.status, null::text, null::text, d.email, d.phone::text,
           null::text, d.page, d.landing_path, d.referrer_path, d.notified_at, d.notify_failed_at,
           d.first_response_at, d.booked_value, d.first_utm_source, d.first_utm_medium, d.first_utm_campaign,
           d.first_utm_term, d.first_utm_content, d.first_gclid, d.first_gbraid, d.first_wbraid,
           d.first_fbclid, d.first_msclkid, d.first_referrer_host, d.first_landing_path, d.first_touch_at,
           d.last_utm_source, d.last_utm_medium, d.last_utm_campaign, d.last_utm_term, d.last_utm_content,
           d.last_gclid, d.last_gbraid, d.last_wbraid, d.last_fbclid, d.last_msclkid, d.last_referrer_host,
           d.last_landing_path, d.last_touch_at,
           private.touch_channel(d.first_utm_source, d.first_utm_medium, d.first_utm_campaign, d.first_gclid,
             d.first_gbraid, d.first_wbraid, d.first_fbclid, d.first_msclkid, d.first_referrer_host,
             d.first_landing_path, d.first_touch_at)::text,
           private.touch_channel(d.last_utm_source, d.last_utm_medium, d.last_utm_campaign, d.last_gclid,
             d.last_gbraid, d.last_wbraid, d.last_fbclid, d.last_msclkid, d.last_referrer_host,
             d.last_landing_path, d.last_touch_at)::text,
           d.lang
      from public.discount_leads d
  ) as l;

-- 3. The list's filters gain the language (p_lang: a language of languages.ts; another value matches
--    no lead; left out, every language). The old functions go with their signatures, so a call by
--    name finds one function.
drop function public.search_leads(text, text, timestamptz, timestamptz, text, integer, integer, text, text);
drop function public.count_leads(text, text, timestamptz, timestamptz, text, text, text);
drop function private.lead_filter(text, text, timestamptz, timestamptz, text, text, text);

create function private.lead_filter(p_status text, p_kind text, p_from timestamptz, p_to timestamptz, p_query text,
  p_channel text, p_campaign text, p_lang text default null)
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
  if p_channel = 'none' then
    v_where := v_where || 'l.channel is null'::text;
  elsif p_channel is not null then
    perform p_channel::public.lead_channel; -- refuses an unknown channel (23514)
    v_where := v_where || format('l.channel = %L', p_channel);
  end if;
  if char_length(p_campaign) > 200 then
    raise exception using errcode = '22023', message = 'A campaign is at most 200 characters';
  end if;
  if nullif(btrim(p_campaign), '') is not null then
    v_where := v_where || format('lower(l.campaign) = lower(%L)', btrim(p_campaign));
  end if;
  -- lang: compared whole, as stored (the leads' check constraint is the list of languages)
  if char_length(p_lang) > 35 then
    raise exception using errcode = '22023', message = 'A language is at most 35 characters';
  end if;
  if p_lang is not null then
    v_where := v_where || format('l.lang = %L', p_lang);
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
    v_where := v_where || format(
      '(concat_ws(%L, l.first_name, l.last_name) ilike %2$L or l.email ilike %2$L or l.phone ilike %2$L or l.message ilike %2$L',
      ' ', '%' || replace(replace(replace(v_query, '\', '\\'), '%', '\%'), '_', '\_') || '%');
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

create function public.search_leads(
  p_status text default null,
  p_kind text default null,
  p_from timestamptz default null,
  p_to timestamptz default null,
  p_query text default null,
  p_limit integer default 50,
  p_offset integer default 0,
  p_channel text default null,
  p_campaign text default null,
  p_lang text default null
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
    || private.lead_filter(p_status, p_kind, p_from, p_to, p_query, p_channel, p_campaign, p_lang)
    || ' order by l.created_at desc, l.id desc limit $1 offset $2'
    using p_limit, p_offset;
end
$$;

create function public.count_leads(
  p_status text default null,
  p_kind text default null,
  p_from timestamptz default null,
  p_to timestamptz default null,
  p_query text default null,
  p_channel text default null,
  p_campaign text default null,
  p_lang text default null
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
    || private.lead_filter(p_status, p_kind, p_from, p_to, p_query, p_channel, p_campaign, p_lang)
    into v_count;
  return v_count;
end
$$;

-- 4. The report counts by language too ('languages': leads, contacted, booked, the median first
--    response and the booked value per language, busiest first). Otherwise as in 20261126100000.
create or replace function public.attribution_report(p_from timestamptz default null, p_to timestamptz default null) returns jsonb
language plpgsql
stable
set search_path = ''
as $$
declare
  v_result jsonb;
begin
  perform private.require_staff();
  with picked as (
    select l.* from public.inbox_leads l
      where (p_from is null or l.created_at >= p_from) and (p_to is null or l.created_at <= p_to)
  ), grouped as (
    select l.channel, l.campaign, grouping(l.campaign) = 1 as is_channel,
           count(*) as leads,
           count(*) filter (where l.first_response_at is not null) as contacted,
           count(*) filter (where l.status = 'booked') as booked,
           percentile_cont(0.5) within group (order by extract(epoch from l.first_response_at - l.created_at)) as median_response_seconds,
           coalesce(sum(l.booked_value) filter (where l.status = 'booked'), 0) as booked_value
      from picked l
      group by grouping sets ((l.channel), (l.channel, l.campaign))
  ), by_lang as (
    select l.lang,
           count(*) as leads,
           count(*) filter (where l.first_response_at is not null) as contacted,
           count(*) filter (where l.status = 'booked') as booked,
           percentile_cont(0.5) within group (order by extract(epoch from l.first_response_at - l.created_at)) as median_response_seconds,
           coalesce(sum(l.booked_value) filter (where l.status = 'booked'), 0) as booked_value
      from picked l
      group by l.lang
  )
  select jsonb_build_object(
    'channels', coalesce((select jsonb_agg(jsonb_build_object('channel', g.channel, 'leads', g.leads, 'contacted', g.contacted,
        'booked', g.booked, 'medianResponseSeconds', g.median_response_seconds, 'bookedValue', g.booked_value)
        order by g.leads desc, g.channel nulls last) from grouped g where g.is_channel), '[]'::jsonb),
    'campaigns', coalesce((select jsonb_agg(jsonb_build_object('channel', g.channel, 'campaign', g.campaign, 'leads', g.leads,
        'contacted', g.contacted, 'booked', g.booked, 'medianResponseSeconds', g.median_response_seconds, 'bookedValue', g.booked_value)
        order by g.channel nulls last, g.leads desc, g.campaign nulls last) from grouped g where not g.is_channel), '[]'::jsonb),
    'languages', coalesce((select jsonb_agg(jsonb_build_object('lang', b.lang, 'leads', b.leads, 'contacted', b.contacted,
        'booked', b.booked, 'medianResponseSeconds', b.median_response_seconds, 'bookedValue', b.booked_value)
        order by b.leads desc, b.lang) from by_lang b), '[]'::jsonb))
    into v_result;
  return v_result;
end
$$;

-- log_export keeps the language filter too ('lang'), so the history says which leads were exported.
-- Otherwise as in 20261126100000_lead_attribution.sql.
create or replace function public.log_export(p_count integer, p_filters jsonb) returns void
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
  foreach v_key in array array['status', 'kind', 'from', 'to', 'channel', 'campaign', 'format', 'lang'] loop
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

-- 5. The office chat: the lead as the chat shows it carries its language (the lead message, the
--    reminder and the edit that says who took it), and so does each lead of the morning summary.
--    Otherwise as in 20261126000000_chat_delivery.sql.
create or replace function private.chat_lead(p_kind text, p_id uuid) returns jsonb
language sql stable security definer set search_path = ''
as $$
  select case p_kind
    when 'quote' then (select jsonb_build_object('kind', 'quote', 'id', l.id, 'createdAt', l.created_at, 'status', l.status,
        'firstName', l.first_name, 'lastName', l.last_name, 'email', l.email, 'phone', l.phone, 'message', l.message, 'page', l.page,
        'lang', l.lang)
      from public.leads l where l.id = p_id)
    else (select jsonb_build_object('kind', 'discount', 'id', d.id, 'createdAt', d.created_at, 'status', d.status,
        'email', d.email, 'phone', d.phone, 'page', d.page, 'lang', d.lang)
      from public.discount_leads d where d.id = p_id)
  end
$$;

create or replace function public.chat_next(p_sender uuid, p_now timestamptz) returns jsonb
language plpgsql volatile security definer set search_path = ''
as $$
declare
  s private.chat_state%rowtype;
  o private.chat_outbox%rowtype;
  v_lead jsonb;
  v_calls integer;
  v_sent integer;
  v_extra jsonb := '{}'::jsonb;
begin
  select * into s from private.chat_state for update;
  if s.sender is distinct from p_sender or s.sender_until <= p_now then
    return jsonb_build_object('lost', true);
  end if;
  if s.paused_until > p_now then
    return jsonb_build_object('wait', 'paused', 'until', s.paused_until);
  end if;
  -- Messages past the limit are given up on; a lead's own message then shows as failed.
  for o in update private.chat_outbox set gave_up_at = p_now, sending_until = null
      where sent_at is null and gave_up_at is null and cancelled_at is null
        and created_at < p_now - private.chat_give_up_after()
      returning * loop
    if o.what = 'lead' then
      update public.leads set notify_failed_at = p_now where id = o.quote_id;
      update public.discount_leads set notify_failed_at = p_now where id = o.discount_id;
    end if;
  end loop;
  -- The first message that is due, in order of arrival; one that waits for its own retry does not
  -- hold up those behind it.
  loop
    select * into o from private.chat_outbox
      where sent_at is null and gave_up_at is null and cancelled_at is null
        and next_attempt_at <= p_now and (sending_until is null or sending_until <= p_now)
      order by id
      limit 1
      for update;
    if not found then
      return null;
    end if;
    v_lead := case when o.quote_id is not null then private.chat_lead('quote', o.quote_id)
                   when o.discount_id is not null then private.chat_lead('discount', o.discount_id) end;
    if o.what = 'reminder' and (v_lead ->> 'status') is distinct from 'new' then
      update private.chat_outbox set cancelled_at = p_now where id = o.id;
      continue;
    end if;
    exit;
  end loop;

  if o.what = 'taken' then
    v_extra := jsonb_build_object('messageIds', coalesce((
      select jsonb_agg(m.message_id order by m.id) from private.chat_outbox m
        where m.what in ('lead', 'reminder') and m.message_id is not null
          and coalesce(m.quote_id, m.discount_id) = coalesce(o.quote_id, o.discount_id)), '[]'::jsonb));
  elsif o.what = 'summary' then
    -- Every lead still new, oldest first (the function picks the overdue and those due today).
    v_extra := jsonb_build_object('leads', coalesce((
      select jsonb_agg(x.lead order by x.created_at) from (
        select i.created_at, jsonb_build_object('kind', i.kind, 'id', i.id, 'createdAt', i.created_at,
                 'firstName', i.first_name, 'lastName', i.last_name, 'lang', i.lang) as lead
          from public.inbox_leads i
          left join public.leads q on i.kind = 'quote' and q.id = i.id
          where i.status = 'new' and not coalesce(q.probe, false) and i.created_at <= p_now
          order by i.created_at limit 50) x), '[]'::jsonb));
  end if;
  v_calls := case when o.what = 'taken' then jsonb_array_length(v_extra -> 'messageIds') else 1 end;

  delete from private.chat_sends where at < p_now - interval '1 minute';
  select count(*) into v_sent from private.chat_sends where at > p_now - interval '1 minute';
  if v_calls > 0 and v_sent + v_calls > private.chat_budget() then
    return jsonb_build_object('wait', 'budget', 'until',
      (select at from private.chat_sends where at > p_now - interval '1 minute'
        order by at offset greatest(v_sent + v_calls - private.chat_budget() - 1, 0) limit 1) + interval '1 minute');
  end if;
  insert into private.chat_sends (at) select p_now from generate_series(1, v_calls);
  update private.chat_outbox set attempts = attempts + 1, sending_until = p_now + private.chat_lease() where id = o.id;
  update private.chat_state set sender_until = p_now + private.chat_lease();
  return jsonb_build_object('item', o.id, 'what', o.what, 'attempts', o.attempts + 1, 'createdAt', o.created_at,
      'day', o.day, 'detail', o.detail, 'lead', v_lead) || v_extra;
end
$$;

-- 6. Who may call what: staff at aal2 (each function checks), nobody else. (CREATE OR REPLACE kept
--    the grants of attribution_report, log_export, chat_lead and chat_next.)
revoke all on function private.lead_filter(text, text, timestamptz, timestamptz, text, text, text, text) from public, anon, authenticated, service_role;
revoke all on function public.search_leads(text, text, timestamptz, timestamptz, text, integer, integer, text, text, text) from public, anon, authenticated, service_role;
revoke all on function public.count_leads(text, text, timestamptz, timestamptz, text, text, text, text) from public, anon, authenticated, service_role;

grant execute on function private.lead_filter(text, text, timestamptz, timestamptz, text, text, text, text) to authenticated;
grant execute on function public.search_leads(text, text, timestamptz, timestamptz, text, integer, integer, text, text, text) to authenticated;
grant execute on function public.count_leads(text, text, timestamptz, timestamptz, text, text, text, text) to authenticated;
