-- Lead capture tables written by the public website.
--
--   public.leads           contact form ("Get a free quote"), page = 'contact'
--   public.discount_leads  $25 discount popup, page = path the popup was shown on ('/', '/deep-cleaning', ...)
--
-- Visitors use the anonymous role (supabase anon key). They may INSERT and nothing else:
-- no SELECT / UPDATE / DELETE grant and no policy for them, so submitted leads can only be
-- read by the owner (dashboard, service_role, or `npm run leads` locally).
-- Every column carries length and format checks so a client bypassing the form still
-- cannot store junk or huge payloads.
--
-- Runs on Supabase (roles anon / authenticated / service_role exist there) and on PGlite
-- (the local bootstrap in supabase-standin/backend.ts creates those roles first).

create table public.leads (
  id uuid primary key default gen_random_uuid(),
  created_at timestamptz not null default now(),
  first_name text not null,
  last_name text not null,
  email text not null,
  phone text not null,
  message text not null,
  page text not null,
  constraint leads_first_name_length check (char_length(first_name) <= 100 and char_length(btrim(first_name)) >= 1),
  constraint leads_last_name_length check (char_length(last_name) <= 100 and char_length(btrim(last_name)) >= 1),
  constraint leads_email_format check (
    char_length(email) <= 254
    and email ~ '^[^[:space:]@]+@[^[:space:]@]+\.[^[:space:]@]+$'
  ),
  -- spec: phone is required, no format check
  constraint leads_phone_length check (char_length(phone) <= 40 and char_length(btrim(phone)) >= 1),
  constraint leads_message_length check (char_length(message) <= 5000 and char_length(btrim(message)) >= 1),
  constraint leads_page_format check (
    char_length(page) between 1 and 200
    and (page = 'contact' or left(page, 1) = '/')
  )
);

comment on table public.leads is 'Contact form submissions (quote requests). Anonymous visitors may insert only.';

create table public.discount_leads (
  id uuid primary key default gen_random_uuid(),
  created_at timestamptz not null default now(),
  email text not null,
  phone text not null,
  page text not null,
  constraint discount_leads_email_format check (
    char_length(email) <= 254
    and email ~ '^[^[:space:]@]+@[^[:space:]@]+\.[^[:space:]@]+$'
  ),
  -- spec: "phone at least 10 characters"
  constraint discount_leads_phone_length check (char_length(phone) between 10 and 40 and char_length(btrim(phone)) >= 1),
  constraint discount_leads_page_format check (
    char_length(page) between 1 and 200
    and (page = 'contact' or left(page, 1) = '/')
  )
);

comment on table public.discount_leads is '$25 discount popup sign-ups. Anonymous visitors may insert only.';

create index leads_created_at_idx on public.leads (created_at desc);
create index discount_leads_created_at_idx on public.discount_leads (created_at desc);

-- Row-level security: the only policy is "anon may insert". With RLS enabled and no
-- select/update/delete policy, those operations see / touch no rows even if a grant slips in.
alter table public.leads enable row level security;
alter table public.discount_leads enable row level security;

create policy "Visitors can submit contact leads"
  on public.leads for insert to anon
  with check (true);

create policy "Visitors can submit discount leads"
  on public.discount_leads for insert to anon
  with check (true);

-- Supabase grants ALL on new public tables to anon and authenticated by default; take that
-- back and grant only INSERT of the user-supplied columns (id and created_at stay server-set).
revoke all on table public.leads from public, anon, authenticated;
revoke all on table public.discount_leads from public, anon, authenticated;

grant insert (first_name, last_name, email, phone, message, page) on table public.leads to anon;
grant insert (email, phone, page) on table public.discount_leads to anon;
