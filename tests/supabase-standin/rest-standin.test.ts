/**
 * The local stand-in's REST API as the lead inbox and the edge function use it, through the real
 * supabase-js client against `createLocalBackend` + `startServer` (in-memory database): reads with
 * each filter kind, order/limit/range/count, single/maybeSingle, updates and deletes, rpc, and the
 * roles anon / authenticated (JWTs signed with the backend's secret) / service_role seeing what
 * their grants and RLS policies allow. A throw-away table and functions are made as the DB owner.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { createNodeClient } from '../../staff/supabaseNode.js';
import { SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { signJwt } from '../../supabase-standin/jwt';
import { useLocalStack } from '../backend/stack';

// The preflight test stands for a page served from another origin than the stand-in's.
const stack = useLocalStack({ telegramToken: '42:rest', telegramChatId: '-1', allowedOrigins: ['http://example.com'] });


/** supabase-js as the inbox creates it: the anon key, and a user's access token when signed in. */
function client(opts: { key?: string; token?: string } = {}): SupabaseClient {
  return createNodeClient(stack.server.url, opts.key ?? stack.backend.keys.anonKey, {
    global: { headers: opts.token ? { Authorization: `Bearer ${opts.token}` } : {} },
  });
}

const ALICE = '11111111-1111-4111-8111-111111111111';
const BOB = '22222222-2222-4222-8222-222222222222';

/** An access token with the claims Supabase Auth issues. */
function userToken(sub: string, aal: 'aal1' | 'aal2', expiresIn = 3600, sessionId: string = crypto.randomUUID()): Promise<string> {
  return signJwt(
    stack.backend.keys,
    { sub, role: 'authenticated', aud: 'authenticated', aal, email: `${sub.slice(0, 4)}@example.com`, session_id: sessionId, is_anonymous: false },
    expiresIn,
  );
}

const SETUP_SQL = `
create table public.notes (
  id int primary key,
  owner uuid,
  title text not null,
  score int,
  tags text[] not null default '{}',
  public boolean not null default false,
  secret boolean not null default false
);
alter table public.notes enable row level security;
revoke all on public.notes from public, anon, authenticated;
grant select on public.notes to anon, authenticated;
grant update (title, score), delete on public.notes to authenticated;
grant all on public.notes to service_role;
create policy "anyone reads public notes" on public.notes for select to anon, authenticated using (public);
create policy "owners read theirs" on public.notes for select to authenticated using (owner = (select auth.uid()));
create policy "owners change theirs" on public.notes for update to authenticated using (owner = (select auth.uid()));
create policy "owners delete theirs" on public.notes for delete to authenticated using (owner = (select auth.uid()));
create policy "secrets need aal2" on public.notes as restrictive for select to authenticated
  using (not secret or (select auth.jwt() ->> 'aal') = 'aal2');

create function public.add_numbers(a int, b int default 1) returns int language sql immutable as $$ select a + b $$;
create function public.my_notes() returns setof public.notes language sql stable as $$ select * from public.notes order by id $$;
create function public.note_titles(p_min int default 0) returns table (id int, title text)
  language sql stable as $$ select id, title from public.notes where id >= p_min order by id $$;
create function public.first_note() returns public.notes language sql stable as $$ select * from public.notes order by id limit 1 $$;
create function public.whoami() returns jsonb language sql stable as $$
  select jsonb_build_object('uid', auth.uid(), 'role', current_user, 'aal', auth.jwt() ->> 'aal') $$;
create function public.bump(p_id int, p_by int default 1) returns void language sql as $$
  update public.notes set score = coalesce(score, 0) + p_by where id = p_id $$;
create function public.numbers(n int) returns setof int language sql immutable as $$ select generate_series(1, n) $$;
create function public.tag_count(p_tags text[]) returns int language sql immutable as $$ select cardinality(p_tags) $$;
create function public.teapot() returns void language plpgsql as $$ begin raise sqlstate 'PT418' using message = 'I am a teapot'; end $$;
create function public.service_only() returns int language sql as $$ select 1 $$;
revoke execute on function public.service_only() from public, anon, authenticated;
`;

