-- Answering a lead from the office chat (issue 30): a tap on a lead message's "Called back" button
-- marks the lead contacted exactly as the inbox does, when the Telegram account that tapped is
-- linked to a staff member.
--
-- Linking is deliberate and proven on both sides: a staff member signed in to the inbox with the
-- second factor asks for a one-time code (telegram_link_code), and sends it to the office bot in a
-- private chat; the telegram-webhook function, reached only by Telegram (its secret header), then
-- links the sender's Telegram account to that staff member (telegram_link). The code proves the
-- staff side, Telegram's own `from` of the private message the Telegram side.
--
--   private.telegram_links       one row per linked Telegram account: which staff member it acts
--                                for; deleted with the staff member (npm run staff -- remove)
--   private.telegram_link_codes  the one open code of a staff member, kept as a SHA-256 digest
--                                (the database never holds a usable code), for 10 minutes, used once
--   private.telegram_updates     the updates that acted, so a replayed update changes nothing
--
-- Only the functions below touch these tables (security definer, owned by postgres); staff at aal2
-- call the inbox's three, the service role (the webhook, npm run staff) the others.

-- 1. The tables.
create table private.telegram_links (
  telegram_user_id bigint primary key check (telegram_user_id > 0),
  user_id uuid not null unique references private.staff (user_id) on delete cascade,
  -- Telegram's first and last name of the account, as the chat shows who took a lead
  display_name text not null check (char_length(display_name) between 1 and 64),
  linked_at timestamptz not null default now()
);

comment on table private.telegram_links is 'Telegram accounts that may act for a staff member from the office chat (issue 30).';

create table private.telegram_link_codes (
  -- sha256 of the code as the inbox shows it (upper case, no separators)
  code_digest bytea primary key check (octet_length(code_digest) = 32),
  user_id uuid not null unique references private.staff (user_id) on delete cascade,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null
);

comment on table private.telegram_link_codes is 'Each staff member''s one open Telegram link code, as a digest; expires after 10 minutes, used once.';

create table private.telegram_updates (
  update_id bigint primary key,
  received_at timestamptz not null default now()
);
create index telegram_updates_received_at on private.telegram_updates (received_at);

comment on table private.telegram_updates is 'Telegram updates that were acted on, so that a replay changes nothing; kept two days (Telegram keeps an update 24 hours).';

alter table private.telegram_links enable row level security;
alter table private.telegram_link_codes enable row level security;
alter table private.telegram_updates enable row level security;
create policy "Only the database's own functions use the Telegram links" on private.telegram_links
  as restrictive for all to public using (false) with check (false);
create policy "Only the database's own functions use the Telegram link codes" on private.telegram_link_codes
  as restrictive for all to public using (false) with check (false);
create policy "Only the database's own functions use the Telegram updates" on private.telegram_updates
  as restrictive for all to public using (false) with check (false);
revoke all on table private.telegram_links, private.telegram_link_codes, private.telegram_updates
  from public, anon, authenticated, service_role;

-- Guessing codes: 48 random bits, 10 minutes, and at most 5 tries per Telegram account in 10
-- minutes and 20 a minute in all, so a guess succeeds about once in 10^11 years.
insert into private.rate_limits (bucket, per_client, client_window, per_minute, why) values
  ('telegram_link', 5, interval '10 minutes', 20,
   'Linking a Telegram account takes one code, two after a typo; more is someone guessing codes.');

-- 2. The numbers and rules, one place each.
create function private.telegram_code_lifetime() returns interval language sql immutable set search_path = '' as $$ select interval '10 minutes' $$;

-- The code as typed: spaces and dashes dropped, upper case (the inbox shows it upper case).
create function private.telegram_code_digest(p_code text) returns bytea
language sql immutable set search_path = ''
as $$
  select sha256(convert_to(upper(regexp_replace(coalesce(p_code, ''), '[[:space:]-]', '', 'g')), 'UTF8'))
$$;

-- A Telegram name as the chat may show it: no control characters, one space between words, at most 64 characters.
create function private.telegram_display_name(p_name text) returns text
language sql immutable set search_path = ''
as $$
  select nullif(left(btrim(regexp_replace(coalesce(p_name, ''), '[[:cntrl:][:space:]]+', ' ', 'g')), 64), '')
$$;

-- 3. The inbox (staff at aal2, like every inbox function): their own link only.

-- A new one-time code for the signed-in staff member; the previous one no longer works.
-- The first 12 hex digits of a random (version 4) UUID are all random: 48 bits.
create function public.telegram_link_code() returns jsonb
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_user uuid := auth.uid();
  v_code text := upper(left(replace(gen_random_uuid()::text, '-', ''), 12));
  v_expires timestamptz := now() + private.telegram_code_lifetime();
begin
  perform private.require_staff();
  delete from private.telegram_link_codes where user_id = v_user or expires_at < now();
  insert into private.telegram_link_codes (code_digest, user_id, expires_at)
    values (private.telegram_code_digest(v_code), v_user, v_expires);
  return jsonb_build_object('code', v_code, 'expiresAt', v_expires);
