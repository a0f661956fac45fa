import type { Layout as Chrome, PageBody } from '../../contracts/pages.js';
import { LinkButton, PhoneButton } from '../components/Buttons.js';
import { Discount } from '../components/Discount.js';
import { Faq } from '../components/Faq.js';
import { Hero } from '../components/Hero.js';
import { ArrowRight, CircleCheck, Icon } from '../components/Icon.js';
import { Picture } from '../components/Picture.js';
import { Reviews } from '../components/Reviews.js';
import { Section } from '../components/Section.js';

type Props = Extract<PageBody, { kind: 'home' }> & { chrome: Chrome };

export function HomePage({ home, claims, stats, services, reviews, discount, heroImage, aboutImage, labels, chrome }: Props) {
  return (
    <>
      <Hero image={heroImage} height="min-h-[80vh]" blurred>
        <p className="text-sm font-semibold tracking-widest text-accent-300 uppercase">{home.hero.eyebrow}</p>
        <h1 className="mt-4 max-w-3xl text-4xl font-extrabold tracking-tight text-balance sm:text-5xl lg:text-6xl">{home.hero.heading}</h1>
        <p className="mt-5 max-w-2xl text-lg text-white/90 sm:text-xl">{home.hero.subheading}</p>
        <div className="mt-8 flex flex-col gap-3 sm:flex-row">
          <LinkButton href={chrome.routes.bookOnline} variant="accent">{labels.getFreeQuote}</LinkButton>
          <PhoneButton phone={chrome.phone} label={home.hero.callLabel} separator=" " variant="light" />
        </div>
      </Hero>

      <Section id="claims" heading={home.claimsHeading}>
        <ul className="grid gap-x-8 gap-y-8 sm:grid-cols-2 lg:grid-cols-3">
          {claims.map((c) => (
            <li key={c.title} className="flex gap-4">
              <span className="grid size-12 shrink-0 place-items-center rounded-xl bg-brand-50 text-brand-700"><Icon name={c.icon} /></span>
              <span>
                <span className="block text-lg font-semibold text-ink-900">{c.title}</span>
                <span className="mt-1 block leading-relaxed text-ink-600">{c.text}</span>
              </span>
            </li>
          ))}
        </ul>
      </Section>

      <section aria-labelledby="stats-heading" className="bg-brand-800 py-14 text-white">
        <div className="mx-auto max-w-6xl px-4 sm:px-6">
          <h2 id="stats-heading" className="text-center text-2xl font-bold">{home.statsHeading}</h2>
          <dl className="mt-8 grid grid-cols-2 gap-4 lg:grid-cols-4">
            {stats.map((s) => (
              <div key={s.label} className="flex flex-col-reverse justify-end rounded-card bg-white/10 p-5 text-center ring-1 ring-white/20">
                <dt className="mt-1 text-white/90">{s.label}</dt>
                <dd className="text-3xl font-extrabold text-accent-400 sm:text-4xl">{s.value}</dd>
              </div>
            ))}
          </dl>
        </div>
      </section>

      <Reviews reviews={reviews} />

      <Section id="services" heading={home.services.heading} intro={home.services.intro} tone="tint">
        <ul className="grid gap-5 sm:grid-cols-2 lg:grid-cols-6">
          {services.map((s, i) => (
            // Three cards a row on desktops; a short last row is centred.
            <li key={s.href} className={`lg:col-span-2 ${services.length % 3 === 2 && i === services.length - 2 ? 'lg:col-start-2' : ''} ${services.length % 3 === 1 && i === services.length - 1 ? 'lg:col-start-3' : ''}`}>
              <a href={s.href} className="group flex h-full flex-col rounded-card bg-white p-6 shadow-card transition hover:ring-2 hover:ring-brand-400">
                <span className="grid size-12 place-items-center rounded-xl bg-brand-50 text-brand-700"><Icon name={s.icon} /></span>
                <span className="mt-4 text-xl font-semibold text-ink-900">{s.name}</span>
                <span className="mt-2 flex-1 text-ink-600">{s.summary}</span>
                <span className="mt-4 inline-flex items-center gap-1 font-semibold text-brand-700">{labels.learnMore}<ArrowRight className="size-4 transition group-hover:translate-x-1" aria-hidden="true" /></span>
              </a>
            </li>
          ))}
        </ul>
      </Section>

      <section aria-labelledby="about-heading" className="bg-white py-16 sm:py-20">
        <div className="mx-auto grid max-w-6xl items-center gap-10 px-4 sm:px-6 lg:grid-cols-2">
          <Picture image={aboutImage} alt="" className="h-auto w-full rounded-card shadow-card" sizes="(min-width: 1024px) 50vw, 100vw" />
          <div>
            <h2 id="about-heading" className="text-3xl font-bold tracking-tight text-ink-900 sm:text-4xl">{home.about.heading}</h2>
            <div className="mt-5 space-y-4 text-lg leading-relaxed text-ink-700">{home.about.paragraphs.map((p, i) => <p key={i}>{p}</p>)}</div>
            <ul className="mt-6 space-y-2">
              {home.about.points.map((p) => <li key={p} className="flex gap-2 text-ink-800"><CircleCheck className="mt-0.5 size-5 shrink-0 text-brand-600" aria-hidden="true" />{p}</li>)}
            </ul>
          </div>
        </div>
      </section>

      <Faq id="home-faq" heading={home.faq.heading} items={home.faq.items} />
      <Discount texts={discount} page="/" closeLabel={chrome.navigation.closeLabel} />
    </>
  );
}
