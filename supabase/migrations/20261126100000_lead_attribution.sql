-- Which marketing brings booked jobs (issue 31): the campaign and click ids of every lead, one
-- channel rule, a report by channel and campaign, the value of a booked job, and the booked jobs
-- of a date range for the ad platforms' offline conversion import.
--
-- What a visitor may send, per touch (first: kept in the browser for 90 days; last: this visit),
-- mirrors supabase/functions/_shared/leadRules.ts (UTM_PARAMS, CLICK_IDS, HOST_PATTERN,
-- UTM_FORBIDDEN, ATTRIBUTION_LIMITS); tests/backend/lead-rules.test.ts runs one table of values
-- through both. No IP address and no full referring URL is stored: the referring site's host only.
-- Deleting a lead deletes these with it (they are columns of its row).
--
-- Sorts after issue 30's migrations (20261126000000..0900); touches none of their objects.

-- 1. The values, one domain each: a campaign value is bounded printable text, an id is an id, a
--    host is a host.
create domain public.utm_value as public.lead_text
  constraint utm_value_text check (
    char_length(value) <= 200
    and value !~ '[\u0001-\u001f\u007f-\u009f\u2028\u2029<>]'
  );
comment on domain public.utm_value is 'A utm_* value as the address carried it (leadRules.ts): trimmed, 1-200 characters, no control characters, no < or >.';

create domain public.click_id as text
  constraint click_id_format check (char_length(value) <= 300 and value ~ '^[A-Za-z0-9_-]+$');
comment on domain public.click_id is 'An ad click id (gclid, gbraid, wbraid, fbclid, msclkid): letters, digits, _ and -, at most 300.';

create domain public.web_host as text
  constraint web_host_format check (
    char_length(value) <= 253
    and value ~ '^([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]*[a-z0-9])?$'
  );
comment on domain public.web_host is 'A host name in lower case (the referring site): no scheme, port, path, query or user.';

-- The value of a booked job in dollars, as staff type it (optional).
create domain public.job_value as numeric(10, 2)
  constraint job_value_range check (value >= 0 and value <= 1000000);
comment on domain public.job_value is 'What a booked job is worth, 0 to 1,000,000 (USD).';

-- 2. The columns, the same on both lead tables. A touch's time lies near the lead's (a browser
--    whose clock is off by more than a day gets its lead stored without attribution:
--    src/lib/leads.ts sends it again without).
do $do$
declare
  v_table text;
begin
  foreach v_table in array array['leads', 'discount_leads'] loop
    execute format($sql$
    alter table public.%1$I
      add column first_utm_source public.utm_value,
      add column first_utm_medium public.utm_value,
      add column first_utm_campaign public.utm_value,
      add column first_utm_term public.utm_value,
      add column first_utm_content public.utm_value,
      add column first_gclid public.click_id,
      add column first_gbraid public.click_id,
      add column first_wbraid public.click_id,
      add column first_fbclid public.click_id,
      add column first_msclkid public.click_id,
      add column first_referrer_host public.web_host,
      add column first_landing_path public.site_path,
      add column first_touch_at timestamptz,
      add column last_utm_source public.utm_value,
      add column last_utm_medium public.utm_value,
      add column last_utm_campaign public.utm_value,
      add column last_utm_term public.utm_value,
      add column last_utm_content public.utm_value,
      add column last_gclid public.click_id,
      add column last_gbraid public.click_id,
      add column last_wbraid public.click_id,
      add column last_fbclid public.click_id,
      add column last_msclkid public.click_id,
      add column last_referrer_host public.web_host,
      add column last_landing_path public.site_path,
      add column last_touch_at timestamptz,
      add column booked_value public.job_value,
      add constraint %1$s_first_touch_at_near check (first_touch_at > created_at - interval '91 days' and first_touch_at < created_at + interval '1 day'),
      add constraint %1$s_last_touch_at_near check (last_touch_at > created_at - interval '91 days' and last_touch_at < created_at + interval '1 day')
    $sql$, v_table);
  end loop;
end
$do$;

-- The visitor writes the touches and nothing else new; staff set the job's value (row-level
-- security decides which rows), and the history records it (below).
grant insert (first_utm_source, first_utm_medium, first_utm_campaign, first_utm_term, first_utm_content,
  first_gclid, first_gbraid, first_wbraid, first_fbclid, first_msclkid, first_referrer_host,
  first_landing_path, first_touch_at, last_utm_source, last_utm_medium, last_utm_campaign, last_utm_term,
  last_utm_content, last_gclid, last_gbraid, last_wbraid, last_fbclid, last_msclkid, last_referrer_host,
  last_landing_path, last_touch_at) on table public.leads, public.discount_leads to anon;
