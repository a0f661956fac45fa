/** The inbox page: the sign-in steps until the session is aal2, then the inbox. */
import type { SupabaseClient } from '@supabase/supabase-js';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { inboxApi } from './api.js';
import { AuthCard, Enrol, nextStep, SignIn, Verify, type AuthStep } from './Auth.js';
import { Inbox } from './Inbox.js';

export function App({ supabase }: { supabase: SupabaseClient }) {
  const [state, setState] = useState<AuthStep>({ step: 'loading' });
  const api = useMemo(() => inboxApi(supabase), [supabase]);
  const advance = useCallback(() => {
    nextStep(supabase).then(setState, (err: unknown) => setState({ step: 'signIn', notice: `Sign-in failed: ${(err as Error).message}` }));
  }, [supabase]);

  useEffect(() => {
    advance();
    // A session that ends elsewhere (signed out in another tab, refresh refused) ends here too.
    const { data } = supabase.auth.onAuthStateChange((event) => {
      if (event === 'SIGNED_OUT') setState({ step: 'signIn' });
    });
    return () => data.subscription.unsubscribe();
  }, [supabase, advance]);

  const signOut = useCallback(() => {
    void supabase.auth.signOut().finally(() => setState({ step: 'signIn' }));
  }, [supabase]);

  switch (state.step) {
    case 'loading': return <AuthCard title="Loading…"><p>Checking your session.</p></AuthCard>;
    case 'signIn': return <SignIn supabase={supabase} notice={state.notice} onDone={advance} />;
    case 'enrol': return <Enrol supabase={supabase} factorId={state.factorId} qrCode={state.qrCode} secret={state.secret} onDone={advance} onSignOut={signOut} />;
    case 'verify': return <Verify supabase={supabase} factorId={state.factorId} onDone={advance} onSignOut={signOut} />;
    case 'ready': return <Inbox api={api} email={state.email} onSignOut={signOut} />;
  }
}
