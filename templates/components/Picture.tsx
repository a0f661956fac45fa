import type { ImageRef } from '../../contracts/pages.js';

/** An image with its intrinsic size (nothing shifts while it loads); photos offer AVIF, then WebP. */
export function Picture({ image, alt, className = '', eager = false, sizes = '100vw' }: {
  image: ImageRef;
  alt: string;
  className?: string;
  eager?: boolean;
  sizes?: string;
}) {
  const img = (
    <img
      src={image.src}
      alt={alt}
      width={image.width}
      height={image.height}
      className={className}
      loading={eager ? 'eager' : 'lazy'}
      decoding={eager ? 'sync' : 'async'}
      {...(eager ? { fetchPriority: 'high' as const } : {})}
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
