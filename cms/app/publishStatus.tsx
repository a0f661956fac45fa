/**
 * The publish-state panel of /admin: after Publish, a small panel in the corner says what became of
 * the change (cms/app/publishState.ts) until it settles, then stays until dismissed. One polite
 * live region, so a screen reader hears each new state once; a link to the page once it is live
 * (none when that page cannot be known);
 * the content problems as `npm run check` writes them when it failed. Its own root beside Decap's.
 */
import * as React from 'react';
import { createRoot } from 'react-dom/client';
import { isSettled, type Held, type PublishState } from './publishState.js';

/**
 * What the panel says once a change is live that visitors do not see yet (an article that is a
 * draft, or dated later): the site has no page for it, so there is no link (`local`: under `npm run
 * dev`, which shows such an article, marked, and links to it).
 */
export function describeHeld(held: Held, local = false): { title: string; detail: string } {
  if (held.reason === 'draft') {
    return {
      title: 'Saved as a draft.',
      detail: local
        ? 'Visitors of the site will not see it. npm run dev shows it, marked Draft. To publish it, untick Draft and publish again.'
        : 'Visitors do not see it. To publish it, untick Draft and publish again.',
    };
  }
  return {
    title: `Saved. It goes live on ${held.date}.`,
    detail: local
      ? 'Until then visitors of the site will not see it. npm run dev shows it now, marked.'
      // The hourly deploy publishes it (docs/going-live.md, "Scheduled articles").
      : 'Until then it is on no page of the site. The site is rebuilt every hour, so it appears within about an hour after that time.',
  };
}

/** Each state in the editor's words: a headline and what to do (`local`: under `npm run dev`, where the dev server rebuilds). */
export function describeState(s: PublishState, local = false): { title: string; detail: string } {
  const wait = local ? 'The dev server rebuilds the page in a few seconds.' : 'A change is usually live within 3 minutes. You can keep editing.';
  switch (s.state) {
    case 'waiting':
      return { title: 'Published. Waiting for the site to start building…', detail: wait };
    case 'building':
      return { title: 'Building the site with your change…', detail: wait };
    case 'live':
      return s.held ? describeHeld(s.held, local) : { title: 'Your change is live.', detail: 'Visitors see it now.' };
    case 'failed':
      return s.problems.length
        ? { title: 'Not published: the site refused this content.', detail: 'Nothing changed for visitors. Fix the problem below in the entry and publish again.' }
        : { title: 'The site could not be deployed, nothing changed for visitors.', detail: 'Your change is saved. Publish again in a few minutes; if it fails again, tell the developer.' };
    case 'unknown':
      return local
        ? { title: 'Cannot tell whether your change is live: the dev server does not answer.', detail: 'Your change is saved. Look at the terminal of npm run dev.' }
        : { title: 'Cannot tell whether your change is live: GitHub cannot be reached.', detail: 'Your change is saved. Look at the site in a few minutes.' };
  }
}

const COLORS: Record<PublishState['state'], string> = {
  waiting: '#1d4ed8', building: '#1d4ed8', live: '#15803d', failed: '#b91c1c', unknown: '#4b5563',
};

// Inline styles would lose :focus-visible; one small sheet (the admin policy allows inline styles).
const CSS = `
.publish-status{position:fixed;z-index:2147483000;right:16px;bottom:16px;box-sizing:border-box;width:min(420px,calc(100vw - 32px));max-height:calc(100vh - 32px);overflow:auto;
  background:#fff;color:#111827;border:1px solid #d1d5db;border-left-width:6px;border-radius:8px;box-shadow:0 8px 24px rgba(0,0,0,.18);padding:14px 16px;font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
.publish-status p{margin:0}
.publish-status .publish-status-title{font-weight:700;margin-bottom:4px}
.publish-status pre{white-space:pre-wrap;word-break:break-word;background:#f3f4f6;color:#111827;border-radius:6px;padding:8px;margin:8px 0 0;font:13px/1.4 ui-monospace,SFMono-Regular,Menlo,monospace}
.publish-status a{color:#1d4ed8;font-weight:600}
.publish-status button{margin-top:10px;background:#fff;color:#111827;border:1px solid #6b7280;border-radius:6px;padding:6px 12px;font:inherit;cursor:pointer}
.publish-status a:focus-visible,.publish-status button:focus-visible{outline:3px solid #1d4ed8;outline-offset:2px}
`;

export function PublishStatus({ state, local, onDismiss }: { state: PublishState; local: boolean; onDismiss: () => void }) {
  const { title, detail } = describeState(state, local);
  return (
    <section className="publish-status" aria-label="Publishing" data-state={state.state} style={{ borderLeftColor: COLORS[state.state] }}>
      <div role="status" aria-live="polite" aria-atomic="true">
        <p className="publish-status-title">{title}</p>
        <p>{detail}</p>
        {state.state === 'live' && state.url && <p><a href={state.url} target="_blank" rel="noopener">{state.held ? 'View the page as npm run dev shows it' : 'View the page that changed'}</a></p>}
        {state.state === 'failed' && state.problems.length > 0 && <pre>{state.problems.join('\n')}</pre>}
      </div>
      {isSettled(state) || state.state === 'unknown' ? <button type="button" onClick={onDismiss}>Dismiss</button> : null}
    </section>
  );
}

/** The panel's root (made on first use): show(state) draws it, hide() removes it. */
export function publishStatusPanel(local: boolean, doc: Document = document) {
  let root: ReturnType<typeof createRoot> | undefined;
  const hide = () => root?.render(null);
  return {
    show(state: PublishState) {
      if (!root) {
        const style = doc.createElement('style');
        style.textContent = CSS;
        doc.head.append(style);
        const host = doc.createElement('div');
        host.id = 'publish-status';
        doc.body.append(host);
        root = createRoot(host);
      }
      root.render(<PublishStatus state={state} local={local} onDismiss={hide} />);
    },
    hide,
  };
}
