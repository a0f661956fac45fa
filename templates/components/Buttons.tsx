import type { ReactNode } from 'react';
import { Phone } from './Icon.js';

const base = 'inline-flex min-h-11 items-center justify-center gap-2 rounded-full px-6 py-3 text-base font-semibold transition-colors';
const variants = {
  primary: `${base} bg-brand-600 text-white shadow-sm hover:bg-brand-700`,
  accent: `${base} bg-accent-400 text-ink-900 shadow-sm hover:bg-accent-300`,
  outline: `${base} border-2 border-brand-600 text-brand-700 hover:bg-brand-50`,
  light: `${base} border-2 border-white/80 text-white hover:bg-white/10`,
} as const;

export function LinkButton({ href, children, variant = 'primary', className = '' }: {
  href: string;
  children: ReactNode;
  variant?: keyof typeof variants;
  className?: string;
}) {
  return <a href={href} className={`${variants[variant]} ${className}`}>{children}</a>;
}

/** A tel: link with a phone icon: "{label}{separator}{number}". */
export function PhoneButton({ phone, label, separator = ': ', variant = 'outline' }: {
  phone: { display: string; href: string };
  label: string;
  separator?: string;
  variant?: keyof typeof variants;
}) {
  return <LinkButton href={phone.href} variant={variant}><Phone className="size-4" aria-hidden="true" />{label}{separator}{phone.display}</LinkButton>;
}
