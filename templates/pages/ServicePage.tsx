import { CircleCheck, MapPin } from '../components/Icon.js';
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
import { ServiceSections } from '../components/ServiceSections.js';

type Props = Extract<PageBody, { kind: 'service' }> & { route: string; closeLabel: string; bookOnline: string };

export function ServicePage({ service, heroImage, servedCities, moreCities, related, reviews, discount, labels, breadcrumbs, breadcrumbLabel, route, closeLabel, bookOnline }: Props) {
  return (
    <>
      <Hero image={heroImage} height="min-h-[60vh]">
        <Breadcrumbs items={breadcrumbs} label={breadcrumbLabel} />
        <h1 className="mt-6 max-w-3xl text-4xl font-extrabold tracking-tight text-balance sm:text-5xl">{service.hero.heading}</h1>
        <p className="mt-5 max-w-2xl text-lg text-white/90 sm:text-xl">{service.hero.subheading}</p>
        <div className="mt-8"><LinkButton href={bookOnline} variant="accent">{labels.bookOnline}</LinkButton></div>
      </Hero>

      <section aria-labelledby="intro-heading" className="bg-white py-16 sm:py-20">
        <div className="mx-auto max-w-3xl px-4 sm:px-6">
          <h2 id="intro-heading" className="text-3xl font-bold tracking-tight text-balance text-ink-900 sm:text-4xl">{service.intro.heading}</h2>
          <div className="mt-5 space-y-4 text-lg leading-relaxed text-ink-700">{service.intro.paragraphs.map((p, i) => <p key={i}>{p}</p>)}</div>
        </div>
      </section>

      <Section id="why" heading={service.whyChoose.heading} tone="tint">
        <ul className="grid gap-4 sm:grid-cols-2">
          {service.whyChoose.items.map((item) => (
            <li key={item} className="flex gap-3 rounded-card bg-white p-5 shadow-card"><CircleCheck className="mt-0.5 size-6 shrink-0 text-brand-600" aria-hidden="true" /><span className="text-ink-700">{item}</span></li>
          ))}
        </ul>
      </Section>

      <ServiceSections sections={service.sections} />

      <Reviews reviews={reviews} />

      <Section id="areas" heading={service.serviceAreasHeading} tone="tint">
        <ul className="flex flex-wrap justify-center gap-2">
          {servedCities.map((c) => (
            <li key={c.name}>
              {c.href
                ? <a href={c.href} className="inline-flex min-h-11 items-center gap-1.5 rounded-full bg-white px-4 font-medium text-brand-700 shadow-sm ring-1 ring-brand-200 hover:bg-brand-600 hover:text-white"><MapPin className="size-4" aria-hidden="true" />{c.name}</a>
                : <span className="inline-flex min-h-11 items-center gap-1.5 rounded-full bg-white px-4 text-ink-700 shadow-sm"><MapPin className="size-4 text-brand-600" aria-hidden="true" />{c.name}</span>}
            </li>
          ))}
        </ul>
        {moreCities && <div className="mt-8 text-center"><LinkButton href={moreCities.href}>{moreCities.label}</LinkButton></div>}
      </Section>

      <Faq id="service-faq" heading={service.faq.heading} items={service.faq.items} />

      <CtaSection id="cta-heading" heading={service.cta.heading} text={service.cta.text} tone="band">
        <LinkButton href={service.cta.button.href} variant="accent">{service.cta.button.label}</LinkButton>
      </CtaSection>

      <RelatedCards heading={service.relatedHeading} items={related.map(({ name, href, icon, summary }) => ({ name, href, icon, text: summary }))} />
      <Discount texts={discount} page={route} closeLabel={closeLabel} />
    </>
  );
}
