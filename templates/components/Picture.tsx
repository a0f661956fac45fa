import type { ImageRef } from '../../contracts/pages.js';

/** An image with its intrinsic size (nothing shifts while it loads); photos offer AVIF, then WebP. */
export function Picture({ image, alt, className = '', priority = 'lazy', sizes = '100vw' }: {
  image: ImageRef;
  alt: string;
  className?: string;
  /**
   * lazy: fetched near the viewport. high: fetched first and decoded at once (React preloads it),
   * the page's largest paint. low: fetched now but after everything else, for an image hidden at
   * first (the sharp home hero under its blurred copy).
   */
  priority?: 'lazy' | 'high' | 'low';
  sizes?: string;
}) {
  const img = (
    <img
      src={image.src}
      alt={alt}
      width={image.width}
      height={image.height}
      className={className}
      loading={priority === 'lazy' ? 'lazy' : 'eager'}
      decoding={priority === 'high' ? 'sync' : 'async'}
      {...(priority !== 'lazy' ? { fetchPriority: priority } : {})}
    />
  );
  if (!image.avifSrcSet || !image.webpSrcSet) return img;
  return (
    <picture>
      <source type="image/avif" srcSet={image.avifSrcSet} sizes={sizes} />
      <source type="image/webp" srcSet={image.webpSrcSet} sizes={sizes} />
      {img}
    </picture>
  );
}
