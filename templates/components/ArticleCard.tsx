import type { ArticleCardView } from '../../contracts/pages.js';
import { Picture } from './Picture.js';

/**
 * An article's card, as the city cards look: its title is its one link (the link's accessible
 * name is the title), stretched over the whole card so all of it is the tap target. The picture
 * comes first on screen but after the title in the document, so a screen reader meets the title
 * first. `level`: the title's heading level (2 under a page's h1, 3 under a section's h2).
 */
export function ArticleCard({ card, level }: { card: ArticleCardView; level: 2 | 3 }) {
  const Heading = level === 2 ? 'h2' : 'h3';
  return (
    <li className="relative flex flex-col overflow-hidden rounded-card bg-white shadow-card">
      <div className="flex flex-1 flex-col p-6 wrap-anywhere">
        {card.mark && <p className="mb-3 self-start rounded-full bg-accent-100 px-3 py-1 text-sm font-bold text-accent-700 ring-1 ring-accent-500">{card.mark}</p>}
        <Heading className="text-xl font-bold text-ink-900">
          <a href={card.href} className="underline-offset-4 after:absolute after:inset-0 hover:text-brand-700 hover:underline">{card.title}</a>
        </Heading>
        <p className="mt-2 text-sm font-medium text-ink-600">
          <time dateTime={card.date.iso}>{card.date.text}</time>
          <span aria-hidden="true"> · </span>
          <span className="sr-only">, </span>
          {card.readingTime}
        </p>
        <p className="mt-3 flex-1 leading-relaxed text-ink-700">{card.description}</p>
      </div>
      {card.image && (
        <div className="order-first bg-ink-100">
          <Picture image={card.image} alt={card.image.alt} className="aspect-video h-auto w-full object-cover" sizes="(min-width: 1024px) 26rem, (min-width: 640px) 50vw, 100vw" />
        </div>
      )}
    </li>
  );
}

/** A grid of article cards: /articles and a tag's pages, an article's related articles. */
export function ArticleCards({ cards, level }: { cards: readonly ArticleCardView[]; level: 2 | 3 }) {
  return (
    <ul className="grid gap-5 sm:grid-cols-2 lg:grid-cols-3" data-testid="article-cards">
      {cards.map((card) => <ArticleCard key={card.href} card={card} level={level} />)}
    </ul>
  );
}

/**
 * Links to tags' pages, as pills the look of the page numbers' (44px high at least); `count`, when
 * given, follows the name: "Deep cleaning (4)".
 */
export function TagLinks({ items, className = '', ...name }: {
  items: readonly { name: string; href: string; count?: number }[];
  className?: string;
} & ({ label: string } | { labelledBy: string })) {
  return (
    <ul
      aria-label={'label' in name ? name.label : undefined}
      aria-labelledby={'labelledBy' in name ? name.labelledBy : undefined}
      className={`flex flex-wrap gap-2 wrap-anywhere ${className}`}
    >
      {items.map((tag) => (
        <li key={tag.href}>
          <a href={tag.href} className="inline-flex min-h-11 items-center gap-1.5 rounded-full bg-white px-4 text-sm font-semibold text-brand-700 shadow-sm ring-1 ring-brand-200 hover:bg-brand-600 hover:text-white">
            {tag.name}
            {tag.count !== undefined && ' '}
            {tag.count !== undefined && <span className="font-normal">({tag.count})</span>}
          </a>
        </li>
      ))}
    </ul>
  );
}
