import type { ReactNode } from 'react';
import type { Layout as Chrome, PageHead } from '../../contracts/pages.js';
import { JsonLd } from '../components/JsonLd.js';

/**
 * The whole HTML document of a page. `scripts` are the page's external scripts, kept in a
 * <template> that the inline loader (src/scripts/font-loader.js) starts after the first paint;
 * `header` and `footer` are the site's Header and Footer, which render draws once per build and
 * reuses; `preloads`, the preload links React derived from the page's content (its eager images).
 */
export function Document({ head, chrome, preloads, header, footer, children, scripts }: {
  head: PageHead;
  chrome: Chrome;
  preloads: ReactNode;
  header: ReactNode;
  footer: ReactNode;
  children: ReactNode;
  scripts: readonly string[];
}) {
  const preload = head.preloadImage;
  const font = chrome.assets.font;
  return (
    <html lang={chrome.language.htmlLang}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{head.title}</title>
        <meta name="description" content={head.description} />
        <link rel="canonical" href={head.canonical} />
        {head.alternates?.map((a) => <link key={a.hreflang} rel="alternate" hrefLang={a.hreflang} href={a.href} />)}
        {head.prev && <link rel="prev" href={head.prev} />}
        {head.next && <link rel="next" href={head.next} />}
        {chrome.feeds.map((f) => <link key={f.href} rel="alternate" type={f.type} href={f.href} title={f.title} />)}
        {head.noindex && <meta name="robots" content="noindex" />}
        <meta name="theme-color" content="#137a70" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        {/* The web font comes after the first paint (generator/assets/fonts.ts); without JavaScript, from the start. */}
        <script data-family={font.family} data-src={font.src} data-weight={font.weight} dangerouslySetInnerHTML={{ __html: font.loader }} />
        <noscript><style dangerouslySetInnerHTML={{ __html: font.faceCss }} /></noscript>
        {/* A photo's sources are in <picture>, which React does not preload; an eager <img src>
            React preloads itself (in `preloads`). */}
        {preload?.avifSrcSet && <link rel="preload" as="image" imageSrcSet={preload.avifSrcSet} imageSizes="100vw" type="image/avif" fetchPriority="high" />}
        {preloads}
        <link rel="stylesheet" href={chrome.assets.css} />
        <meta property="og:type" content={head.modified ? 'article' : 'website'} />
        {head.modified && <meta property="article:modified_time" content={head.modified} />}
        <meta property="og:site_name" content={chrome.brand} />
        {chrome.languageSwitch && <meta property="og:locale" content={chrome.language.ogLocale} />}
        {chrome.languageSwitch && chrome.language.ogAlternates.map((l) => <meta key={l} property="og:locale:alternate" content={l} />)}
        <meta property="og:title" content={head.title} />
        <meta property="og:description" content={head.description} />
        <meta property="og:url" content={head.canonical} />
        {head.ogImage && <meta property="og:image" content={head.ogImage} />}
        <meta name="twitter:card" content="summary_large_image" />
        {head.jsonLd.length > 0 && <JsonLd nodes={head.jsonLd} />}
      </head>
      <body className="flex min-h-dvh flex-col">
        {/* Parked above the window until focused, then slides in (sr-only would zero its padding on focus). */}
        <a href="#main" className="fixed top-3 left-3 z-50 inline-flex min-h-11 -translate-y-[200%] items-center rounded-full bg-ink-900 px-5 py-3 font-semibold text-white focus:translate-y-0">
          {chrome.navigation.skipLink}
        </a>
        {header}
        <main id="main" tabIndex={-1} className="flex-1 focus:outline-none">{children}</main>
        {footer}
        {/* Nothing the first paint needs: the inline loader (src/scripts/font-loader.js) adds them
            once the page has painted; as plain deferred scripts they would run before the paint,
            which then waits for them. Low priority leaves the bandwidth to the hero and the font. */}
        {scripts.length > 0 && (
          <template id="page-scripts">
            {scripts.map((src) => <script key={src} type="module" src={src} fetchPriority="low" />)}
          </template>
        )}
      </body>
    </html>
  );
}
