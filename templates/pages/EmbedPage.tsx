import { CircleCheck } from '../components/Icon.js';
import type { PageBody } from '../../contracts/pages.js';

type Props = Extract<PageBody, { kind: 'embed' }>;

/** Frame heights from the spec (login portal 650px; booking fills the window under the 80px header), as classes: the CSP forbids inline styles. */
const frameHeight: Record<Props['variant'], string> = { login: 'h-[650px]', booking: 'h-[calc(100vh-80px)]' };

/** /customer-login and /book-online: a short intro and the booking service in an iframe. */
export function EmbedPage({ page, frame, variant }: Props) {
  const frameElement = (
    <iframe
      src={frame.src}
      title={page.frameTitle}
      className={`block w-full border-0 bg-white ${frameHeight[variant]}`}
      loading={variant === 'booking' ? 'eager' : 'lazy'}
      referrerPolicy="strict-origin-when-cross-origin"
    />
  );
  if (variant === 'booking') {
    return (
      <>
        <h1 className="sr-only">{page.heading}</h1>
        {page.paragraphs.map((p, i) => <p key={i} className="sr-only">{p}</p>)}
        {frameElement}
      </>
    );
  }
  return (
    <div className="bg-ink-50 py-12 sm:py-16">
      <div className="mx-auto max-w-5xl px-4 sm:px-6">
        <h1 className="text-4xl font-extrabold tracking-tight text-ink-900 sm:text-5xl">{page.heading}</h1>
        <div className="mt-5 space-y-3 text-lg text-ink-700">{page.paragraphs.map((p, i) => <p key={i}>{p}</p>)}</div>
        {page.points.length > 0 && (
          <ul className="mt-6 grid gap-3 sm:grid-cols-3">
            {page.points.map((p) => <li key={p} className="flex gap-2 rounded-card bg-white p-4 shadow-card"><CircleCheck className="mt-0.5 size-5 shrink-0 text-brand-600" aria-hidden="true" />{p}</li>)}
          </ul>
        )}
        <div className="mt-10 overflow-hidden rounded-card shadow-card">{frameElement}</div>
      </div>
    </div>
  );
}
