import type { ReactNode } from 'react';
import type { ImageRef } from '../../contracts/pages.js';
import { Picture } from './Picture.js';

/**
 * A full-bleed hero: background image under a dark overlay, white text on top. `blurred`: the
 * image starts blurred and turns sharp once the page is scrolled (src/scripts/hero-blur.js): a
 * pre-blurred copy inlined on top (the first paint, without a request) fades out over the sharp
 * image, an opacity transition the compositor runs, where a CSS blur filter costs a phone main
 * thread and raster time. The sharp image, covered until then, stays transparent until the scroll,
 * so it is not the page's largest paint while nobody sees it.
 */
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
        priority={blurred && image.blurredSrc ? 'low' : 'high'}
        className={`absolute inset-0 -z-20 size-full object-cover ${blurred && image.blurredSrc ? 'hero-sharp scale-105' : ''}`}
      />
      {blurred && image.blurredSrc && (
        <img
          src={image.blurredSrc}
          alt=""
          width={image.width}
          height={image.height}
          decoding="sync"
          className="hero-blur absolute inset-0 -z-20 size-full scale-105 object-cover transition-opacity duration-700 will-change-[opacity]"
        />
      )}
      <div className="absolute inset-0 -z-10 bg-gradient-to-b from-ink-900/75 via-ink-900/60 to-ink-900/80" aria-hidden="true" />
      <div className="mx-auto w-full max-w-6xl px-4 py-16 text-white sm:px-6 sm:py-24">{children}</div>
    </section>
  );
}
