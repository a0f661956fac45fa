-- Leads sent by the lead probe (`npm run lead-probe`, every hour) and the going-live check
-- (`npm run doctor`) test the real path, the anon insert and the notification call, exactly as a
-- visitor's browser makes them, but never reach the office: not in the inbox, its counts, the
-- 24-hour figures, the weekly chart or the CSV, and no Telegram message.
--
-- How a lead is known to be a probe, in a way no visitor can forge to hide a real lead: the probe
-- first asks for a one-time token with the service role key (issue_probe_token), then sends it in
-- the quote's message. The trigger below marks the lead `probe` only if that token exists, was
-- issued in the last 15 minutes and was not used yet, and uses it up. A visitor cannot set the
-- column (anon may insert only the visitor's columns) and cannot guess a token (a random UUID);
-- a message that merely looks like a probe's stays a real lead.

alter table public.leads add column probe boolean not null default false;
comment on column public.leads.probe is 'Sent by the lead probe or the going-live check with a valid one-time token; never shown to staff or sent to Telegram.';

create table private.probe_tokens (
  token uuid primary key default gen_random_uuid(),
  created_at timestamptz not null default now(),
  used_at timestamptz
);
alter table private.probe_tokens enable row level security;
revoke all on table private.probe_tokens from public, anon, authenticated, service_role;

-- A token for one probe lead (the service role only); tokens older than a day are cleared.
create function public.issue_probe_token() returns uuid
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_token uuid;
begin
  delete from private.probe_tokens where created_at < now() - interval '1 day';
  insert into private.probe_tokens default values returning token into v_token;
  return v_token;
end
$$;

-- The mark: the message names a token that is valid and unused.
create function private.mark_probe_lead() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_token uuid := (regexp_match(new.message, 'lead probe ([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})'))[1]::uuid;
begin
  if v_token is not null then
    update private.probe_tokens set used_at = now()
      where token = v_token and used_at is null and created_at > now() - interval '15 minutes';
    if found then
      new.probe := true;
    end if;
  end if;
  return new;
end
$$;

create trigger leads_mark_probe
  before insert on public.leads
  for each row execute function private.mark_probe_lead();

-- Staff never see one: every read of the inbox (the list, its counts and figures, the chart, the
-- CSV) goes through row-level security.
create policy "The inbox never shows probe leads" on public.leads
  as restrictive to authenticated
  using (not probe);

-- Deleting a probe lead (the probe does, in the same run) leaves no entry in the history.
drop trigger leads_record_deletion on public.leads;
create trigger leads_record_deletion
  after delete on public.leads
  for each row when (not old.probe) execute function private.record_lead_deletion();

-- The claim tells notify-telegram that the lead it claimed is a probe ({kind, id, probe: true}), so
-- that it sends nothing:
-- the claim itself (which lead, marked notified in the same statement) is unchanged, so the probe
-- proves the whole path. The earlier function stays as it was, under private.
alter function public.claim_lead_for_notification(text, text, text, text, text, text, text) rename to claim_stored_lead;
alter function public.claim_stored_lead(text, text, text, text, text, text, text) set schema private;
revoke all on function private.claim_stored_lead(text, text, text, text, text, text, text) from public, anon, authenticated, service_role;

create function public.claim_lead_for_notification(p_client text, p_page text, p_email text, p_phone text,
  p_first_name text default null, p_last_name text default null, p_message text default null) returns jsonb
language sql volatile security definer set search_path = ''
as $$
  select case when exists (select 1 from public.leads l where c.claimed ->> 'kind' = 'quote' and l.id = (c.claimed ->> 'id')::uuid and l.probe)
              then c.claimed || '{"probe": true}'::jsonb else c.claimed end
    from (select private.claim_stored_lead(p_client, p_page, p_email, p_phone, p_first_name, p_last_name, p_message) as claimed) c
$$;

revoke all on function public.issue_probe_token() from public, anon, authenticated, service_role;
revoke all on function private.mark_probe_lead() from public, anon, authenticated, service_role;
revoke all on function public.claim_lead_for_notification(text, text, text, text, text, text, text) from public, anon, authenticated, service_role;
grant execute on function public.issue_probe_token() to service_role;
grant execute on function public.claim_lead_for_notification(text, text, text, text, text, text, text) to service_role;
