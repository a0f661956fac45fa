/**
 * A staff member as the lead inbox knows them, made through supabase-js against a running stand-in:
 * an account on the staff list, signed in with the password and the authenticator app (aal2).
 */
import { Secret, TOTP } from 'otpauth';
import { expect } from 'vitest';
import { createNodeClient } from '../../staff/supabaseNode.js';

export const STAFF_PASSWORD = 'purple-otter-42-lamp';

const totp = (secret: string) => new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate();

/** `inbox`: the member's signed-in client, as the inbox page holds it. */
export async function signedInStaff(url: string, keys: { anonKey: string; serviceRoleKey: string }, email: string) {
  const service = createNodeClient(url, keys.serviceRoleKey);
  const { data, error } = await service.auth.admin.createUser({ email, password: STAFF_PASSWORD, email_confirm: true });
  expect(error).toBeNull();
  expect((await service.rpc('staff_add', { p_user_id: data.user!.id, p_email: email })).error).toBeNull();
  const inbox = createNodeClient(url, keys.anonKey);
  expect((await inbox.auth.signInWithPassword({ email, password: STAFF_PASSWORD })).error).toBeNull();
  const { data: factor } = await inbox.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Phone' });
  expect((await inbox.auth.mfa.challengeAndVerify({ factorId: factor!.id, code: totp(factor!.totp.secret) })).error).toBeNull();
  return { email, userId: data.user!.id, inbox };
}
