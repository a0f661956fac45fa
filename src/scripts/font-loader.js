// Inlined in <head> (its hash is in the Content-Security-Policy). Notes the visit's first page,
// and adds the web font and the page's scripts after the page's first paint, so a phone's first
// round trips carry only the page and its stylesheet (the font at once when an earlier page has
// fetched it; generator/assets/fonts.ts says more).
(() => {
  // The visit's first page, once per tab session, for the lead forms (src/lib/leadSource.ts,
  // LANDING_KEY): here because this is the one script every page runs. Storage may be blocked.
  try { sessionStorage.landing || (sessionStorage.landing = location.pathname); } catch {}
  // Where the visit came from, for the same forms (src/lib/attribution.ts, which checks every
  // value): a page opened with campaign parameters or from another site, or the visit's first
  // page, is this visit's touch; the first touch is kept 90 days. Nothing is sent from here.
  try {
    const q = new URLSearchParams(location.search), t = { landing_path: location.pathname, touch_at: new Date().toISOString() };
    const from = document.referrer && new URL(document.referrer).hostname;
    if (from && from !== location.hostname) t.referrer_host = from;
    for (const k of 'utm_source utm_medium utm_campaign utm_term utm_content gclid gbraid wbraid fbclid msclkid'.split(' ')) if (q.get(k)) t[k] = q.get(k);
    if (Object.keys(t).length > 2 || !sessionStorage.touch) {
      sessionStorage.touch = JSON.stringify(t);
      if (!(Date.now() - Date.parse(JSON.parse(localStorage.firstTouch || '{}').touch_at) < 7776e6)) localStorage.firstTouch = sessionStorage.touch;
    }
  } catch {}
  // Settles once the page has painted (without paint timing: at load).
  const painted = new Promise((then) => {
    if (globalThis.PerformanceObserver?.supportedEntryTypes?.includes('paint')) {
      new PerformanceObserver((_, o) => { o.disconnect(); then(); }).observe({ type: 'paint', buffered: true });
    } else addEventListener('load', then);
  });
  // The page's scripts (templates/layout/Document.tsx puts them in <template id="page-scripts"> at
  // the end of <body>) start once the page has painted and is parsed: as deferred scripts they
  // would run before the paint (they wait for the stylesheet, as the paint does). Until
  // src/entry.ts takes over, a form in an island is held, not posted (entry.ts sends it).
  const hold = (e) => { if (e.target.closest('[data-island]')) { e.preventDefault(); hold.form = e.target; } };
  addEventListener('submit', globalThis.heldSubmit = hold, true);
  Promise.all([painted, new Promise((then) => addEventListener('DOMContentLoaded', then))]).then(() => {
    const t = document.getElementById('page-scripts');
    if (t) document.body.append(t.content.cloneNode(true));
  });
  const { family, src, weight } = document.currentScript.dataset;
  if (!('fonts' in document)) return;
  const key = `font:${src}`;
  const add = (display) => {
    const face = new FontFace(family, `url(${src}) format("woff2")`, { weight, display });
    document.fonts.add(face);
    face.load().then(() => sessionStorage.setItem(key, '1')).catch(() => {});
  };
  // In the cache it comes in milliseconds: "fallback" shows the fallback only if it does not.
  try { if (sessionStorage.getItem(key)) return add('fallback'); } catch {}
  painted.then(() => add('swap'));
})();
