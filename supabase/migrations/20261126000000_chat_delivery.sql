-- Every stored lead reaches the office chat, exactly once (issue 30).
--
-- Until now notify-telegram made one try, when the visitor's browser called it: a lead whose call
-- never came, or whose message Telegram refused (down, 5xx, 429), was never announced. Now every
-- message for the chat is a row of an outbox in the database, written in the same transaction as
-- what it announces (the lead's insert, a status change), and sent by whoever calls the function
-- next: the browser's call (the fast path) or the scheduled run (pg_cron through pg_net, below).
--
--   private.chat_outbox   one row per message: a new lead, a reminder, the morning summary, or the
--                         edit that says who took a lead; sent in order of arrival, retried with
--                         backoff until Telegram takes it, given up on after a day (the lead then
--                         shows "Telegram message failed" in the inbox, and `npm run doctor` says so)
--   private.chat_state    one row: which call is sending now (a lease, so one sender at a time and
--                         in order), how long Telegram asked us to wait, the last scheduled run
--   private.chat_sends    when each message went out: at most CHAT_BUDGET a minute, under
--                         Telegram's limit for a group (about 20 a minute), so a burst never loops on 429
--
-- Only the functions below touch these tables (security definer, owned by postgres), and only the
-- service role may call them: a visitor or a staff member reads nothing of it directly. Staff see a
-- lead's delivery through public.lead_delivery (aal2 staff, like the rest of the inbox).
--
-- Time: every function takes the caller's clock (p_now), so the function's injectable clock decides
-- leases, the budget, backoff and giving up alike; only the service role (the edge function) calls them.

-- 1. The outbox.
create table private.chat_outbox (
  id bigint generated always as identity primary key,
  created_at timestamptz not null default now(),
  what text not null check (what in ('lead', 'reminder', 'summary', 'taken')),
  -- the lead it is about (one of the two), deleted with it: deleting a person's data deletes these too
  quote_id uuid references public.leads (id) on delete cascade,
  discount_id uuid references public.discount_leads (id) on delete cascade,
  -- a summary's business day
  day date,
  -- a 'taken' edit: who took the lead and its new status ({by, status})
  detail jsonb check (detail is null or (jsonb_typeof(detail) = 'object' and pg_column_size(detail) <= 2000)),
  attempts integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  -- while a sender has the item: if the sender dies, the item is due again once this has passed
  sending_until timestamptz,
  sent_at timestamptz,
  -- Telegram's id of the sent message, so that it can be edited later
  message_id bigint,
  gave_up_at timestamptz,
  cancelled_at timestamptz,
  -- Telegram's description of the last failure (never a visitor's value)
  last_error text check (char_length(last_error) <= 300),
  constraint chat_outbox_about check (
    case what
      when 'summary' then quote_id is null and discount_id is null and day is not null
      else num_nonnulls(quote_id, discount_id) = 1 and day is null
    end)
);

comment on table private.chat_outbox is 'Messages for the office chat, sent in order and retried until Telegram takes them (issue 30).';

-- One message of each kind per lead, one summary per day.
create unique index chat_outbox_one_per_lead on private.chat_outbox (what, coalesce(quote_id, discount_id)) where what <> 'summary';
create unique index chat_outbox_one_summary on private.chat_outbox (day) where what = 'summary';
create index chat_outbox_due on private.chat_outbox (id) where sent_at is null and gave_up_at is null and cancelled_at is null;
create index chat_outbox_quote on private.chat_outbox (quote_id) where quote_id is not null;
create index chat_outbox_discount on private.chat_outbox (discount_id) where discount_id is not null;

create table private.chat_state (
  id boolean primary key default true check (id),
  sender uuid,
  sender_until timestamptz,
  -- Telegram asked us to wait (429 retry_after), or was unreachable (backoff)
  paused_until timestamptz,
  failures integer not null default 0 check (failures >= 0),
  last_error text check (char_length(last_error) <= 300),
  last_run_at timestamptz,
  last_sent_at timestamptz
);
insert into private.chat_state default values;

create table private.chat_sends (
  at timestamptz not null
);
create index chat_sends_at on private.chat_sends (at);

alter table private.chat_outbox enable row level security;
alter table private.chat_state enable row level security;
alter table private.chat_sends enable row level security;
create policy "Only the database's own functions use the chat outbox" on private.chat_outbox
  as restrictive for all to public using (false) with check (false);
create policy "Only the database's own functions use the chat state" on private.chat_state
  as restrictive for all to public using (false) with check (false);
create policy "Only the database's own functions use the chat sends" on private.chat_sends
  as restrictive for all to public using (false) with check (false);
