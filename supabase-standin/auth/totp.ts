/**
 * TOTP as Supabase Auth does it (RFC 6238: SHA-1, 6 digits, 30-second steps, one step of skew
 * either way), with otpauth; the enrolment QR code drawn as an SVG with qrcode, as Supabase's
 * server draws one (error correction H) and returns it raw (supabase-js turns it into a data URL).
 * One addition: the step of each accepted code is remembered, and a code of that step or an
 * earlier one is refused, so an overheard code cannot be replayed (RFC 6238, section 5.2).
 */
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';

const PARAMS = { algorithm: 'SHA1', digits: 6, period: 30 } as const;
const WINDOW = 1;

export interface NewTotp {
  secret: string;
  uri: string;
  /** The SVG markup (not yet a data URL). */
  qrCode: string;
}

export async function newTotp(issuer: string, accountName: string): Promise<NewTotp> {
  const totp = new TOTP({ ...PARAMS, issuer, label: accountName, secret: new Secret({ size: 20 }) });
  const uri = totp.toString();
  const svg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'H', margin: 4 });
  // supabase-js prefixes `data:image/svg+xml;utf-8,` without encoding: a '#' would end the URL there.
  const qrCode = svg.replaceAll('"#ffffff"', '"white"').replaceAll('"#000000"', '"black"');
  return { secret: totp.secret.base32, uri, qrCode };
}

/**
 * The time step `code` belongs to if it is valid for `secret` now (±1 step) and later than
 * `lastStep`; undefined otherwise.
 */
export function acceptedStep(secret: string, code: string, lastStep: bigint | null, now = Date.now()): bigint | undefined {
  if (!/^\d{6}$/.test(code)) return undefined;
  const totp = new TOTP({ ...PARAMS, secret: Secret.fromBase32(secret) });
  const delta = totp.validate({ token: code, timestamp: now, window: WINDOW });
  if (delta === null) return undefined;
  const step = BigInt(totp.counter({ timestamp: now }) + delta);
  return lastStep !== null && step <= lastStep ? undefined : step;
}