grant update (booked_value) on table public.leads, public.discount_leads to authenticated;

alter policy "Visitors can submit contact leads" on public.leads
  with check (status = 'new' and notified_at is null and notify_failed_at is null and first_response_at is null and booked_value is null);
alter policy "Visitors can submit discount leads" on public.discount_leads
  with check (status = 'new' and notified_at is null and notify_failed_at is null and first_response_at is null and booked_value is null);

-- 3. The channel of a touch: the ONE rule table (the inbox's list, filter, report and the
--    conversion exports all read it through public.inbox_leads). First match wins; values are
--    compared in lower case. staff/inbox/model.ts CHANNEL_LABELS names the same keys.
create domain public.lead_channel as text
  constraint lead_channel_known check (value in (
    'google_business_profile', 'google_ads', 'microsoft_ads', 'meta_ads', 'other_paid',
    'email', 'organic_search', 'other_campaign', 'referral', 'direct'));

create function private.touch_channel(
  p_source text, p_medium text, p_campaign text, p_gclid text, p_gbraid text, p_wbraid text,
  p_fbclid text, p_msclkid text, p_referrer_host text, p_landing_path text, p_at timestamptz
) returns public.lead_channel
language sql immutable set search_path = ''
as $$
  select (case
    -- nothing recorded (a lead from before issue 31, or storage blocked): no channel
    when num_nonnulls(p_source, p_medium, p_campaign, p_gclid, p_gbraid, p_wbraid, p_fbclid, p_msclkid, p_referrer_host, p_landing_path, p_at) = 0 then null
    -- the tagging docs/inbox.md gives the profile's links: utm_source=google&utm_medium=organic&utm_campaign=gbp
    when t.source = 'google' and t.campaign = 'gbp' then 'google_business_profile'
    when coalesce(p_gclid, p_gbraid, p_wbraid) is not null or (t.source ~ '^(google|adwords|googleads)$' and t.paid) then 'google_ads'
    when p_msclkid is not null or (t.source ~ '^(bing|microsoft|msn)$' and t.paid) then 'microsoft_ads'
    -- fbclid alone is no ad: Facebook adds it to every outbound link, shares included
    when t.paid and (p_fbclid is not null or t.source ~ '^(facebook|fb|instagram|ig|meta)$') then 'meta_ads'
    when t.paid then 'other_paid'
    when t.medium ~ '^e[-_]?mail$' then 'email'
    when (t.medium = 'organic' and t.source ~ '^(google|bing|yahoo|duckduckgo|ecosia|brave|baidu|yandex)$')
      or t.host ~ '(^|\.)(google\.[a-z]{2,3}(\.[a-z]{2})?|bing\.com|yahoo\.com|duckduckgo\.com|ecosia\.org|search\.brave\.com|baidu\.com|yandex\.[a-z]{2,3}|startpage\.com|qwant\.com)$'
      then 'organic_search'
    when num_nonnulls(p_source, p_medium, p_campaign) > 0 then 'other_campaign'
    when t.host is not null then 'referral'
    else 'direct'
  end)::public.lead_channel
  from (select lower(btrim(p_source)) as source, lower(btrim(p_medium)) as medium, lower(btrim(p_campaign)) as campaign,
               lower(p_referrer_host) as host,
               lower(btrim(p_medium)) ~ '^(cpc|ppc|cpm|cpv|paid|paid[-_ ]?(search|social|ads?)|display|retargeting)$' as paid) as t
$$;

comment on function private.touch_channel is 'The channel of one touch (issue 31): the one rule table; docs/inbox.md explains it to the owner.';
revoke all on function private.touch_channel(text, text, text, text, text, text, text, text, text, text, timestamptz) from public, anon, authenticated, service_role;
grant execute on function private.touch_channel(text, text, text, text, text, text, text, text, text, text, timestamptz) to authenticated, service_role;

-- 4. The inbox's list gains the touches, the job's value, each touch's channel, and the lead's
--    channel and campaign: the last touch's, unless that visit came direct (typed the address,
--    a bookmark), then the first touch's ("last non-direct touch", as Google Analytics credits).
--    New columns go at the end, so the functions that return this row type keep working.
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
         case when nullif(l.last_channel, 'direct') is not null then l.last_utm_campaign else coalesce(l.first_utm_campaign, l.last_utm_campaign) end::text as campaign
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
             q.last_landing_path, q.last_touch_at)::text as last_channel
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
             d.last_landing_path, d.last_touch_at)::text
      from public.discount_leads d
  ) as l;