const NOTES = [
  { id: 1, owner: ALICE, title: 'Alpha public', score: 10, tags: '{a,b}', public: true, secret: false },
  { id: 2, owner: ALICE, title: 'alpha private', score: 20, tags: '{b}', public: false, secret: false },
  { id: 3, owner: ALICE, title: 'Alpha secret', score: null, tags: '{}', public: false, secret: true },
  { id: 4, owner: BOB, title: 'Bob public', score: 40, tags: '{c}', public: true, secret: false },
  { id: 5, owner: BOB, title: 'Bob, private (with comma)', score: 50, tags: '{}', public: false, secret: false },
];

async function resetNotes(): Promise<void> {
  await stack.backend.db.exec('DELETE FROM public.notes');
  for (const n of NOTES) {
    await stack.backend.db.query('INSERT INTO public.notes (id, owner, title, score, tags, public, secret) VALUES ($1, $2, $3, $4, $5, $6, $7)', [
      n.id, n.owner, n.title, n.score, n.tags, n.public, n.secret,
    ]);
  }
}

let alice1: string;
let alice2: string;
let bob2: string;

beforeAll(async () => {
  // Made after the backend started: the schema cache must pick it up, as PostgREST after a reload.
  await stack.backend.db.exec(SETUP_SQL);
  await resetNotes();
  [alice1, alice2, bob2] = await Promise.all([userToken(ALICE, 'aal1'), userToken(ALICE, 'aal2'), userToken(BOB, 'aal2')]);
});

const ids = (rows: Array<{ id: number }> | null) => (rows ?? []).map((r) => r.id);

describe('reads as each role sees them', () => {
  it('anon sees the public rows only; a user also their own; aal2 also their secrets; the service key everything', async () => {
    expect(ids((await client().from('notes').select('id').order('id')).data)).toEqual([1, 4]);
    expect(ids((await client({ token: alice1 }).from('notes').select('id').order('id')).data)).toEqual([1, 2, 4]);
    expect(ids((await client({ token: alice2 }).from('notes').select('id').order('id')).data)).toEqual([1, 2, 3, 4]);
    expect(ids((await client({ token: bob2 }).from('notes').select('id').order('id')).data)).toEqual([1, 4, 5]);
    expect(ids((await client({ key: stack.backend.keys.serviceRoleKey }).from('notes').select('id').order('id')).data)).toEqual([1, 2, 3, 4, 5]);
    // The service key as the bearer token alone (apikey the anon key), as server code sends it.
    expect(ids((await client({ token: stack.backend.keys.serviceRoleKey }).from('notes').select('id').order('id')).data)).toEqual([1, 2, 3, 4, 5]);
  });

  it('auth.uid(), auth.jwt() and the role inside SQL are the caller\'s', async () => {
    expect((await client({ token: alice2 }).rpc('whoami')).data).toEqual({ uid: ALICE, role: 'authenticated', aal: 'aal2' });
    expect((await client().rpc('whoami')).data).toEqual({ uid: null, role: 'anon', aal: null });
    expect((await client({ key: stack.backend.keys.serviceRoleKey }).rpc('whoami')).data).toEqual({ uid: null, role: 'service_role', aal: null });
  });

  it('selects columns, with aliases, as PostgREST shapes them', async () => {
    const { data, error } = await client({ key: stack.backend.keys.serviceRoleKey }).from('notes').select('id, name:title, tags').eq('id', 1);
    expect(error).toBeNull();
    expect(data).toEqual([{ id: 1, name: 'Alpha public', tags: ['a', 'b'] }]);
    const star = await client().from('notes').select('*').eq('id', 4);
    expect(star.data).toEqual([{ id: 4, owner: BOB, title: 'Bob public', score: 40, tags: ['c'], public: true, secret: false }]);
  });
});

