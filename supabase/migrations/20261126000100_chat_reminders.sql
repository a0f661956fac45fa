-- Nobody is left unchased (issue 30): a lead still new some minutes of opening hours after it
-- arrived gets one reminder in the office chat, and each business day opens with one summary of
-- the leads overdue and due that day.
--
-- The business-hours math (the office's time zone, days and hours, the delay: content/site.yaml)
-- is done by the scheduled run (supabase/functions/_shared/chat/office.ts), which reads the hours
-- the site publishes; these functions only answer which leads could be due and put the messages
-- in the outbox (20261126000000), re-checking each lead as they do. The outbox's unique indexes
-- make each reminder and each day's summary happen at most once, the status trigger cancels a
-- pending reminder once the lead leaves 'new', and chat_next drops one whose lead did anyway.
-- Probe leads never get either. Like the rest of the outbox: security definer, the service role
-- only, and the caller's clock (p_now).

-- How long a lead may wait for a reminder to still be worth sending: a reminder comes within a
-- working day of opening hours, and a week holds at least one business day.
create function private.chat_reminder_horizon() returns interval language sql immutable set search_path = '' as $$ select interval '8 days' $$;

-- The leads that could be due for their reminder: still new, not a probe, announced in the chat
-- (so a lead from before the outbox existed is not chased now), no reminder yet, arrived within
-- the horizon; oldest first, [{kind, id, createdAt}]. The run decides which are due.
create function public.chat_reminder_candidates(p_now timestamptz) returns jsonb
language sql stable security definer set search_path = ''
as $$
  select coalesce(jsonb_agg(jsonb_build_object('kind', x.kind, 'id', x.id, 'createdAt', x.created_at) order by x.created_at, x.id), '[]'::jsonb)
  from (
    select case when o.quote_id is not null then 'quote' else 'discount' end as kind,
           coalesce(o.quote_id, o.discount_id) as id,
           coalesce(q.created_at, d.created_at) as created_at
      from private.chat_outbox o
      left join public.leads q on q.id = o.quote_id
      left join public.discount_leads d on d.id = o.discount_id
      where o.what = 'lead'
        and coalesce(q.status, d.status) = 'new' and not coalesce(q.probe, false)
        and coalesce(q.created_at, d.created_at) between p_now - private.chat_reminder_horizon() and p_now
        and not exists (select 1 from private.chat_outbox r
                        where r.what = 'reminder' and coalesce(r.quote_id, r.discount_id) = coalesce(o.quote_id, o.discount_id))
      order by 3, 2
      limit 500) x
$$;

-- Puts a reminder in the outbox for each lead of p_leads ([{kind, id}], at most 500) that is still
-- new, not a probe, announced, and has none yet; answers how many were added. Checked here again,
-- so a lead taken since the candidates were read, or a list that names anything else, adds nothing.
create function public.chat_enqueue_reminders(p_leads jsonb, p_now timestamptz) returns integer
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_added integer;
begin
  if p_now is null or p_leads is null or jsonb_typeof(p_leads) <> 'array' or jsonb_array_length(p_leads) > 500 then
    raise exception using errcode = '22023', message = 'p_leads must be an array of at most 500 {kind, id} and p_now is required';
  end if;
  if exists (select 1 from jsonb_array_elements(p_leads) e
             where jsonb_typeof(e) <> 'object' or (e ->> 'kind') is null or (e ->> 'kind') not in ('quote', 'discount')
               or (e ->> 'id') is null or (e ->> 'id') !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$') then
    raise exception using errcode = '22023', message = 'each lead must be {kind: quote | discount, id: uuid}';
  end if;
  with wanted as (
    select distinct e ->> 'kind' as kind, (e ->> 'id')::uuid as id from jsonb_array_elements(p_leads) e
  ), still_new as (
    select 'quote' as kind, q.id from wanted w join public.leads q on w.kind = 'quote' and q.id = w.id
      where q.status = 'new' and not q.probe and q.created_at <= p_now
    union all
    select 'discount', d.id from wanted w join public.discount_leads d on w.kind = 'discount' and d.id = w.id
      where d.status = 'new' and d.created_at <= p_now
  ), added as (
    insert into private.chat_outbox (what, quote_id, discount_id, created_at, next_attempt_at)
      select 'reminder', case when s.kind = 'quote' then s.id end, case when s.kind = 'discount' then s.id end, p_now, p_now
        from still_new s
        where exists (select 1 from private.chat_outbox o where o.what = 'lead' and coalesce(o.quote_id, o.discount_id) = s.id)
      on conflict do nothing
      returning 1
  )
  select count(*) into v_added from added;
  return v_added;
end
$$;

-- Puts business day p_day's summary in the outbox when some lead still new is overdue (waited 24
-- hours) or will be before p_due_before (the day's closing time): true when the day has its
-- summary (now or already), false when there is nothing to say. detail.dueBefore tells the
-- message which leads are due today.
create function public.chat_enqueue_summary(p_day date, p_due_before timestamptz, p_now timestamptz) returns boolean
language plpgsql volatile security definer set search_path = ''
as $$
begin
  if p_day is null or p_now is null or p_due_before is null
     or p_due_before < p_now or p_due_before > p_now + interval '1 day' then
    raise exception using errcode = '22023', message = 'p_day, p_now and p_due_before (within a day after p_now) are required';
  end if;
  if exists (select 1 from private.chat_outbox where what = 'summary' and day = p_day) then
    return true;
  end if;
  if not exists (
      select 1 from public.leads q where q.status = 'new' and not q.probe and q.created_at <= p_due_before - interval '24 hours'
      union all
      select 1 from public.discount_leads d where d.status = 'new' and d.created_at <= p_due_before - interval '24 hours') then
    return false;
  end if;
  insert into private.chat_outbox (what, day, detail, created_at, next_attempt_at)
    values ('summary', p_day, jsonb_build_object('dueBefore', p_due_before), p_now, p_now)
    on conflict do nothing;
  return true;
end
$$;

revoke all on function private.chat_reminder_horizon() from public, anon, authenticated, service_role;
revoke all on function public.chat_reminder_candidates(timestamptz), public.chat_enqueue_reminders(jsonb, timestamptz),
  public.chat_enqueue_summary(date, timestamptz, timestamptz)
  from public, anon, authenticated, service_role;
grant execute on function public.chat_reminder_candidates(timestamptz), public.chat_enqueue_reminders(jsonb, timestamptz),
  public.chat_enqueue_summary(date, timestamptz, timestamptz)
  to service_role;
