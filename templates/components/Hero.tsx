import type { ReactNode } from 'react';
import type { ImageRef } from '../../contracts/pages.js';
import { Picture } from './Picture.js';

/** A full-bleed hero: background image under a dark overlay, white text on top. */
export function Hero({ image, children, height = 'min-h-[70vh]', blurred = false }: {
  image: ImageRef;
  children: ReactNode;
  height?: string;
  blurred?: boolean;
}) {
  return (
    <section className={`relative isolate flex items-center overflow-hidden bg-ink-900 ${height}`}>
      <Picture
        image={image}
        alt=""
        eager
        className={`absolute inset-0 -z-20 size-full object-cover ${blurred ? 'hero-blur scale-105 blur-[6px] transition-[filter] duration-700' : ''}`}
      />
      <div className="absolute inset-0 -z-10 bg-gradient-to-b from-ink-900/75 via-ink-900/60 to-ink-900/80" aria-hidden="true" />
      <div className="mx-auto w-full max-w-6xl px-4 py-16 text-white sm:px-6 sm:py-24">{children}</div>
    </section>
  );
}