describe('filters', () => {
  const svc = () => client({ key: stack.backend.keys.serviceRoleKey }).from('notes').select('id');
  it.each<[string, (q: ReturnType<typeof svc>) => PromiseLike<{ data: Array<{ id: number }> | null; error: unknown }>, number[]]>([
    ['eq', (q) => q.eq('owner', BOB).order('id'), [4, 5]],
    ['neq', (q) => q.neq('owner', BOB).order('id'), [1, 2, 3]],
    ['gt', (q) => q.gt('score', 20).order('id'), [4, 5]],
    ['gte', (q) => q.gte('score', 20).order('id'), [2, 4, 5]],
    ['lt', (q) => q.lt('score', 20).order('id'), [1]],
    ['lte', (q) => q.lte('score', 20).order('id'), [1, 2]],
    ['like', (q) => q.like('title', 'Alpha%').order('id'), [1, 3]],
    ['ilike', (q) => q.ilike('title', 'alpha%').order('id'), [1, 2, 3]],
    ['is null', (q) => q.is('score', null), [3]],
    ['is true', (q) => q.is('secret', true), [3]],
    ['in', (q) => q.in('id', [2, 4, 99]).order('id'), [2, 4]],
    ['in with a comma inside a value', (q) => q.in('title', ['Bob, private (with comma)', 'nope']), [5]],
    ['not.eq', (q) => q.not('owner', 'eq', ALICE).order('id'), [4, 5]],
    ['not.is null', (q) => q.not('score', 'is', null).order('id'), [1, 2, 4, 5]],
    ['or', (q) => q.or('score.gte.50,title.ilike.*secret*').order('id'), [3, 5]],
    ['or with and inside', (q) => q.or(`and(owner.eq.${ALICE},score.gt.15),id.eq.4`).order('id'), [2, 4]],
    ['two filters (and)', (q) => q.eq('public', true).gt('score', 10), [4]],
  ])('%s', async (_name, build, expected) => {
    const { data, error } = await build(svc());
    expect(error).toBeNull();
    expect(ids(data)).toEqual(expected);
  });

  it('a filter on a column that does not exist, an embedding or an unsupported operator is a 400', async () => {
    const missing = await client().from('notes').select('id').eq('nope', 1);
    expect([missing.status, missing.error?.code]).toEqual([400, '42703']);
    const embed = await client().from('notes').select('id, owner(id)');
    expect([embed.status, embed.error?.code]).toEqual([400, 'PGRST100']);
    const fts = await client().from('notes').select('id').textSearch('title', 'alpha');
    expect([fts.status, fts.error?.code]).toEqual([400, 'PGRST100']);
  });

  it('values are data, never SQL', async () => {
    const { data, error } = await client({ key: stack.backend.keys.serviceRoleKey }).from('notes').select('id').eq('title', "x' OR 1=1 --");
    expect(error).toBeNull();
    expect(data).toEqual([]);
    const injected = await client({ key: stack.backend.keys.serviceRoleKey }).from('notes').select('id').in('id', ['1) OR (1=1']);
    expect([injected.status, injected.error?.code]).toEqual([400, '22P02']);
  });
});

describe('order, paging and counting', () => {
  const svc = () => client({ key: stack.backend.keys.serviceRoleKey });

  it('orders descending with nulls last, limits, and pages with range()', async () => {
    expect(ids((await svc().from('notes').select('id').order('score', { ascending: false, nullsFirst: false })).data)).toEqual([5, 4, 2, 1, 3]);
    expect(ids((await svc().from('notes').select('id').order('score', { ascending: true, nullsFirst: true })).data)).toEqual([3, 1, 2, 4, 5]);
    expect(ids((await svc().from('notes').select('id').order('id', { ascending: false }).limit(2)).data)).toEqual([5, 4]);
    expect(ids((await svc().from('notes').select('id').order('id').range(1, 3)).data)).toEqual([2, 3, 4]);
  });

  it('count=exact gives the total beside a partial page, with 206 as PostgREST answers it', async () => {
    const page = await svc().from('notes').select('id', { count: 'exact' }).order('id').range(0, 1);
    expect(page.status).toBe(206);
    expect(page.count).toBe(5);
    expect(ids(page.data)).toEqual([1, 2]);
    const all = await svc().from('notes').select('id', { count: 'exact' });
    expect([all.status, all.count]).toEqual([200, 5]);
    // The count follows RLS: anon counts what it can see.
    const head = await client().from('notes').select('*', { count: 'exact', head: true });
    expect([head.status, head.count, head.data]).toEqual([200, 2, null]);
  });

  it('honours the Range header and refuses an offset past the end with 416', async () => {
    const res = await fetch(`${stack.server.url}/rest/v1/notes?select=id&order=id`, {
      headers: { apikey: stack.backend.keys.serviceRoleKey, Range: '3-10', Prefer: 'count=exact' },
    });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe('3-4/5');
    expect(await res.json()).toEqual([{ id: 4 }, { id: 5 }]);
    const past = await svc().from('notes').select('id', { count: 'exact' }).range(10, 12);
    expect([past.status, past.error?.code]).toEqual([416, 'PGRST103']);
  });

  it('single() and maybeSingle()', async () => {
    const one = await client().from('notes').select('id, title').eq('id', 4).single();
    expect([one.status, one.data]).toEqual([200, { id: 4, title: 'Bob public' }]);
    const none = await client().from('notes').select('id').eq('id', 2).single(); // not visible to anon
    expect([none.status, none.error?.code]).toEqual([406, 'PGRST116']);
    const many = await client().from('notes').select('id').single();
    expect([many.status, many.error?.code]).toEqual([406, 'PGRST116']);
    expect((await client().from('notes').select('id').eq('id', 2).maybeSingle()).data).toBeNull();
    expect((await client().from('notes').select('id').eq('id', 1).maybeSingle()).data).toEqual({ id: 1 });
  });
});

