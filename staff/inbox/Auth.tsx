/**
 * The way in: email and password, then the second factor. A first sign-in enrols an authenticator
 * app (QR code and the secret as text); later ones ask for its 6-digit code. Until the session is
 * aal2 nothing else shows, and the database returns nothing anyway (its policies ask for aal2).
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { authErrorMessage } from './authErrors.js';

export type AuthStep =
  | { step: 'loading' }
  | { step: 'signIn'; notice?: string }
  | { step: 'enrol'; factorId: string; qrCode: string; secret: string }
  | { step: 'verify'; factorId: string }
  | { step: 'ready'; email: string };

/** Where a session stands: signed out, needing a factor, needing its code, or in. */
export async function nextStep(supabase: SupabaseClient): Promise<AuthStep> {
  const { data: { session } } = await supabase.auth.getSession();
  if (!session) return { step: 'signIn' };
  const level = await supabase.auth.mfa.getAuthenticatorAssuranceLevel();
  if (level.data?.currentLevel === 'aal2') return { step: 'ready', email: session.user.email ?? '' };
  const factors = await supabase.auth.mfa.listFactors();
  if (factors.error) return { step: 'signIn', notice: authErrorMessage(factors.error, 'password') };
  const verified = factors.data.totp.find((f) => f.status === 'verified');
  if (verified) return { step: 'verify', factorId: verified.id };
  // An enrolment left half done (the page closed before the code) is replaced by a new one.
  for (const stale of factors.data.all.filter((f) => f.status === 'unverified')) await supabase.auth.mfa.unenroll({ factorId: stale.id }).catch(() => {});
  const enrolled = await supabase.auth.mfa.enroll({ factorType: 'totp' });
  if (enrolled.error) return { step: 'signIn', notice: authErrorMessage(enrolled.error, 'password') };
  return { step: 'enrol', factorId: enrolled.data.id, qrCode: enrolled.data.totp.qr_code, secret: enrolled.data.totp.secret };
}

export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  const heading = useRef<HTMLHeadingElement>(null);
  // Each step moves focus to its heading, so a screen reader announces where the user is.
  useEffect(() => heading.current?.focus(), [title]);
  return (
    <main className="auth">
      <div className="auth-card">
        <p className="auth-brand">Lead inbox</p>
        <h1 ref={heading} tabIndex={-1}>{title}</h1>
        {children}
      </div>
    </main>
  );
}

function ErrorText({ id, text }: { id: string; text: string | undefined }) {
  return <p id={id} className="form-error" role="alert">{text}</p>;
}

export function SignIn({ supabase, notice, onDone }: { supabase: SupabaseClient; notice?: string | undefined; onDone: () => void }) {
  const [error, setError] = useState(notice);
  const [busy, setBusy] = useState(false);
  const errorId = useId();
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setError(undefined);
    const { error: failed } = await supabase.auth.signInWithPassword({ email: String(form.get('email')).trim(), password: String(form.get('password')) });
    setBusy(false);
    if (failed) setError(authErrorMessage(failed, 'password'));
    else onDone();
  }
  return (
    <AuthCard title="Sign in">
      <form onSubmit={submit} noValidate={false} aria-describedby={errorId}>
        <label htmlFor="signin-email">Email</label>
        <input id="signin-email" name="email" type="email" autoComplete="username" required aria-invalid={Boolean(error)} />
        <label htmlFor="signin-password">Password</label>
        <input id="signin-password" name="password" type="password" autoComplete="current-password" required aria-invalid={Boolean(error)} />
        <ErrorText id={errorId} text={error} />
        <button type="submit" className="button primary" disabled={busy}>{busy ? 'Signing in…' : 'Sign in'}</button>
      </form>
    </AuthCard>
  );
}

function CodeForm({ supabase, factorId, label, onDone }: { supabase: SupabaseClient; factorId: string; label: string; onDone: () => void }) {
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const errorId = useId();
  const inputId = useId();
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const code = String(new FormData(event.currentTarget).get('code')).replace(/\s/g, '');
    if (!/^\d{6}$/.test(code)) {
      setError('The code is 6 digits.');
      return;
    }
    setBusy(true);
    setError(undefined);
    const { error: failed } = await supabase.auth.mfa.challengeAndVerify({ factorId, code });
    setBusy(false);
    if (failed) setError(authErrorMessage(failed, 'code'));
    else onDone();
  }
  return (
    <form onSubmit={submit}>
      <label htmlFor={inputId}>{label}</label>
      <input id={inputId} name="code" inputMode="numeric" autoComplete="one-time-code" pattern="[0-9 ]*" maxLength={7} required
        aria-invalid={Boolean(error)} aria-describedby={errorId} className="code-input" />
      <ErrorText id={errorId} text={error} />
      <button type="submit" className="button primary" disabled={busy}>{busy ? 'Checking…' : 'Continue'}</button>
    </form>
  );
}

/** The secret in groups of four, as authenticator apps show it: easier to type. */
const grouped = (secret: string) => secret.replace(/(.{4})(?=.)/g, '$1 ');

export function Enrol({ supabase, factorId, qrCode, secret, onDone, onSignOut }: { supabase: SupabaseClient; factorId: string; qrCode: string; secret: string; onDone: () => void; onSignOut: () => void }) {
  return (
    <AuthCard title="Set up your authenticator app">
      <p>The inbox holds customers' personal details, so every sign-in needs a code from an app on your phone as well as your password. This is done once.</p>
      <ol className="steps">
        <li>Open an authenticator app (Google Authenticator, Microsoft Authenticator, 1Password, Authy…) and add an account.</li>
        <li>
          Scan this QR code:
          <img className="qr" src={qrCode} alt="QR code for your authenticator app (the same key is written below)" width={200} height={200} />
          or type this key instead: <code className="secret">{grouped(secret)}</code>
        </li>
        <li>Type the 6-digit code the app now shows.</li>
      </ol>
      <CodeForm supabase={supabase} factorId={factorId} label="6-digit code" onDone={onDone} />
      <button type="button" className="button link" onClick={onSignOut}>Sign out</button>
    </AuthCard>
  );
}

export function Verify({ supabase, factorId, onDone, onSignOut }: { supabase: SupabaseClient; factorId: string; onDone: () => void; onSignOut: () => void }) {
  return (
    <AuthCard title="Enter your code">
      <p>Open your authenticator app and type the 6-digit code it shows for the lead inbox.</p>
      <CodeForm supabase={supabase} factorId={factorId} label="6-digit code" onDone={onDone} />
      <button type="button" className="button link" onClick={onSignOut}>Sign out</button>
    </AuthCard>
  );
}
