/**
 * Third-party reviews widget (hydrated when the section nears the viewport, so the vendor script
 * loads only then). A box of fixed minimum height holds the loading text, then the widget; if the
 * script fails to load or renders nothing within WIDGET_TIMEOUT_MS, a text with a link to the
 * reviews page replaces it, in a box of its own size. Visitors without JavaScript get that link from the start.
 */
import { useEffect, useRef, useState } from 'react';
import type { ReviewsProps } from '../../contracts/pages.js';

/**
 * The reviews section's data without its heading; widgetId is the class of the element the vendor
 * script fills, e.g. elfsight-app-<uuid>.
 */
export type ReviewsWidgetProps = Omit<ReviewsProps, 'heading'>;

/** How long the vendor gets to render something before the fallback is shown. */
const WIDGET_TIMEOUT_MS = 8000;

const scripts = new Map<string, Promise<void>>();

/** Adds `<script src async>` once per page; resolves on load, rejects on error. */
function loadScript(src: string): Promise<void> {
  let promise = scripts.get(src);
  if (!promise) {
    const existing = Array.from(document.scripts).some((s) => s.getAttribute('src') === src);
    promise = existing
      ? Promise.resolve()
      : new Promise<void>((resolve, reject) => {
          const script = document.createElement('script');
          script.src = src;
          script.async = true;
          script.addEventListener('load', () => resolve(), { once: true });
          script.addEventListener('error', () => reject(new Error(`Could not load ${src}`)), { once: true });
          document.body.appendChild(script);
        });
    scripts.set(src, promise);
  }
  return promise;
}

function rendered(widget: HTMLElement): boolean {
  return widget.childElementCount > 0 || widget.shadowRoot !== null;
}

type State = 'loading' | 'ready' | 'failed';

export default function ReviewsWidget({ scriptUrl, widgetId, loading, fallback, linkLabel, linkUrl }: ReviewsWidgetProps) {
  const [state, setState] = useState<State>('loading');
  const hostRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const host = hostRef.current;
    if (!host) return;
    // The vendor's element is created outside React so React never reconciles what the script adds.
    const widget = document.createElement('div');
    widget.className = widgetId;
    host.appendChild(widget);

    let settled = false;
    const finish = (next: State) => {
      if (settled) return;
      settled = true;
      observer.disconnect();
      clearTimeout(timer);
      if (next === 'failed') widget.remove();
      setState(next);
    };
    const observer = new MutationObserver(() => {
      if (rendered(widget)) finish('ready');
    });
    observer.observe(widget, { childList: true, subtree: true, attributes: true });
    const timer = setTimeout(() => finish(rendered(widget) ? 'ready' : 'failed'), WIDGET_TIMEOUT_MS);
    loadScript(scriptUrl).then(
      () => {
        if (rendered(widget)) finish('ready');
      },
      () => finish('failed'),
    );
    return () => {
      settled = true;
      observer.disconnect();
      clearTimeout(timer);
      widget.remove();
    };
  }, [scriptUrl, widgetId]);

  const fallbackContent = (
    <p className="text-ink-600">
      {fallback}{' '}
      <a href={linkUrl} target="_blank" rel="noopener noreferrer" className="font-semibold text-brand-700 underline underline-offset-4 hover:text-brand-800">
        {linkLabel}
      </a>
    </p>
  );

  return (
    // The box keeps the widget's space while it loads; the fallback link takes only its own
    // (with and without JavaScript).
    <div className={state === 'failed' ? 'relative' : 'relative min-h-[420px] noscript:min-h-0'} aria-busy={state === 'loading' ? true : undefined}>
      {state === 'loading' ? (
        <div className="absolute inset-0 flex items-center justify-center p-6 text-center noscript:static">
          <p className="text-ink-500 noscript:hidden">{loading}</p>
          <noscript>{fallbackContent}</noscript>
        </div>
      ) : null}
      {state === 'failed' ? (
        <div className="flex items-center justify-center p-6 text-center">{fallbackContent}</div>
      ) : null}
      <div ref={hostRef} hidden={state === 'failed'} />
    </div>
  );
}