revoke all on table private.chat_outbox, private.chat_state, private.chat_sends from public, anon, authenticated, service_role;

-- 2. The numbers, one place each.
-- Messages a minute to the chat: Telegram allows a group about 20; two are left for the going-live
-- check's test message and the lead probe's alert.
create function private.chat_budget() returns integer language sql immutable set search_path = '' as $$ select 18 $$;
-- How long a message is retried before it is given up on (the issue's limit: a day at most).
create function private.chat_give_up_after() returns interval language sql immutable set search_path = '' as $$ select interval '24 hours' $$;
-- How long a sender may hold the chat without showing progress; a sender that died loses it then.
create function private.chat_lease() returns interval language sql immutable set search_path = '' as $$ select interval '45 seconds' $$;
-- Wait after the n-th failure in a row: 30 s, 1, 2, 4 min, then every 5 minutes. The scheduled run
-- comes every minute, so a recovered Telegram gets the waiting messages within about 5 minutes.
create function private.chat_backoff(p_failures integer) returns interval language sql immutable set search_path = '' as $$
  select least(interval '30 seconds' * power(2, greatest(p_failures, 1) - 1), interval '5 minutes')
$$;

-- 3. Every stored lead gets its message, probe leads (20261125000200) excepted. After insert, so
--    the probe mark (a before-insert trigger) is already set.
create function private.enqueue_lead_message() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if tg_table_name = 'leads' then
    if not new.probe then
      insert into private.chat_outbox (what, quote_id, created_at, next_attempt_at) values ('lead', new.id, new.created_at, new.created_at);
    end if;
  else
    insert into private.chat_outbox (what, discount_id, created_at, next_attempt_at) values ('lead', new.id, new.created_at, new.created_at);
  end if;
  return null;
end
$$;

create trigger leads_enqueue_message
  after insert on public.leads
  for each row execute function private.enqueue_lead_message();
create trigger discount_leads_enqueue_message
  after insert on public.discount_leads
  for each row execute function private.enqueue_lead_message();

-- Leads of the last day that the one try never announced (no call came, or Telegram refused it)
-- and nobody has answered yet are sent now.
insert into private.chat_outbox (what, quote_id, created_at, next_attempt_at)
  select 'lead', l.id, l.created_at, now() from public.leads l
  where not l.probe and l.status = 'new' and l.created_at > now() - interval '24 hours'
    and (l.notified_at is null or l.notify_failed_at is not null)
  order by l.created_at;
insert into private.chat_outbox (what, discount_id, created_at, next_attempt_at)
  select 'lead', d.id, d.created_at, now() from public.discount_leads d
  where d.status = 'new' and d.created_at > now() - interval '24 hours'
    and (d.notified_at is null or d.notify_failed_at is not null)
  order by d.created_at;

-- 4. The history names who acted, also when the service role acts for a staff member (a tap on a
--    Telegram button: the webhook sets inbox.actor_id / inbox.actor_email / inbox.actor_name and
--    inbox.via for its transaction). A lead that leaves 'new' after its message was sent gets an
--    edit that says who took it, and its pending reminder is dropped.
create or replace function private.record_lead_change() returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_kind text := case tg_table_name when 'leads' then 'quote' else 'discount' end;
  v_note text := nullif(current_setting('inbox.note', true), '');
  v_actor uuid := coalesce(nullif(current_setting('inbox.actor_id', true), '')::uuid, auth.uid());
  v_email text := coalesce(nullif(current_setting('inbox.actor_email', true), ''), auth.jwt() ->> 'email');
  v_via text := nullif(current_setting('inbox.via', true), '');
  v_detail jsonb := case when v_via is not null then jsonb_build_object('via', v_via) end;
begin
  new.first_response_at := old.first_response_at;
  if new.status is distinct from old.status then
    if old.first_response_at is null and new.status in ('contacted', 'quoted', 'booked') then
      new.first_response_at := now();
    end if;
    insert into public.lead_events (lead_kind, lead_id, actor, actor_email, action, from_status, to_status, note, detail)
      values (v_kind, old.id, v_actor, v_email, 'status', old.status, new.status, v_note, v_detail);
    if old.status = 'new' then
      update private.chat_outbox set cancelled_at = now()
        where what = 'reminder' and coalesce(quote_id, discount_id) = old.id
          and sent_at is null and gave_up_at is null and cancelled_at is null;
      if exists (select 1 from private.chat_outbox o
                 where o.what = 'lead' and coalesce(o.quote_id, o.discount_id) = old.id and o.sent_at is not null) then
        insert into private.chat_outbox (what, quote_id, discount_id, detail)
          values ('taken', case when v_kind = 'quote' then old.id end, case when v_kind = 'discount' then old.id end,
                  jsonb_build_object('status', new.status,
                    'by', left(coalesce(nullif(current_setting('inbox.actor_name', true), ''), v_email, 'staff'), 100)))
          on conflict do nothing;
      end if;
    end if;
  elsif v_note is not null then
    insert into public.lead_events (lead_kind, lead_id, actor, actor_email, action, note, detail)
      values (v_kind, old.id, v_actor, v_email, 'note', v_note, v_detail);
  end if;
  if new.notify_failed_at is not null and new.notify_failed_at is distinct from old.notify_failed_at then
    insert into public.lead_events (lead_kind, lead_id, actor, actor_email, action)
      values (v_kind, old.id, v_actor, v_email, 'notify_failed');
  end if;
  return new;
end
$$;

-- 5. Sending. A sender (one call of the function, its own random id) takes the chat, then takes the
--    due messages one at a time in order of arrival, says how each went, and lets the chat go when
--    nothing is due. One sender at a time keeps the order and the budget; the lease ends a dead one.

-- Takes the chat for p_sender: {ok: true}, or {ok: false, reason: 'busy' | 'paused', until}.
create function public.chat_take(p_sender uuid, p_now timestamptz) returns jsonb
language plpgsql volatile security definer set search_path = ''
as $$
declare
  s private.chat_state%rowtype;
begin
  if p_sender is null or p_now is null then
    raise exception using errcode = '22023', message = 'p_sender and p_now are required';
  end if;
  select * into s from private.chat_state for update;
  if s.sender is not null and s.sender <> p_sender and s.sender_until > p_now then
    return jsonb_build_object('ok', false, 'reason', 'busy', 'until', s.sender_until);
  end if;
  if s.paused_until > p_now then
    return jsonb_build_object('ok', false, 'reason', 'paused', 'until', s.paused_until);
  end if;
  update private.chat_state set sender = p_sender, sender_until = p_now + private.chat_lease();
  return jsonb_build_object('ok', true);
end
$$;

-- The lead as the chat shows it (a discount sign-up has no name or message).
create function private.chat_lead(p_kind text, p_id uuid) returns jsonb
language sql stable security definer set search_path = ''
as $$
  select case p_kind
    when 'quote' then (select jsonb_build_object('kind', 'quote', 'id', l.id, 'createdAt', l.created_at, 'status', l.status,
        'firstName', l.first_name, 'lastName', l.last_name, 'email', l.email, 'phone', l.phone, 'message', l.message, 'page', l.page)
      from public.leads l where l.id = p_id)
    else (select jsonb_build_object('kind', 'discount', 'id', d.id, 'createdAt', d.created_at, 'status', d.status,
        'email', d.email, 'phone', d.phone, 'page', d.page)
      from public.discount_leads d where d.id = p_id)
  end
$$;

-- The next due message for the sender holding the chat, marked as being sent and counted against
-- the budget; or {wait: 'budget' | 'paused', until}; or {lost: true} when the sender no longer holds
-- the chat; or null when nothing is due. Reminders for a lead someone already took are dropped here.
create function public.chat_next(p_sender uuid, p_now timestamptz) returns jsonb
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
                 'firstName', i.first_name, 'lastName', i.last_name) as lead
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

