import { Fragment, type ReactNode } from 'react';
import type { PageBody, TocItem } from '../../contracts/pages.js';
import { ArticleCards, TagLinks } from '../components/ArticleCard.js';
import { Breadcrumbs } from '../components/Breadcrumbs.js';
import { LinkButton } from '../components/Buttons.js';
import { CtaSection } from '../components/CtaSection.js';
import { Picture } from '../components/Picture.js';

type Props = Extract<PageBody, { kind: 'article' }>;

/**
 * The body's HTML as LegalPage styles its own, and what an article has besides: tables (in the
 * body's .table-scroll boxes, which scroll sideways instead of the page), quotes, pictures no
 * wider than the column, code. Long words and URLs wrap (a table's cells keep their words: the
 * table scrolls). Headings stop below the sticky header when a link of the contents jumps to them.
 */
const PROSE = [
  'mt-10 space-y-5 text-lg leading-relaxed text-ink-700 wrap-break-word',
  '[&_a]:text-brand-700 [&_a]:underline [&_a]:underline-offset-2 [&_a:hover]:text-brand-900',
  '[&_h2]:scroll-mt-24 [&_h2]:pt-6 [&_h2]:text-2xl [&_h2]:font-bold [&_h2]:text-ink-900 sm:[&_h2]:text-3xl',
  '[&_h3]:scroll-mt-24 [&_h3]:pt-3 [&_h3]:text-xl [&_h3]:font-semibold [&_h3]:text-ink-900',
  '[&_li]:ml-1 [&_ol]:list-decimal [&_ol]:space-y-1 [&_ol]:pl-6 [&_ul]:list-disc [&_ul]:space-y-1 [&_ul]:pl-6 [&_strong]:text-ink-900',
  '[&_blockquote]:border-l-4 [&_blockquote]:border-brand-300 [&_blockquote]:pl-5 [&_blockquote]:text-ink-600 [&_blockquote]:italic',
  '[&_img]:h-auto [&_img]:max-w-full [&_img]:rounded-card [&_picture]:block [&_figcaption]:mt-2 [&_figcaption]:text-base [&_figcaption]:text-ink-600',
  '[&_.table-scroll]:overflow-x-auto [&_table]:w-full [&_table]:border-collapse [&_table]:text-left [&_table]:text-base',
  '[&_th]:border-b-2 [&_th]:border-ink-200 [&_th]:px-3 [&_th]:py-2 [&_th]:align-bottom [&_th]:font-semibold [&_th]:text-ink-900',
  '[&_td]:border-b [&_td]:border-ink-200 [&_td]:px-3 [&_td]:py-2 [&_td]:align-top',
  // A column's alignment as the Markdown table writes it (no inline style: contracts/articleMarkdown.ts).
  '[&_[data-align=center]]:text-center [&_[data-align=right]]:text-right',
  '[&_code]:rounded [&_code]:bg-ink-100 [&_code]:px-1.5 [&_code]:text-[0.9em] [&_code]:text-ink-900',
  '[&_pre]:overflow-x-auto [&_pre]:rounded-card [&_pre]:bg-ink-100 [&_pre]:p-4 [&_pre_code]:bg-transparent [&_pre_code]:p-0',
  '[&_hr]:my-10 [&_hr]:border-ink-200',
].join(' ');

/** The contents' entries: each h3 under the h2 before it (one before any h2 stands on its own). */
function tocTree(items: readonly TocItem[]): { item: TocItem; children: TocItem[] }[] {
  const tree: { item: TocItem; children: TocItem[] }[] = [];
  for (const item of items) {
    const parent = tree.at(-1);
    if (item.depth === 3 && parent) parent.children.push(item);
    else tree.push({ item, children: [] });
  }
  return tree;
}

const tocLink = 'inline-flex min-h-11 items-center text-brand-700 underline underline-offset-2 hover:text-brand-900';

/**
 * The facts under the title: one a line on a phone (no dot left hanging at a line's end), in a
 * row with a dot between them from sm up; a pause between them for a screen reader.
 */
