-- The database as the last line: it refuses whatever the forms refuse, bounds how many leads one
-- client may add, and lets notify-telegram send one message per stored lead, never more.
--
-- The rules below mirror supabase/functions/_shared/leadRules.ts (the forms' and the function's
-- one source); tests/backend/lead-rules.test.ts runs one table of values through both.

-- 1. Lead text is stored trimmed, so it is never blank. "Trimmed" means what JavaScript's
--    String.prototype.trim strips (btrim() strips only spaces): tabs, line breaks, no-break and
--    other Unicode spaces, the byte-order mark.
create domain public.lead_text as text
  constraint lead_text_trimmed check (
    value <> ''
    and value !~ '^[\u0009-\u000d\u0020\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]'
    and value !~ '[\u0009-\u000d\u0020\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]$'
  );

comment on domain public.lead_text is 'Text a visitor typed, trimmed as the forms trim it: never empty, no white space at either end.';

alter table public.leads
  drop constraint leads_first_name_length,
  drop constraint leads_last_name_length,
  drop constraint leads_email_format,
  drop constraint leads_phone_length,
  drop constraint leads_message_length,
  drop constraint leads_page_format;

alter table public.leads
  alter column first_name type public.lead_text,
  alter column last_name type public.lead_text,
  alter column phone type public.lead_text,
  alter column message type public.lead_text,
  add constraint leads_first_name_length check (char_length(first_name) <= 100),
  add constraint leads_last_name_length check (char_length(last_name) <= 100),
  -- zod's email pattern (leadRules.ts EMAIL_PATTERN), character for character
  add constraint leads_email_format check (
    char_length(email) <= 254
    and email ~ '^([A-Za-z0-9_''+-]+\.)*[A-Za-z0-9_''+-]*[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$'
  ),
  add constraint leads_phone_length check (char_length(phone) <= 40), -- spec: required, no format check
  add constraint leads_message_length check (char_length(message) <= 5000),
  add constraint leads_page_contact check (page = 'contact'); -- the contact form's fixed value (spec 7)

alter table public.discount_leads
  drop constraint discount_leads_email_format,
  drop constraint discount_leads_phone_length,
  drop constraint discount_leads_page_format;

alter table public.discount_leads
  alter column phone type public.lead_text,
  add constraint discount_leads_email_format check (
    char_length(email) <= 254
    and email ~ '^([A-Za-z0-9_''+-]+\.)*[A-Za-z0-9_''+-]*[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$'
  ),
  add constraint discount_leads_phone_length check (char_length(phone) between 10 and 40), -- spec: at least 10
  -- a path of the site (leadRules.ts SITE_PATH_PATTERN): '/' or lowercase slug segments
  add constraint discount_leads_page_path check (
    char_length(page) <= 200
    and page ~ '^/([a-z0-9]+(-[a-z0-9]+)*(/[a-z0-9]+(-[a-z0-9]+)*)*)?$'
  );

-- 2. Per-client limits. Bookkeeping lives in schema private, which the API does not expose and
--    anon/authenticated cannot use: no select, insert, update, delete or execute there.
create schema if not exists private;
revoke all on schema private from public, anon, authenticated;

-- The owner's knobs, one row per bucket; change them with an UPDATE (README, "Limits").
create table private.rate_limits (
  bucket text primary key,
  per_client integer not null check (per_client >= 1),
  client_window interval not null check (client_window > interval '0'),
  -- all clients together, per minute: holds when no address is known and against many addresses
  per_minute integer not null check (per_minute >= 1),
  why text not null
);

insert into private.rate_limits (bucket, per_client, client_window, per_minute, why) values
  ('leads', 5, interval '10 minutes', 30,
   'A person asks for a quote once, twice after a typo; five in ten minutes is a script.'),
  ('discount_leads', 3, interval '10 minutes', 30,
   'The popup shows once per browser session; three sign-ups in ten minutes is already generous.'),
  ('notify', 10, interval '10 minutes', 60,
   'One call per stored lead (5 + 3 above) plus retries; more is someone replaying the function.');

create table private.rate_events (
  bucket text not null,
  client text not null, -- '' when no address is known
  at timestamptz not null default now()
);

create index rate_events_client_idx on private.rate_events (bucket, client, at);
create index rate_events_at_idx on private.rate_events (bucket, at);