-- Telegram took the message (p_message_id: its id, for a later edit).
create function public.chat_sent(p_sender uuid, p_item bigint, p_message_id bigint, p_now timestamptz) returns void
language plpgsql volatile security definer set search_path = ''
as $$
begin
  update private.chat_outbox set sent_at = p_now, sending_until = null, last_error = null,
      message_id = coalesce(p_message_id, message_id)
    where id = p_item and sent_at is null;
  if not found then
    raise exception using errcode = 'P0002', message = 'No such unsent message';
  end if;
  update private.chat_state set failures = 0, last_error = null, last_sent_at = p_now,
      sender_until = case when sender = p_sender then p_now + private.chat_lease() else sender_until end;
end
$$;

-- Telegram did not take it. p_scope 'chat': the chat as a whole cannot be reached (unreachable, 5xx,
-- 429, a wrong token or chat): every message waits, for retry_after when Telegram gave one, else
-- for the backoff. p_scope 'message': this message alone was refused; it waits for its own backoff
-- and is tried again after the others that are due. Then the sender lets the chat go.
create function public.chat_failed(p_sender uuid, p_item bigint, p_scope text, p_retry_after integer, p_error text, p_now timestamptz)
returns void
language plpgsql volatile security definer set search_path = ''
as $$
declare
  s private.chat_state%rowtype;
  o private.chat_outbox%rowtype;
  v_until timestamptz;
  v_error text := left(regexp_replace(coalesce(p_error, ''), '[[:cntrl:]]', ' ', 'g'), 300);
