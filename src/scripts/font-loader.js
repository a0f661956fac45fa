// Inlined in <head> (its hash is in the Content-Security-Policy). Notes the visit's first page,
// and adds the web font after the page's first paint, so a phone's first round trips carry only
// the page and its stylesheet, or at once when an earlier page has fetched it
// (generator/assets/fonts.ts says more).
(() => {
  // The visit's first page, once per tab session, for the lead forms (src/lib/leadSource.ts,
  // LANDING_KEY): here because this is the one script every page runs. Storage may be blocked.
  try { sessionStorage.landing || (sessionStorage.landing = location.pathname); } catch {}
  const { family, src, weight } = document.currentScript.dataset;
  if (!('fonts' in document)) return;
  const key = `font:${src}`;
  const add = (display) => {
    const face = new FontFace(family, `url(${src}) format("woff2")`, { weight, display });
    document.fonts.add(face);
    face.load().then(() => { try { sessionStorage.setItem(key, '1'); } catch {} }, () => {});
  };
  let fetched = false;
  try { fetched = sessionStorage.getItem(key) === '1'; } catch {}
  // In the cache it comes in milliseconds: "fallback" shows the fallback only if it does not.
  if (fetched) return add('fallback');
  const later = () => add('swap');
  if (window.PerformanceObserver?.supportedEntryTypes?.includes('paint')) {
    new PerformanceObserver((_, observer) => { observer.disconnect(); later(); }).observe({ type: 'paint', buffered: true });
  } else addEventListener('load', later, { once: true });
})();