describe('updates and deletes', () => {
  beforeAll(resetNotes);

  it('a user updates their own rows only, and gets them back with return=representation', async () => {
    const mine = await client({ token: alice1 }).from('notes').update({ title: 'Alpha renamed', score: 11 }).eq('id', 1).select();
    expect(mine.error).toBeNull();
    expect(mine.data).toEqual([expect.objectContaining({ id: 1, title: 'Alpha renamed', score: 11 })]);
    const theirs = await client({ token: alice1 }).from('notes').update({ title: 'hijacked' }).eq('id', 4).select();
    expect([theirs.status, theirs.data]).toEqual([200, []]);
    const minimal = await client({ token: alice1 }).from('notes').update({ score: 12 }).in('id', [1, 2]);
    expect([minimal.status, minimal.data, minimal.error]).toEqual([204, null, null]);
    const { rows } = await stack.backend.db.query<{ id: number; title: string; score: number }>('SELECT id, title, score FROM public.notes WHERE id IN (1, 2, 4) ORDER BY id');
    expect(rows).toEqual([{ id: 1, title: 'Alpha renamed', score: 12 }, { id: 2, title: 'alpha private', score: 12 }, { id: 4, title: 'Bob public', score: 40 }]);
  });

  it('a column without an UPDATE grant is refused: 403 for a signed-in user, 401 for anon', async () => {
    const user = await client({ token: alice1 }).from('notes').update({ public: false }).eq('id', 1);
    expect([user.status, user.error?.code]).toEqual([403, '42501']);
    const anon = await client().from('notes').update({ title: 'x' }).eq('id', 1);
    expect([anon.status, anon.error?.code]).toEqual([401, '42501']);
    const unknown = await client({ token: alice1 }).from('notes').update({ nope: 1 }).eq('id', 1);
    expect([unknown.status, unknown.error?.code]).toEqual([400, 'PGRST204']);
  });

  it('single() on an update touching two rows rolls it back', async () => {
    const res = await client({ key: stack.backend.keys.serviceRoleKey }).from('notes').update({ score: 0 }).in('id', [4, 5]).select().single();
    expect([res.status, res.error?.code]).toEqual([406, 'PGRST116']);
    const { rows } = await stack.backend.db.query<{ score: number }>('SELECT score FROM public.notes WHERE id IN (4, 5) ORDER BY id');
    expect(rows).toEqual([{ score: 40 }, { score: 50 }]);
  });

  it('an update or delete without a filter is refused, as Supabase refuses it', async () => {
    const upd = await client({ key: stack.backend.keys.serviceRoleKey }).from('notes').update({ score: 0 }).select();
    expect([upd.status, upd.error?.code]).toEqual([400, '21000']);
    const del = await fetch(`${stack.server.url}/rest/v1/notes`, { method: 'DELETE', headers: { apikey: stack.backend.keys.serviceRoleKey } });
    expect(del.status).toBe(400);
    expect((await stack.backend.db.query('SELECT id FROM public.notes')).rows).toHaveLength(5);
  });

  it('upsert merges on the primary key (service role), ignore-duplicates leaves the row', async () => {
    const svc = client({ key: stack.backend.keys.serviceRoleKey });
    const merged = await svc.from('notes').upsert([{ id: 5, title: 'Bob merged', owner: BOB }, { id: 6, title: 'New one', owner: BOB }]).select('id, title');
    expect(merged.error).toBeNull();
    expect(merged.data).toEqual([{ id: 5, title: 'Bob merged' }, { id: 6, title: 'New one' }]);
    const ignored = await svc.from('notes').upsert({ id: 6, title: 'ignored' }, { ignoreDuplicates: true }).select('id');
    expect(ignored.data).toEqual([]);
    // As a user without INSERT: the database's refusal, 403.
    const user = await client({ token: alice2 }).from('notes').upsert({ id: 1, title: 'x' });
    expect([user.status, user.error?.code]).toEqual([403, '42501']);
    await stack.backend.db.exec(`UPDATE public.notes SET title = 'Bob, private (with comma)' WHERE id = 5; DELETE FROM public.notes WHERE id = 6`);
  });

  it('a user deletes their own rows only; return=representation gives them back', async () => {
    const theirs = await client({ token: alice2 }).from('notes').delete().eq('owner', BOB).select('id');
    expect([theirs.status, theirs.data]).toEqual([200, []]);
    const mine = await client({ token: alice2 }).from('notes').delete().eq('owner', ALICE).lt('id', 3).select('id');
    expect(mine.error).toBeNull();
    expect(ids(mine.data).sort()).toEqual([1, 2]);
    const anon = await client().from('notes').delete().eq('id', 4);
    expect([anon.status, anon.error?.code]).toEqual([401, '42501']);
    expect(ids((await stack.backend.db.query<{ id: number }>('SELECT id FROM public.notes ORDER BY id')).rows)).toEqual([3, 4, 5]);
  });
});