begin
  if p_scope is null or p_scope not in ('chat', 'message') then
    raise exception using errcode = '22023', message = 'p_scope must be chat or message';
  end if;
  if p_retry_after is not null and p_retry_after not between 0 and 86400 then
    raise exception using errcode = '22023', message = 'p_retry_after must be between 0 and 86400 seconds';
  end if;
  select * into s from private.chat_state for update;
  select * into o from private.chat_outbox where id = p_item for update;
  if not found then
    raise exception using errcode = 'P0002', message = 'No such message';
  end if;
  if p_scope = 'chat' then
    v_until := p_now + coalesce(make_interval(secs => p_retry_after), private.chat_backoff(s.failures + 1));
    update private.chat_state set paused_until = v_until,
        failures = failures + case when p_retry_after is null then 1 else 0 end,
        last_error = nullif(v_error, ''),
        sender = null, sender_until = null
      where sender = p_sender or sender is null or sender_until <= p_now;
    update private.chat_outbox set sending_until = null, next_attempt_at = v_until, last_error = nullif(v_error, '')
      where id = p_item;
  else
    v_until := p_now + private.chat_backoff(o.attempts);
    update private.chat_outbox set sending_until = null, next_attempt_at = v_until, last_error = nullif(v_error, '')
      where id = p_item;
  end if;
end
$$;

-- Lets the chat go unless something is due that the sender may send now (then it keeps the chat
-- and answers false, and the sender goes on). Taking the chat and letting it go lock the same row,
-- so a message stored while one sender finishes is sent by it or by the next, never left waiting.
create function public.chat_release(p_sender uuid, p_now timestamptz) returns boolean
language plpgsql volatile security definer set search_path = ''
as $$
declare
  s private.chat_state%rowtype;
begin
  select * into s from private.chat_state for update;
  if s.sender is distinct from p_sender then
    return true;
  end if;
  if (s.paused_until is null or s.paused_until <= p_now)
     and (select count(*) from private.chat_sends where at > p_now - interval '1 minute') < private.chat_budget()
     and exists (select 1 from private.chat_outbox o
                 where o.sent_at is null and o.gave_up_at is null and o.cancelled_at is null
                   and o.next_attempt_at <= p_now and (o.sending_until is null or o.sending_until <= p_now)) then
    update private.chat_state set sender_until = p_now + private.chat_lease();
    return false;
  end if;
  update private.chat_state set sender = null, sender_until = null;
  return true;
end
$$;

-- The scheduled run started (the going-live check looks for a recent one).
create function public.chat_run_started(p_now timestamptz) returns void
language sql volatile security definer set search_path = ''
as $$
  update private.chat_state set last_run_at = p_now
$$;

-- How delivery stands, for the going-live check (`npm run doctor`, service role).
create function public.chat_delivery_status(p_now timestamptz default now()) returns jsonb
language sql stable security definer set search_path = ''
as $$
  select jsonb_build_object(
    'lastRunAt', s.last_run_at,
    'lastSentAt', s.last_sent_at,
    'pausedUntil', case when s.paused_until > p_now then s.paused_until end,
    'lastError', s.last_error,
    'waiting', (select count(*) from private.chat_outbox o where o.sent_at is null and o.gave_up_at is null and o.cancelled_at is null),
    'oldestWaitingSince', (select min(o.created_at) from private.chat_outbox o where o.sent_at is null and o.gave_up_at is null and o.cancelled_at is null),
    'gaveUpLastWeek', (select count(*) from private.chat_outbox o where o.gave_up_at > p_now - interval '7 days'))
  from private.chat_state s
$$;

-- A sender that died (npm start stopped, the function killed) holds nothing after a restart of the
-- local stand-in, whose database no other process uses; on Supabase the lease ends it.
create function private.chat_forget_senders() returns void
language sql volatile security definer set search_path = ''
as $$
  update private.chat_state set sender = null, sender_until = null;
  update private.chat_outbox set sending_until = null where sending_until is not null and sent_at is null;
$$;