revoke all on all tables in schema private from public, anon, authenticated;

-- The visitor's address the way PostgREST passes the request to SQL (header names lowercase),
-- most trusted first; leadRules.ts CLIENT_ADDRESS_HEADERS names the same headers.
create function private.request_client() returns text
language sql stable
set search_path = ''
as $$
  select left(coalesce(
    nullif(btrim(h ->> 'cf-connecting-ip'), ''),
    nullif(btrim(h ->> 'x-real-ip'), ''),
    nullif(btrim(split_part(h ->> 'x-forwarded-for', ',', 1)), ''),
    ''), 100)
  from (select nullif(current_setting('request.headers', true), '')::json as h) as request
$$;

-- Counts one event of `bucket` for `client`, or refuses it with SQLSTATE PT429, which PostgREST
-- answers as HTTP 429 (the local stand-in maps it the same way).
create function private.take_rate_limit(p_bucket text, p_client text) returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  lim private.rate_limits%rowtype;
  used integer;
begin
  select * into lim from private.rate_limits where bucket = p_bucket;
  if not found then
    raise exception 'no rate limit configured for %', p_bucket;
  end if;
  -- One writer per bucket at a time, so parallel inserts cannot all read the same count.
  perform pg_advisory_xact_lock(hashtext('private.rate_events:' || p_bucket));

  if p_client <> '' then
    select count(*) into used from private.rate_events
      where bucket = p_bucket and client = p_client and at > now() - lim.client_window;
    if used >= lim.per_client then
      raise exception using
        errcode = 'PT429',
        message = 'Too many submissions from this address, please try again later',
        hint = format('at most %s per %s per client (%s)', lim.per_client, lim.client_window, p_bucket);
    end if;
  end if;

  select count(*) into used from private.rate_events
    where bucket = p_bucket and at > now() - interval '1 minute';
  if used >= lim.per_minute then
    raise exception using
      errcode = 'PT429',
      message = 'Too many submissions right now, please try again in a minute',
      hint = format('at most %s per minute in all (%s)', lim.per_minute, p_bucket);
  end if;

  insert into private.rate_events (bucket, client) values (p_bucket, p_client);
  -- Forget what no window looks at any more, so the table stays small.
  delete from private.rate_events
    where bucket = p_bucket and at < now() - greatest(lim.client_window, interval '1 minute');
end
$$;

create function private.limit_lead_inserts() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.take_rate_limit(tg_table_name, private.request_client());
  return new;
end
$$;

revoke all on all functions in schema private from public, anon, authenticated;

create trigger leads_rate_limit
  before insert on public.leads
  for each row execute function private.limit_lead_inserts();

create trigger discount_leads_rate_limit
  before insert on public.discount_leads
  for each row execute function private.limit_lead_inserts();

-- 3. One chat message per stored lead. notify-telegram (service role) claims the lead it is
--    told about: the newest matching row of the last ten minutes not yet notified is marked in the
--    same statement, so a replayed call finds nothing.
alter table public.leads add column notified_at timestamptz;
alter table public.discount_leads add column notified_at timestamptz;

create function public.claim_lead_notification(
  p_client text,
  p_page text,
  p_email text,
  p_phone text,
  p_first_name text default null,
  p_last_name text default null,
  p_message text default null
) returns boolean
language plpgsql
security definer
set search_path = ''
as $$
declare
  claimed uuid;
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
      returning id into claimed;
  else
    update public.discount_leads set notified_at = now()
      where id = (
        select id from public.discount_leads
          where page = p_page and email = p_email and phone = p_phone
            and notified_at is null and created_at > now() - interval '10 minutes'
          order by created_at desc
          limit 1
          for update skip locked)
      returning id into claimed;
  end if;
  return claimed is not null;
end
$$;

comment on function public.claim_lead_notification is
  'notify-telegram only (service role): marks the matching fresh lead notified; false when there is none.';

revoke all on function public.claim_lead_notification(text, text, text, text, text, text, text) from public, anon, authenticated;
grant execute on function public.claim_lead_notification(text, text, text, text, text, text, text) to service_role;

-- notified_at is the function's to set: anon keeps its INSERT grant on the visitor's columns only.