-- 5. The value of a booked job is in the history like a status change: one trigger for it, beside
--    the status trigger (which it leaves as it is), whoever changes it. A 'note' event without a
--    note, whose detail says the value (no new action: lead_events' actions stay as they are).
create function private.record_job_value() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if new.booked_value is distinct from old.booked_value then
    insert into public.lead_events (lead_kind, lead_id, actor, actor_email, action, detail)
      values (case tg_table_name when 'leads' then 'quote' else 'discount' end, old.id, auth.uid(), auth.jwt() ->> 'email', 'note',
              jsonb_build_object('booked_value', new.booked_value, 'previous_value', old.booked_value));
  end if;
  return new;
end
$$;
revoke all on function private.record_job_value() from public, anon, authenticated, service_role;

create trigger leads_record_value
  before update of booked_value on public.leads
  for each row execute function private.record_job_value();
create trigger discount_leads_record_value
  before update of booked_value on public.discount_leads
  for each row execute function private.record_job_value();

-- set_lead_status takes the job's value (optional; null leaves it as it is). The old signature
-- goes, so a call by name finds one function.
drop function public.set_lead_status(text, uuid, text, text);
create function public.set_lead_status(p_kind text, p_id uuid, p_status text, p_note text default null, p_value numeric default null)
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
  perform p_value::public.job_value;    -- refuses a value out of range (23514)
  v_note := nullif(regexp_replace(p_note,
    '^[\u0009-\u000d\u0020\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+|[\u0009-\u000d\u0020\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+$',
    '', 'g'), '');
  if char_length(v_note) > 2000 then
    raise exception using errcode = '22023', message = 'A note is at most 2000 characters';
  end if;
  if p_status is null and v_note is null and p_value is null then
    raise exception using errcode = '22023', message = 'Give a new status, a note, a value, or more';
  end if;

  perform set_config('inbox.note', coalesce(v_note, ''), true);
  if p_kind = 'quote' then
    update public.leads set status = coalesce(p_status, status), booked_value = coalesce(p_value, booked_value) where id = p_id;
  else
    update public.discount_leads set status = coalesce(p_status, status), booked_value = coalesce(p_value, booked_value) where id = p_id;
  end if;
  if not found then
    raise exception using errcode = 'P0002', message = 'No such lead';
  end if;
  perform set_config('inbox.note', '', true);

  select * into v_lead from public.inbox_leads where kind = p_kind and id = p_id;
  return v_lead;
end
$$;

-- 6. The list's filters gain channel and campaign ('none' = nothing recorded). The old functions
--    go with their signatures.
drop function public.search_leads(text, text, timestamptz, timestamptz, text, integer, integer);
drop function public.count_leads(text, text, timestamptz, timestamptz, text);
drop function private.lead_filter(text, text, timestamptz, timestamptz, text);

create function private.lead_filter(p_status text, p_kind text, p_from timestamptz, p_to timestamptz, p_query text,
  p_channel text, p_campaign text)
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
  p_campaign text default null
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
    || private.lead_filter(p_status, p_kind, p_from, p_to, p_query, p_channel, p_campaign)
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
  p_campaign text default null
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
    || private.lead_filter(p_status, p_kind, p_from, p_to, p_query, p_channel, p_campaign)
    into v_count;
  return v_count;
end
$$;

-- 7. The report: per channel and per campaign within it, for the leads that came in between
--    p_from and p_to (inclusive; either may be null): leads, contacted (had a first response),
--    booked (booked now), the median first response and the value of the booked jobs. The
--    booking rate is booked / leads, which the inbox computes from these.
create function public.attribution_report(p_from timestamptz default null, p_to timestamptz default null) returns jsonb
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
  )
  select jsonb_build_object(
    'channels', coalesce((select jsonb_agg(jsonb_build_object('channel', g.channel, 'leads', g.leads, 'contacted', g.contacted,
        'booked', g.booked, 'medianResponseSeconds', g.median_response_seconds, 'bookedValue', g.booked_value)
        order by g.leads desc, g.channel nulls last) from grouped g where g.is_channel), '[]'::jsonb),
    'campaigns', coalesce((select jsonb_agg(jsonb_build_object('channel', g.channel, 'campaign', g.campaign, 'leads', g.leads,
        'contacted', g.contacted, 'booked', g.booked, 'medianResponseSeconds', g.median_response_seconds, 'bookedValue', g.booked_value)
        order by g.channel nulls last, g.leads desc, g.campaign nulls last) from grouped g where not g.is_channel), '[]'::jsonb))
    into v_result;
  return v_result;