end
$$;

-- Whether the signed-in staff member's Telegram is linked, and as whom.
create function public.telegram_link_status() returns jsonb
language plpgsql stable security definer set search_path = ''
as $$
begin
  perform private.require_staff();
  return coalesce(
    (select jsonb_build_object('linked', true, 'displayName', l.display_name, 'linkedAt', l.linked_at)
       from private.telegram_links l where l.user_id = auth.uid()),
    jsonb_build_object('linked', false));
end
$$;

-- Unlinks the signed-in staff member's Telegram (and drops an open code): true when one was linked.
create function public.telegram_unlink() returns boolean
language plpgsql volatile security definer set search_path = ''
as $$
begin
  perform private.require_staff();
  return public.telegram_unlink_staff(auth.uid());
end
$$;

-- 4. The webhook (service role): linking, unlinking and the tap.

-- Links the Telegram account that sent p_code in a private chat to the staff member the code was
-- made for: {ok: true, email} or {ok: false, reason: 'rate_limited' | 'invalid_code' |
-- 'linked_to_other'}. A wrong, expired or used code is one answer, so a guess learns nothing; every
-- try counts against the 'telegram_link' limit, also a wrong one (nothing is raised, so the count stays).
create function public.telegram_link(p_code text, p_telegram_user_id bigint, p_display_name text, p_now timestamptz default now())
returns jsonb
language plpgsql volatile security definer set search_path = ''
as $$
declare
  c private.telegram_link_codes%rowtype;
  v_email text;
begin
  if p_telegram_user_id is null or p_telegram_user_id <= 0 or p_now is null then
    raise exception using errcode = '22023', message = 'p_telegram_user_id (a Telegram user id) and p_now are required';
  end if;
  begin
    perform private.take_rate_limit('telegram_link', p_telegram_user_id::text);
  exception when sqlstate 'PT429' then
    return jsonb_build_object('ok', false, 'reason', 'rate_limited');
  end;
  delete from private.telegram_link_codes where expires_at <= least(p_now, now());
  delete from private.telegram_link_codes
    where code_digest = private.telegram_code_digest(p_code) and expires_at > p_now and created_at <= p_now
    returning * into c;
  if not found then
    return jsonb_build_object('ok', false, 'reason', 'invalid_code');
  end if;
  if exists (select 1 from private.telegram_links l where l.telegram_user_id = p_telegram_user_id and l.user_id <> c.user_id) then
    -- One Telegram account acts for one staff member; the code is used up, the owner asks for another.
    return jsonb_build_object('ok', false, 'reason', 'linked_to_other');
  end if;
  -- A staff member links one Telegram account: a new phone replaces the old link.
  delete from private.telegram_links where user_id = c.user_id and telegram_user_id <> p_telegram_user_id;
  select s.email into v_email from private.staff s where s.user_id = c.user_id;
  insert into private.telegram_links (telegram_user_id, user_id, display_name, linked_at)
    values (p_telegram_user_id, c.user_id, coalesce(private.telegram_display_name(p_display_name), left(v_email, 64)), p_now)
    on conflict (telegram_user_id) do update set display_name = excluded.display_name, linked_at = excluded.linked_at;
  return jsonb_build_object('ok', true, 'email', v_email);
end
$$;

-- A code posted in a group (by mistake) was seen by everyone there: it stops working at once, so
-- nobody else can link their Telegram with it. True when it was an open code.
create function public.telegram_drop_code(p_code text) returns boolean
language plpgsql volatile security definer set search_path = ''
as $$
begin
  delete from private.telegram_link_codes where code_digest = private.telegram_code_digest(p_code);
  return found;
end
$$;

-- /unlink sent to the bot: true when that Telegram account was linked.
create function public.telegram_unlink_account(p_telegram_user_id bigint) returns boolean
language plpgsql volatile security definer set search_path = ''
as $$
begin
  delete from private.telegram_links where telegram_user_id = p_telegram_user_id;
  return found;
end
$$;

