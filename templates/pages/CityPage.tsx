import { CircleCheck } from '../components/Icon.js';
import type { PageBody } from '../../contracts/pages.js';
import { Breadcrumbs } from '../components/Breadcrumbs.js';
import { LinkButton } from '../components/Buttons.js';
import { CtaSection } from '../components/CtaSection.js';
import { Discount } from '../components/Discount.js';
import { Faq } from '../components/Faq.js';
import { Hero } from '../components/Hero.js';
import { RelatedCards } from '../components/RelatedCards.js';
import { Reviews } from '../components/Reviews.js';
import { Section } from '../components/Section.js';

type Props = Extract<PageBody, { kind: 'city' }> & { route: string; closeLabel: string; bookOnline: string };

export function CityPage({ name, content, texts, heroImage, related, reviews, discount, breadcrumbs, breadcrumbLabel, route, closeLabel, bookOnline }: Props) {
  return (
    <>
      <Hero image={heroImage} height="min-h-[70vh]">
        <Breadcrumbs items={breadcrumbs} label={breadcrumbLabel} />
        <h1 className="mt-6 max-w-3xl text-4xl font-extrabold tracking-tight text-balance sm:text-5xl lg:text-6xl">{texts.heroHeading}</h1>
        <p className="mt-5 max-w-2xl text-lg text-white/90 sm:text-xl">{content.tagline}</p>
        <div className="mt-8"><LinkButton href={bookOnline} variant="accent">{texts.bookNow}</LinkButton></div>
      </Hero>

      <section aria-label={name} className="bg-white py-16 sm:py-20">
        <div className="mx-auto max-w-3xl space-y-5 px-4 text-lg leading-relaxed text-ink-700 sm:px-6">
          {content.intro.map((p, i) => <p key={i}>{p}</p>)}
          <div className="pt-4"><LinkButton href={bookOnline}>{texts.scheduleButton}</LinkButton></div>
        </div>
      </section>

      <Section id="benefits" heading={texts.benefitsHeading} tone="tint">
        <ul className="grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
          {content.benefits.map((benefit, i) => (
            <li key={i} className="flex gap-3 rounded-card bg-white p-6 shadow-card">
              <CircleCheck className="mt-0.5 size-6 shrink-0 text-brand-600" aria-hidden="true" />
              <span className="leading-relaxed text-ink-700">{benefit}</span>
            </li>
          ))}
        </ul>
      </Section>

      <Reviews reviews={reviews} />

      <Faq id="city-faq" heading={texts.faqHeading} items={content.faqs} />

      <CtaSection id="cta-heading" heading={texts.ctaHeading} text={texts.ctaText} tone="band">
        <LinkButton href={bookOnline} variant="accent">{texts.ctaButton}</LinkButton>
      </CtaSection>

      <RelatedCards heading={texts.relatedHeading} items={related} />

      <Discount texts={discount} page={route} closeLabel={closeLabel} />
    </>
  );
}