-- A lead's delivery, for the inbox (staff at aal2, like every inbox function).
create function public.lead_delivery(p_kind text, p_id uuid) returns jsonb
language plpgsql stable security definer set search_path = ''
as $$
begin
  perform private.require_staff();
  if p_kind is null or p_kind not in ('quote', 'discount') then
    raise exception using errcode = '22023', message = 'p_kind must be quote or discount';
  end if;
  -- Staff see only leads they may read (probe leads are hidden by the same rule as everywhere).
  if p_kind = 'quote' and not exists (select 1 from public.leads l where l.id = p_id and not l.probe) then
    return null;
  end if;
  return (select jsonb_agg(jsonb_build_object('what', o.what, 'sentAt', o.sent_at, 'attempts', o.attempts,
            'nextAttemptAt', case when o.sent_at is null and o.gave_up_at is null and o.cancelled_at is null then o.next_attempt_at end,
            'gaveUpAt', o.gave_up_at, 'cancelledAt', o.cancelled_at, 'lastError', o.last_error) order by o.id)
          from private.chat_outbox o
          where (p_kind = 'quote' and o.quote_id = p_id) or (p_kind = 'discount' and o.discount_id = p_id));
end
$$;

-- 6. The scheduled run: every minute pg_cron asks pg_net to call notify-telegram with the run's
--    secret. The secret is made here, in the database's Vault, and never leaves the project: the
--    function reads it with the service role (chat_run_secret) and compares. The function's address
--    is the one value the owner sets, once, in Vault (docs/going-live.md):
--      select vault.create_secret('https://<project-ref>.supabase.co', 'project_url');
create function public.chat_run_secret() returns text
language sql stable security definer set search_path = ''
as $$
  select decrypted_secret from vault.decrypted_secrets where name = 'lead_delivery_secret' limit 1
$$;

create function private.request_chat_run() returns bigint
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_url text := (select decrypted_secret from vault.decrypted_secrets where name = 'project_url' limit 1);
  v_secret text := public.chat_run_secret();
begin
  if v_url is null or v_url !~ '^https?://[^/?#[:space:]]+/?$' then
    raise exception 'Set the project''s address in Vault: select vault.create_secret(''https://<project-ref>.supabase.co'', ''project_url'') (docs/going-live.md)';
  end if;
  if v_secret is null then
    raise exception 'The lead delivery secret is missing from Vault: apply migration 20261126000000 again';
  end if;
  return net.http_post(
    url := rtrim(v_url, '/') || '/functions/v1/notify-telegram',
    body := '{"run": true}'::jsonb,
    headers := jsonb_build_object('Content-Type', 'application/json', 'Authorization', 'Bearer ' || v_secret),
    timeout_milliseconds := 60000);
end
$$;

do $$
begin
  -- Supabase: pg_cron and pg_net are available to every project (Database → Extensions).
  if exists (select 1 from pg_available_extensions where name = 'pg_cron') then
    create extension if not exists pg_cron with schema pg_catalog;
  end if;
  if exists (select 1 from pg_available_extensions where name = 'pg_net') then
    create extension if not exists pg_net with schema extensions;
  end if;
  if not exists (select 1 from vault.decrypted_secrets where name = 'lead_delivery_secret') then
    perform vault.create_secret(
      replace(gen_random_uuid()::text || gen_random_uuid()::text || gen_random_uuid()::text, '-', ''),
      'lead_delivery_secret',
      'Lets the scheduled lead delivery run (pg_cron, migration 20261126000000) call notify-telegram');
  end if;
  perform cron.schedule('lead-delivery', '* * * * *', 'select private.request_chat_run()');
end
$$;

-- 7. Who may call what.
revoke all on function private.chat_budget(), private.chat_give_up_after(), private.chat_lease(), private.chat_backoff(integer),
  private.enqueue_lead_message(), private.chat_lead(text, uuid), private.chat_forget_senders(), private.request_chat_run()
  from public, anon, authenticated, service_role;
revoke all on function public.chat_take(uuid, timestamptz), public.chat_next(uuid, timestamptz),
  public.chat_sent(uuid, bigint, bigint, timestamptz), public.chat_failed(uuid, bigint, text, integer, text, timestamptz),
  public.chat_release(uuid, timestamptz), public.chat_run_started(timestamptz), public.chat_delivery_status(timestamptz),
  public.chat_run_secret(), public.lead_delivery(text, uuid)
  from public, anon, authenticated, service_role;
grant execute on function public.chat_take(uuid, timestamptz), public.chat_next(uuid, timestamptz),
  public.chat_sent(uuid, bigint, bigint, timestamptz), public.chat_failed(uuid, bigint, text, integer, text, timestamptz),
  public.chat_release(uuid, timestamptz), public.chat_run_started(timestamptz), public.chat_delivery_status(timestamptz),
  public.chat_run_secret()
  to service_role;
grant execute on function public.lead_delivery(text, uuid) to authenticated;