describe('rpc', () => {
  beforeAll(resetNotes);

  it('a scalar, with a default and a cast argument', async () => {
    expect((await client().rpc('add_numbers', { a: 2, b: 40 })).data).toBe(42);
    expect((await client().rpc('add_numbers', { a: 2 })).data).toBe(3);
    expect((await client().rpc('tag_count', { p_tags: ['x', 'y', 'z'] })).data).toBe(3);
    expect((await client().rpc('add_numbers', { a: 5 }, { get: true })).data).toBe(6);
  });

  it('a set of rows follows RLS and takes filters, order and limit; a set of scalars is an array', async () => {
    expect(ids((await client({ token: alice1 }).rpc('my_notes')).data as Array<{ id: number }>)).toEqual([1, 2, 4]);
    const filtered = await client({ key: stack.backend.keys.serviceRoleKey }).rpc('my_notes').gt('score', 15).order('id', { ascending: false }).limit(2);
    expect(ids(filtered.data as Array<{ id: number }>)).toEqual([5, 4]);
    const table = await client({ key: stack.backend.keys.serviceRoleKey }).rpc('note_titles', { p_min: 4 });
    expect(table.data).toEqual([{ id: 4, title: 'Bob public' }, { id: 5, title: 'Bob, private (with comma)' }]);
    expect((await client().rpc('numbers', { n: 3 })).data).toEqual([1, 2, 3]);
    // GET: the query parameters naming an argument are arguments, the others filter the rows.
    const viaGet = await client({ key: stack.backend.keys.serviceRoleKey }).rpc('note_titles', { p_min: 2 }, { get: true }).lt('id', 4);
    expect(ids(viaGet.data as Array<{ id: number }>)).toEqual([2, 3]);
  });

  it('a single composite is an object', async () => {
    const { data } = await client({ key: stack.backend.keys.serviceRoleKey }).rpc('first_note');
    expect(data).toMatchObject({ id: 1, title: 'Alpha public', tags: ['a', 'b'] });
  });

  it('void: 204 and the change made, as the caller', async () => {
    const res = await client({ key: stack.backend.keys.serviceRoleKey }).rpc('bump', { p_id: 4, p_by: 2 });
    expect([res.status, res.data, res.error]).toEqual([204, null, null]);
    expect((await stack.backend.db.query<{ score: number }>('SELECT score FROM public.notes WHERE id = 4')).rows[0]?.score).toBe(42);
    // A GET runs read-only, as PostgREST runs it.
    const viaGet = await client({ key: stack.backend.keys.serviceRoleKey }).rpc('bump', { p_id: 4 }, { get: true });
    expect([viaGet.status, viaGet.error?.code]).toEqual([405, '25006']);
  });

  it('errors as PostgREST maps them: unknown function or argument 404, PT418 -> 418, no EXECUTE grant 401/403', async () => {
    const unknown = await client().rpc('nope');
    expect([unknown.status, unknown.error?.code]).toEqual([404, 'PGRST202']);
    const badArg = await client().rpc('add_numbers', { a: 1, c: 2 });
    expect([badArg.status, badArg.error?.code]).toEqual([404, 'PGRST202']);
    const missingArg = await client().rpc('add_numbers', { b: 2 });
    expect([missingArg.status, missingArg.error?.code]).toEqual([404, 'PGRST202']);
    const teapot = await client().rpc('teapot');
    expect([teapot.status, teapot.error?.message]).toEqual([418, 'I am a teapot']);
    expect((await client().rpc('service_only')).status).toBe(401);
    expect((await client({ token: alice2 }).rpc('service_only')).status).toBe(403);
    expect((await client({ key: stack.backend.keys.serviceRoleKey }).rpc('service_only')).data).toBe(1);
    const badValue = await client().rpc('add_numbers', { a: 'not a number' });
    expect([badValue.status, badValue.error?.code]).toEqual([400, '22P02']);
  });
});

