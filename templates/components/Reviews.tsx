import type { ReviewsProps } from '../../contracts/pages.js';
import ReviewsWidget from '../../src/islands/ReviewsWidget.js';
import { Island } from './Island.js';

/** The third-party reviews widget; its script loads only when this section nears the viewport. */
export function Reviews({ reviews }: { reviews: ReviewsProps }) {
  const { heading, ...widget } = reviews;
  return (
    <section aria-labelledby="reviews-heading" className="bg-white py-16 sm:py-20">
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <h2 id="reviews-heading" className="text-center text-3xl font-bold tracking-tight text-balance text-ink-900 sm:text-4xl">{heading}</h2>
        <div className="mt-10">
          <Island name="ReviewsWidget" component={ReviewsWidget} props={widget} hydrate="visible" />
        </div>
      </div>
    </section>
  );
}
