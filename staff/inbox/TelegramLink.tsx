/**
 * The signed-in member's Telegram: linked or not, and linking it. Linking proves both sides: the
 * code comes from this signed-in page, and the member sends it to the office bot from their own
 * Telegram in a private chat (supabase/migrations/20261126000200_telegram_links.sql).
 */
import { useCallback, useEffect, useState } from 'react';
import type { InboxApi } from './api.js';
import type { TelegramLinkCode, TelegramLinkStatus } from './model.js';

const clock = (iso: string) => new Date(iso).toLocaleTimeString([], { hour: 'numeric', minute: '2-digit' });

export function TelegramLink({ api }: { api: InboxApi }) {
  const [status, setStatus] = useState<TelegramLinkStatus>();
  const [code, setCode] = useState<TelegramLinkCode>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [message, setMessage] = useState('');
  /** Said after "I sent it: check" found no link yet. */
  const [notYet, setNotYet] = useState(false);

  const act = useCallback(async (work: () => Promise<void>) => {
    setBusy(true);
    setError(undefined);
    try {
      await work();
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  }, []);

  const check = useCallback((afterSending = false) => act(async () => {
    const now = await api.telegramStatus();
    setStatus(now);
    if (now.linked) setCode(undefined);
    setNotYet(afterSending && !now.linked);
    setMessage(now.linked ? `Telegram linked as ${now.displayName}` : afterSending ? 'Not linked yet' : '');
  }), [act, api]);

  useEffect(() => { void check(); }, [check]);

  const newCode = () => act(async () => {
    setNotYet(false);
    setCode(await api.telegramLinkCode());
    setMessage('Link code ready');
  });

  const unlink = () => act(async () => {
    await api.telegramUnlink();
    setStatus({ linked: false });
    setMessage('Telegram unlinked');
  });

  return (
    <section aria-labelledby="telegram-title" className="telegram">
      <h2 id="telegram-title">Telegram</h2>
      <p className="visually-hidden" role="status" aria-live="polite">{message}</p>
      {error && <p className="form-error" role="alert">{error}</p>}
      {status === undefined && !error && <p className="muted">Checking…</p>}
      {status?.linked === true && (
        <>
          <p>Your Telegram is linked as <strong>{status.displayName}</strong>. “Called back” under a lead in the office chat marks it contacted in your name.</p>
          <button type="button" className="button" onClick={unlink} disabled={busy}>Unlink</button>
        </>
      )}
      {status?.linked === false && (
        <>
          <p>Link your Telegram to mark a lead contacted with the “Called back” button in the office chat. Until then, a tap there answers “Not allowed”.</p>
          {code ? (
            <div className="telegram-code">
              <p>Your one-time code: <code className="secret">{code.code}</code></p>
              <ol className="steps">
                <li>Open a private chat with the office bot (in the office chat, tap the bot’s name, then <strong>Message</strong>).</li>
                <li>Send it <code>/link {code.code}</code></li>
              </ol>
              <p className="muted">The code works once and expires in 10 minutes, at {clock(code.expiresAt)}.</p>
              {notYet && <p className="form-error">Not linked yet. Send the code to the bot in a private chat (not in the group), wait for its answer “Linked”, then check again.</p>}
              <div className="telegram-actions">
                <button type="button" className="button primary" onClick={() => check(true)} disabled={busy}>I sent it: check</button>
                <button type="button" className="button" onClick={newCode} disabled={busy}>New code</button>
              </div>
            </div>
          ) : (
            <button type="button" className="button primary" onClick={newCode} disabled={busy}>Link my Telegram</button>
          )}
        </>
      )}
    </section>
  );
}
