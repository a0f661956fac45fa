import { ArrowRight, CircleCheck } from 'lucide-react';
import type { PageBody } from '../../contracts/pages.js';
import { Breadcrumbs } from '../components/Breadcrumbs.js';
import { LinkButton } from '../components/Buttons.js';
import { Discount } from '../components/Discount.js';
import { Faq } from '../components/Faq.js';
import { Hero } from '../components/Hero.js';
import { Icon } from '../components/Icon.js';
import { Reviews } from '../components/Reviews.js';
import { Section } from '../components/Section.js';

type Props = Extract<PageBody, { kind: 'city' }> & { route: string; closeLabel: string };

export function CityPage({ name, content, texts, heroImage, related, reviews, discount, breadcrumbs, breadcrumbLabel, route, closeLabel }: Props) {
  return (
    <>
      <Hero image={heroImage} height="min-h-[70vh]">
        <Breadcrumbs items={breadcrumbs} label={breadcrumbLabel} />
        <h1 className="mt-6 max-w-3xl text-4xl font-extrabold tracking-tight text-balance sm:text-5xl lg:text-6xl">{texts.heroHeading}</h1>
        <p className="mt-5 max-w-2xl text-lg text-white/90 sm:text-xl">{content.tagline}</p>
        <div className="mt-8"><LinkButton href="/book-online" variant="accent">{texts.bookNow}</LinkButton></div>
      </Hero>

      <section aria-label={name} className="bg-white py-16 sm:py-20">
        <div className="mx-auto max-w-3xl space-y-5 px-4 text-lg leading-relaxed text-ink-700 sm:px-6">
          {content.intro.map((p, i) => <p key={i}>{p}</p>)}
          <div className="pt-4"><LinkButton href="/book-online">{texts.scheduleButton}</LinkButton></div>
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

      <section aria-labelledby="cta-heading" className="bg-brand-800 py-16 text-white sm:py-20">
        <div className="mx-auto max-w-3xl px-4 text-center sm:px-6">
          <h2 id="cta-heading" className="text-3xl font-bold tracking-tight text-balance sm:text-4xl">{texts.ctaHeading}</h2>
          <p className="mt-4 text-lg text-white/90">{texts.ctaText}</p>
          <div className="mt-8"><LinkButton href="/book-online" variant="accent">{texts.ctaButton}</LinkButton></div>
        </div>
      </section>

      <Section id="related" heading={texts.relatedHeading}>
        <ul className="grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
          {related.map((r) => (
            <li key={r.href}>
              <a href={r.href} className="group flex h-full flex-col rounded-card border border-ink-200 bg-white p-6 shadow-card transition hover:border-brand-400">
                <span className="grid size-12 place-items-center rounded-xl bg-brand-50 text-brand-700"><Icon name={r.icon} /></span>
                <span className="mt-4 text-lg font-semibold text-ink-900">{r.name}</span>
                <span className="mt-2 flex-1 text-ink-600">{r.text}</span>
                <ArrowRight className="mt-4 size-5 text-brand-700 transition group-hover:translate-x-1" aria-hidden="true" />
              </a>
            </li>
          ))}
        </ul>
      </Section>

      <Discount texts={discount} page={route} closeLabel={closeLabel} />
    </>
  );
}
