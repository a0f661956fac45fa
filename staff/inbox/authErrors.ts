/** What staff read when Supabase Auth refuses: plain words, never the raw error. */
interface AuthErrorLike { message?: string; status?: number; code?: string; name?: string }

export function authErrorMessage(error: AuthErrorLike, step: 'password' | 'code'): string {
  const code = error.code ?? '';
  if (error.status === 429 || /rate_limit|too_many/.test(code)) {
    return 'Too many attempts. Wait a few minutes, then try again.';
  }
  if (step === 'password' && (code === 'invalid_credentials' || error.status === 400)) {
    return 'Wrong email or password. Check both and try again.';
  }
  if (step === 'code' && /mfa_verification_failed|mfa_challenge_expired|invalid/.test(code || 'invalid')) {
    return 'That code is not right or has expired. Type the 6-digit code your authenticator app shows now.';
  }
  if (error.name === 'AuthRetryableFetchError' || error.status === 0) {
    return 'The server cannot be reached. Check the connection and try again.';
  }
  return error.message ? `Sign-in failed: ${error.message}` : 'Sign-in failed. Try again.';
}
