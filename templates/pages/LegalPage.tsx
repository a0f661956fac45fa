import type { PageBody } from '../../contracts/pages.js';

type Props = Extract<PageBody, { kind: 'legal' }>;

/** A legal page; its body is Markdown rendered by remark at build time. */
export function LegalPage({ title, lastUpdated, lastUpdatedIso, lastUpdatedLabel, html }: Props) {
  return (
    <article className="mx-auto max-w-3xl px-4 py-12 sm:px-6 sm:py-16">
      <h1 className="text-4xl font-extrabold tracking-tight text-ink-900">{title}</h1>
      <p className="mt-3 text-ink-600">{lastUpdatedLabel}: <time dateTime={lastUpdatedIso}>{lastUpdated}</time></p>
      <div
        className="mt-8 space-y-4 leading-relaxed text-ink-700 [&_a]:text-brand-700 [&_a]:underline [&_h2]:pt-6 [&_h2]:text-2xl [&_h2]:font-bold [&_h2]:text-ink-900 [&_h3]:pt-3 [&_h3]:text-lg [&_h3]:font-semibold [&_h3]:text-ink-900 [&_li]:ml-1 [&_ol]:list-decimal [&_ol]:space-y-1 [&_ol]:pl-6 [&_strong]:text-ink-900 [&_ul]:list-disc [&_ul]:space-y-1 [&_ul]:pl-6"
        dangerouslySetInnerHTML={{ __html: html }}
      />
    </article>
  );
}