describe('the gateway refuses what Supabase refuses', () => {
  it('an expired JWT: 401 PGRST303 "JWT expired"', async () => {
    const expired = await userToken(ALICE, 'aal2', -60);
    const res = await client({ token: expired }).from('notes').select('id');
    expect([res.status, res.error?.code, res.error?.message]).toEqual([401, 'PGRST303', 'JWT expired']);
  });

  it('a JWT signed with another secret, or not a JWT: 401 PGRST301', async () => {
    const forged = await new SignJWT({ sub: ALICE, role: 'service_role', aal: 'aal2' })
      .setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('a-secret-that-is-not-this-projects-secret'));
    const res = await client({ token: forged }).from('notes').select('id');
    expect([res.status, res.error?.code]).toEqual([401, 'PGRST301']);
    expect((await client({ token: 'garbage' }).from('notes').select('id')).status).toBe(401);
  });

  it('a token for a role other than anon, authenticated or service_role is refused', async () => {
    const token = await signJwt(stack.backend.keys, { sub: ALICE, role: 'postgres' }, 60);
    const res = await client({ token }).from('notes').select('id');
    expect(res.status).toBe(401);
    expect(res.data).toBeNull();
  });

  it('a wrong apikey: 401 "Invalid API key", even with a valid user token', async () => {
    const res = await client({ key: 'not-a-key-of-this-project', token: alice2 }).from('notes').select('id');
    expect([res.status, res.error?.message]).toEqual([401, 'Invalid API key']);
  });

});