-- `npm run staff -- reset`: the staff member's Telegram is unlinked at once (and an open code dropped);
-- true when one was linked. (`remove` needs nothing: the staff row's deletion cascades.)
create function public.telegram_unlink_staff(p_user_id uuid) returns boolean
language plpgsql volatile security definer set search_path = ''
as $$
begin
  delete from private.telegram_link_codes where user_id = p_user_id;
  delete from private.telegram_links where user_id = p_user_id;
  return found;
end
$$;

-- A tap on a lead message's "Called back" button (callback data contacted:<kind>:<id>), update
-- p_update_id, by Telegram account p_telegram_user_id. The lead's status becomes 'contacted' the way
-- the inbox changes it: the history trigger (private.record_lead_change) names the staff member
-- (inbox.actor_id / actor_email, detail {via: telegram}), first_response_at counts it, and the
-- chat gets the edit that says who took it (inbox.actor_name). Answers
--   {ok: true, by}                                     done
--   {ok: false, reason: 'replayed'}                    this update was already handled
--   {ok: false, reason: 'not_linked'}                  the account acts for no staff member
--   {ok: false, reason: 'unknown_lead'}                no such lead (deleted, or a probe lead)
--   {ok: false, reason: 'wrong_kind'}                  the id is a lead of the other kind
--   {ok: false, reason: 'taken', status, by}           someone already moved it on from 'new'
-- Only a linked account learns anything about the lead.
create function public.telegram_mark_contacted(p_update_id bigint, p_telegram_user_id bigint, p_kind text, p_id uuid)
returns jsonb
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_link private.telegram_links%rowtype;
  v_email text;
  v_status text;
  v_by text;
  v_changed integer;
begin
  if p_update_id is null or p_telegram_user_id is null then
    raise exception using errcode = '22023', message = 'p_update_id and p_telegram_user_id are required';
  end if;
  delete from private.telegram_updates where received_at < now() - interval '2 days';
  insert into private.telegram_updates (update_id) values (p_update_id) on conflict do nothing;
  if not found then
    return jsonb_build_object('ok', false, 'reason', 'replayed');
  end if;

  select l.* into v_link from private.telegram_links l where l.telegram_user_id = p_telegram_user_id;
  select s.email into v_email from private.staff s where s.user_id = v_link.user_id;
  if v_link.user_id is null or v_email is null then
    return jsonb_build_object('ok', false, 'reason', 'not_linked');
  end if;

  if p_kind is null or p_kind not in ('quote', 'discount') or p_id is null then
    return jsonb_build_object('ok', false, 'reason', 'unknown_lead');
  end if;
  v_status := case p_kind
    when 'quote' then (select l.status from public.leads l where l.id = p_id and not l.probe)
    else (select d.status from public.discount_leads d where d.id = p_id) end;
  if v_status is null then
    if (p_kind = 'quote' and exists (select 1 from public.discount_leads d where d.id = p_id))
       or (p_kind = 'discount' and exists (select 1 from public.leads l where l.id = p_id and not l.probe)) then
      return jsonb_build_object('ok', false, 'reason', 'wrong_kind');
    end if;
    return jsonb_build_object('ok', false, 'reason', 'unknown_lead');
  end if;

  perform set_config('inbox.actor_id', v_link.user_id::text, true),
          set_config('inbox.actor_email', v_email, true),
          set_config('inbox.actor_name', v_link.display_name, true),
          set_config('inbox.via', 'telegram', true);
  if p_kind = 'quote' then
    update public.leads set status = 'contacted' where id = p_id and status = 'new';
  else
    update public.discount_leads set status = 'contacted' where id = p_id and status = 'new';
  end if;
  get diagnostics v_changed = row_count;
  -- The actor belongs to this change only, not to a later statement in the same transaction.
  perform set_config('inbox.actor_id', '', true), set_config('inbox.actor_email', '', true),
          set_config('inbox.actor_name', '', true), set_config('inbox.via', '', true);
  if v_changed > 0 then
    return jsonb_build_object('ok', true, 'by', v_link.display_name);
  end if;

  -- Someone was first: who moved it on from 'new' (their Telegram name when they have one).
  select coalesce(tl.display_name, e.actor_email, 'staff'), e.to_status into v_by, v_status
    from public.lead_events e left join private.telegram_links tl on tl.user_id = e.actor
    where e.lead_kind = p_kind and e.lead_id = p_id and e.action = 'status' and e.from_status = 'new'
    order by e.id desc limit 1;
  return jsonb_build_object('ok', false, 'reason', 'taken',
    'status', coalesce(v_status, case p_kind when 'quote' then (select l.status from public.leads l where l.id = p_id)
                                             else (select d.status from public.discount_leads d where d.id = p_id) end),
    'by', coalesce(v_by, 'staff'));
end
$$;

-- 5. Who may call what.
revoke all on function private.telegram_code_lifetime(), private.telegram_code_digest(text), private.telegram_display_name(text)
  from public, anon, authenticated, service_role;
revoke all on function public.telegram_link_code(), public.telegram_link_status(), public.telegram_unlink(),
  public.telegram_link(text, bigint, text, timestamptz), public.telegram_drop_code(text), public.telegram_unlink_account(bigint),
  public.telegram_unlink_staff(uuid), public.telegram_mark_contacted(bigint, bigint, text, uuid)
  from public, anon, authenticated, service_role;
-- Staff link and unlink their own Telegram from the inbox (the functions check aal2 and the staff list).
grant execute on function public.telegram_link_code(), public.telegram_link_status(), public.telegram_unlink() to authenticated;
grant execute on function public.telegram_link(text, bigint, text, timestamptz), public.telegram_drop_code(text), public.telegram_unlink_account(bigint),
  public.telegram_unlink_staff(uuid), public.telegram_mark_contacted(bigint, bigint, text, uuid) to service_role;
