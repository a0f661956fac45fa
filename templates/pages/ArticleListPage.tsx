import type { PageBody } from '../../contracts/pages.js';
import { ArticleCards, TagLinks } from '../components/ArticleCard.js';
import { Breadcrumbs } from '../components/Breadcrumbs.js';
import { Pagination } from '../components/Pagination.js';

type Props = Extract<PageBody, { kind: 'articleList' }>;

/**
 * One page of /articles or of a tag's articles: the cards, newest first (each title an h2 under
 * the page's h1), the numbered links to the other pages, the feed; on /articles' first page, every
 * tag with its count of articles.
 */
export function ArticleListPage({ heading, intro, cards, emptyText, pagination, breadcrumbs, tags, feed }: Props) {
  return (
    <>
      <section className="bg-gradient-to-br from-brand-800 to-brand-950 py-16 text-white sm:py-24">
        <div className="mx-auto mb-6 max-w-6xl px-4 wrap-anywhere sm:px-6"><Breadcrumbs items={breadcrumbs.items} label={breadcrumbs.label} linkCurrent /></div>
        <div className="mx-auto max-w-6xl px-4 text-center wrap-anywhere sm:px-6">
          <h1 className="text-4xl font-extrabold tracking-tight text-balance sm:text-5xl">{heading}</h1>
          <p className="mx-auto mt-5 max-w-2xl text-lg text-white/90">{intro}</p>
        </div>
      </section>

      <section aria-label={heading} className="bg-ink-50 py-16 sm:py-20">
        <div className="mx-auto max-w-7xl px-4 sm:px-6">
          {pagination && <p className="mb-10 text-center text-lg text-ink-600">{pagination.status}</p>}
          {cards.length > 0
            ? <ArticleCards cards={cards} level={2} />
            : <p className="mx-auto max-w-2xl text-center text-lg leading-relaxed text-ink-700 wrap-break-word">{emptyText}</p>}
          {pagination && <Pagination nav={pagination} />}
          <p className="mt-10 text-center">
            <a href={feed.href} className="inline-flex min-h-11 items-center font-semibold text-brand-700 underline underline-offset-4 hover:text-brand-900">{feed.label}</a>
          </p>
        </div>
      </section>

      {tags && tags.items.length > 0 && (
        <section aria-labelledby="article-tags-heading" className="bg-white py-16 sm:py-20">
          <div className="mx-auto max-w-4xl px-4 sm:px-6">
            <h2 id="article-tags-heading" className="text-center text-3xl font-bold tracking-tight text-balance text-ink-900 sm:text-4xl">{tags.heading}</h2>
            <TagLinks items={tags.items} labelledBy="article-tags-heading" className="mt-8 justify-center" />
          </div>
        </section>
      )}
    </>
  );
}