describe('plumbing and hostile requests', () => {
  const rest = (path: string, init: RequestInit = {}) =>
    fetch(`${stack.server.url}/rest/v1/${path}`, { ...init, headers: { apikey: stack.backend.keys.anonKey, ...(init.headers as Record<string, string>) } });

  it('a preflight allows the methods and headers supabase-js uses', async () => {
    const res = await fetch(`${stack.server.url}/rest/v1/notes?id=eq.1`, {
      method: 'OPTIONS',
      headers: { Origin: 'http://example.com', 'Access-Control-Request-Method': 'PATCH', 'Access-Control-Request-Headers': 'apikey, authorization, prefer, content-type, x-client-info' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-methods')).toMatch(/GET.*POST.*PATCH.*DELETE/);
    expect(res.headers.get('access-control-allow-headers')).toContain('prefer');
    const get = await client().from('notes').select('id').limit(1);
    expect(get.error).toBeNull();
  });

  it('the stand-in\'s own tables and other schemas stay out of reach', async () => {
    for (const path of ['_local_migrations', 'private.staff', 'pg_roles']) {
      const res = await rest(`${path}?select=*`);
      expect(res.status, path).toBe(404);
      expect(((await res.json()) as { code: string }).code).toBe('PGRST205');
    }
    const other = await rest('notes?select=id', { headers: { 'Accept-Profile': 'private' } });
    expect([other.status, ((await other.json()) as { code: string }).code]).toEqual([406, 'PGRST106']);
  });

  it('nesting and()/or() without end is a 400, not a crash', async () => {
    const deep = `${'and('.repeat(40)}id.eq.1${')'.repeat(40)}`;
    const res = await rest(`notes?select=id&or=(${deep})`);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { code: string }).code).toBe('PGRST100');
  });

  it('a media type the stand-in cannot produce is a 406', async () => {
    const res = await rest('notes?select=id', { headers: { Accept: 'text/csv' } });
    expect(res.status).toBe(406);
  });
});

describe('the lead inbox over REST (migration 20261124000000_lead_inbox.sql)', () => {
  const STAFF = '44444444-4444-4444-8444-444444444444';
  const OTHER = '55555555-5555-4555-8555-555555555555';
  let quoteId: string;

  beforeAll(async () => {
    const { db } = stack.backend;
    await db.query(`INSERT INTO auth.users (id, email) VALUES ($1, 'owner@example.com'), ($2, 'someone@example.com')`, [STAFF, OTHER]);
    await db.query(`INSERT INTO private.staff (user_id, email) VALUES ($1, 'owner@example.com')`, [STAFF]);
    quoteId = (
      await db.query<{ id: string }>(
        `INSERT INTO public.leads (first_name, last_name, email, phone, message, page) VALUES ('Maria', 'Lopez', 'maria@example.com', '4085550199', 'Deep clean', 'contact') RETURNING id`,
      )
    ).rows[0]!.id;
    await db.query(`INSERT INTO public.discount_leads (email, phone, page) VALUES ('sam@example.com', '4085550100', '/')`);
  });

  /** A token of an open session: its row in auth.sessions, as Supabase Auth keeps it (the staff check requires it). */
  const token = async (sub: string, aal: 'aal1' | 'aal2') => {
    const session = crypto.randomUUID();
    await stack.backend.db.query('INSERT INTO auth.sessions (id, user_id, aal) VALUES ($1, $2, $3)', [session, sub, aal]);
    return userToken(sub, aal, 3600, session);
  };

  it('a staff member at aal1 and a signed-in non-staff user at aal2 get nothing; staff at aal2 sees and works the leads', async () => {
    for (const [who, jwt] of [['staff at aal1', await token(STAFF, 'aal1')], ['non-staff at aal2', await token(OTHER, 'aal2')]] as const) {
      const inbox = await client({ token: jwt }).from('inbox_leads').select('*');
      expect([inbox.error, inbox.data], who).toEqual([null, []]);
      expect((await client({ token: jwt }).from('leads').select('*')).data, who).toEqual([]);
      expect((await client({ token: jwt }).from('discount_leads').select('*')).data, who).toEqual([]);
      const change = await client({ token: jwt }).from('leads').update({ status: 'spam' }).eq('id', quoteId).select();
      expect(change.data, who).toEqual([]);
      const search = await client({ token: jwt }).rpc('search_leads', {});
      expect([search.status, search.error?.code], who).toEqual([403, '42501']);
    }
    expect((await stack.backend.db.query<{ status: string }>('SELECT status FROM public.leads WHERE id = $1', [quoteId])).rows[0]?.status).toBe('new');

    const staff = client({ token: await token(STAFF, 'aal2') });
    const inbox = await staff.from('inbox_leads').select('kind, email, status').order('kind');
    expect(inbox.data).toEqual([
      { kind: 'discount', email: 'sam@example.com', status: 'new' },
      { kind: 'quote', email: 'maria@example.com', status: 'new' },
    ]);
    const { count } = await staff.from('leads').select('*', { count: 'exact', head: true });
    expect(count).toBe(1);
    const changed = await staff.rpc('set_lead_status', { p_kind: 'quote', p_id: quoteId, p_status: 'contacted', p_note: 'Called back' });
    expect(changed.error).toBeNull();
    expect(changed.data).toMatchObject({ kind: 'quote', id: quoteId, status: 'contacted', first_response_at: expect.any(String) });
    const history = await staff.from('lead_events').select('action, to_status, note, actor').eq('lead_id', quoteId);
    expect(history.data).toEqual([{ action: 'status', to_status: 'contacted', note: 'Called back', actor: STAFF }]);
    const found = await staff.rpc('search_leads', { p_query: 'MARIA' });
    expect((found.data as Array<{ id: string }>).map((l) => l.id)).toEqual([quoteId]);
  });
});