end
$$;

-- 8. The booked jobs for an ad platform's offline conversion import: booked now, booked (the last
--    change to Booked) between p_from and p_to, with that platform's click id (the last touch's,
--    else the first's) from a click at most 90 days before the booking (older ones are refused by
--    the import). Reading them is the export, so it leaves its trace in the history (log_export).
create function public.ad_conversions(p_platform text, p_from timestamptz default null, p_to timestamptz default null)
returns table (kind text, id uuid, click_id text, booked_at timestamptz, booked_value numeric)
language plpgsql
volatile
set search_path = ''
as $$
declare
  v_count integer;
begin
  perform private.require_staff();
  if p_platform is null or p_platform not in ('google_ads', 'microsoft_ads') then
    raise exception using errcode = '22023', message = 'p_platform must be google_ads or microsoft_ads';
  end if;
  return query
    with booked as (
      select l.kind, l.id, l.booked_value,
             coalesce((select max(e.at) from public.lead_events e
                        where e.lead_kind = l.kind and e.lead_id = l.id and e.action = 'status' and e.to_status = 'booked'),
                      l.first_response_at, l.created_at) as booked_at,
             case p_platform when 'google_ads' then l.last_gclid else l.last_msclkid end as last_id,
             case p_platform when 'google_ads' then l.first_gclid else l.first_msclkid end as first_id,
             l.last_touch_at, l.first_touch_at
        from public.inbox_leads l
        where l.status = 'booked'
    ), chosen as (
      select b.kind, b.id, b.booked_value, b.booked_at,
             case when b.last_id is not null then b.last_id else b.first_id end::text as click_id,
             case when b.last_id is not null then b.last_touch_at else b.first_touch_at end as clicked_at
        from booked b
    )
    select c.kind, c.id, c.click_id, c.booked_at, c.booked_value::numeric
      from chosen c
      where c.click_id is not null
        and (p_from is null or c.booked_at >= p_from) and (p_to is null or c.booked_at <= p_to)
        and (c.clicked_at is null or c.clicked_at > c.booked_at - interval '90 days')
      order by c.booked_at, c.id;
  get diagnostics v_count = row_count;
  perform public.log_export(v_count, jsonb_build_object('format', p_platform,
    'from', to_char(p_from at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), 'to', to_char(p_to at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')));
end
$$;

-- log_export keeps one more filter key, the export's format ('google_ads', 'microsoft_ads'), so the
-- history says which file was made. Otherwise as in 20261124000000_lead_inbox.sql.
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
  foreach v_key in array array['status', 'kind', 'from', 'to', 'channel', 'campaign', 'format'] loop
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

-- 9. Who may call what: staff at aal2 (each function checks), nobody else.
revoke all on function public.set_lead_status(text, uuid, text, text, numeric) from public, anon, authenticated, service_role;
revoke all on function private.lead_filter(text, text, timestamptz, timestamptz, text, text, text) from public, anon, authenticated, service_role;
revoke all on function public.search_leads(text, text, timestamptz, timestamptz, text, integer, integer, text, text) from public, anon, authenticated, service_role;
revoke all on function public.count_leads(text, text, timestamptz, timestamptz, text, text, text) from public, anon, authenticated, service_role;
revoke all on function public.attribution_report(timestamptz, timestamptz) from public, anon, authenticated, service_role;
revoke all on function public.ad_conversions(text, timestamptz, timestamptz) from public, anon, authenticated, service_role;

grant execute on function public.set_lead_status(text, uuid, text, text, numeric) to authenticated;
grant execute on function private.lead_filter(text, text, timestamptz, timestamptz, text, text, text) to authenticated;
grant execute on function public.search_leads(text, text, timestamptz, timestamptz, text, integer, integer, text, text) to authenticated;
grant execute on function public.count_leads(text, text, timestamptz, timestamptz, text, text, text) to authenticated;
grant execute on function public.attribution_report(timestamptz, timestamptz) to authenticated;
grant execute on function public.ad_conversions(text, timestamptz, timestamptz) to authenticated;
