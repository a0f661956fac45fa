-- A staff member's access ends with their session, not when their access token expires.
--
-- Supabase Auth deletes the row of auth.sessions that a token's session_id claim names when the
-- session ends: sign-out (any scope), a password set by the owner (`npm run staff -- reset`, the
-- procedure for a lost phone or laptop), the account deleted (`remove`), a refresh token reused
-- (the whole session is revoked). The token itself stays valid until it expires (an hour), and
-- the database checked only its signature, expiry and aal: a stolen or revoked token kept reading
-- leads for the rest of its hour. The staff check now also requires the token's session to exist,
-- so every policy and inbox function that relies on it refuses from the moment the session ends.
--
-- is_staff() is security definer (owned by postgres, which Supabase lets read the auth schema's
-- tables); CREATE OR REPLACE keeps its grants. The session id is compared as text, so a token
-- without one (or with a malformed one) is simply not staff rather than an error.
create or replace function private.is_staff() returns boolean
language sql stable security definer set search_path = ''
as $$
  select exists (select 1 from private.staff s where s.user_id = (select auth.uid()))
     and exists (select 1 from auth.sessions a where a.id::text = (select auth.jwt() ->> 'session_id'))
$$;

comment on function private.is_staff is 'True when the signed-in user is on the staff list and the session of the token is still open (RLS policies and the inbox RPCs).';