function MetaLine({ items }: { items: ReactNode[] }) {
  return (
    <p className="mt-1 flex flex-col gap-1 text-white/90 sm:flex-row sm:flex-wrap sm:items-center sm:gap-x-3">
      {items.map((item, i) => (
        <Fragment key={i}>
          {i > 0 && <><span aria-hidden="true" className="hidden sm:inline">·</span><span className="sr-only">, </span></>}
          <span>{item}</span>
        </Fragment>
      ))}
    </p>
  );
}

/**
 * An article: its header (breadcrumbs, title, dates, reading time, author) on the gradient of the
 * other text pages, its picture, tags, contents and body; then the related articles and the call
 * to action. No script: the body is HTML made at build time.
 */
export function ArticlePage({
  title, published, updated, readingTime, author, tags, html, toc, image, related, cta, breadcrumbs, breadcrumbLabel, mark,
}: Props) {
  const meta: ReactNode[] = [
    <>{published.label} <time dateTime={published.iso}>{published.text}</time></>,
    ...(updated ? [<>{updated.label} <time dateTime={updated.iso}>{updated.text}</time></>] : []),
    readingTime,
  ];
  return (
    <>
      <article>
        <header className="bg-gradient-to-br from-brand-800 to-brand-950 py-12 text-white sm:py-16">
          <div className="mx-auto max-w-3xl px-4 wrap-anywhere sm:px-6">
            <Breadcrumbs items={breadcrumbs} label={breadcrumbLabel} linkCurrent />
            {mark && <p className="mt-6 inline-flex rounded-full bg-accent-400 px-4 py-1.5 text-sm font-bold tracking-wide text-ink-900 uppercase">{mark}</p>}
            <h1 className="mt-6 text-4xl font-extrabold tracking-tight text-balance sm:text-5xl">{title}</h1>
            {/* The author on a line of their own: with the dates in one row, a wrapped row ended on a separator. */}
            <p className="mt-5 text-white/90">{author.label} {author.name}</p>
            <MetaLine items={meta} />
          </div>
        </header>

        <div className="mx-auto max-w-3xl px-4 py-10 sm:px-6 sm:py-14">
          {/* The page's largest paint: fetched first, and preloaded in <head> (head.preloadImage) at the same 100vw. */}
          {image && <Picture image={image} alt={image.alt} priority="high" className="h-auto w-full rounded-card shadow-card" />}

          {tags.items.length > 0 && <TagLinks items={tags.items} label={tags.label} className={image ? 'mt-8' : ''} />}

          {toc && toc.items.length > 0 && (
            <nav aria-labelledby="article-toc-heading" className="mt-10 rounded-card bg-ink-50 p-6 wrap-anywhere sm:p-8">
              <h2 id="article-toc-heading" className="text-xl font-bold text-ink-900">{toc.heading}</h2>
              <ol className="mt-3 list-decimal space-y-1 pl-6 marker:text-ink-600">
                {tocTree(toc.items).map(({ item, children }) => (
                  <li key={item.id}>
                    <a href={`#${item.id}`} className={tocLink}>{item.text}</a>
                    {children.length > 0 && (
                      <ol className="list-[lower-alpha] space-y-1 pl-6 marker:text-ink-600">
                        {children.map((child) => <li key={child.id}><a href={`#${child.id}`} className={tocLink}>{child.text}</a></li>)}
                      </ol>
                    )}
                  </li>
                ))}
              </ol>
            </nav>
          )}

          <div className={PROSE} dangerouslySetInnerHTML={{ __html: html }} />
        </div>
      </article>

      {related.cards.length > 0 && (
        <section aria-labelledby="article-related-heading" className="bg-ink-50 py-16 sm:py-20">
          <div className="mx-auto max-w-7xl px-4 sm:px-6">
            <h2 id="article-related-heading" className="text-center text-3xl font-bold tracking-tight text-balance text-ink-900 sm:text-4xl">{related.heading}</h2>
            <div className="mt-12"><ArticleCards cards={related.cards} level={3} /></div>
          </div>
        </section>
      )}

      <CtaSection id="article-cta-heading" heading={cta.heading} text={cta.text} tone="card">
        <LinkButton href={cta.quote.href}>{cta.quote.label}</LinkButton>
        <LinkButton href={cta.book.href} variant="outline">{cta.book.label}</LinkButton>
      </CtaSection>
    </>
  );
}
