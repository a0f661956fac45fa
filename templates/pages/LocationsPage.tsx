import { MapPin, Users } from '../components/Icon.js';
import type { Layout as Chrome, PageBody } from '../../contracts/pages.js';
import { Breadcrumbs } from '../components/Breadcrumbs.js';
import { LinkButton } from '../components/Buttons.js';
import { CtaSection } from '../components/CtaSection.js';
import { Pagination } from '../components/Pagination.js';

type Props = Extract<PageBody, { kind: 'locations' }> & { chrome: Chrome };

/** One page of /locations; past CITIES_PER_PAGE cities, with the numbered links to the others. */
export function LocationsPage({ page, stats, cities, pagination, breadcrumbs, chrome }: Props) {
  return (
    <>
      <section className="bg-gradient-to-br from-brand-800 to-brand-950 py-16 text-white sm:py-24">
        {breadcrumbs && <div className="mx-auto mb-6 max-w-6xl px-4 sm:px-6"><Breadcrumbs items={breadcrumbs.items} label={breadcrumbs.label} /></div>}
        <div className="mx-auto max-w-6xl px-4 text-center sm:px-6">
          <h1 className="text-4xl font-extrabold tracking-tight sm:text-5xl">{page.heading}</h1>
          <p className="mx-auto mt-5 max-w-2xl text-lg text-white/90">{page.intro}</p>
          {stats.length > 0 && <dl className="mx-auto mt-10 grid max-w-4xl grid-cols-3 gap-3 sm:mt-12 sm:gap-4">
            {stats.map((s) => (
              <div key={s.label} className="flex flex-col-reverse justify-end rounded-card bg-white/10 px-2 py-4 ring-1 ring-white/20 sm:p-6">
                <dt className="mt-1 text-sm text-white/90 sm:text-base">{s.label}</dt>
                <dd className="text-2xl font-extrabold text-accent-400 sm:text-4xl">{s.value}</dd>
              </div>
            ))}
          </dl>}
        </div>
      </section>

      <section aria-labelledby="cities-heading" className="bg-ink-50 py-16 sm:py-20">
        <div className="mx-auto max-w-7xl px-4 sm:px-6">
          <h2 id="cities-heading" className="text-center text-3xl font-bold tracking-tight text-ink-900 sm:text-4xl">{page.gridHeading}</h2>
          {pagination && <p className="mt-3 text-center text-lg text-ink-600">{pagination.status}</p>}
          <ul className="mt-12 grid gap-5 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4" data-testid="city-cards">
            {cities.map((city) => (
              <li key={city.name} className="flex flex-col rounded-card bg-white p-6 shadow-card">
                <h3 className="flex items-center gap-2 text-xl font-bold text-ink-900">
                  <MapPin className="size-5 text-brand-600" aria-hidden="true" />{city.name}
                </h3>
                <p className="mt-2 flex items-center gap-2 text-sm font-medium text-ink-600">
                  <Users className="size-4" aria-hidden="true" />{page.populationLabel}: {city.population}
                </p>
                <p className="mt-3 flex-1 leading-relaxed text-ink-700">{city.description}</p>
                <a href={city.href} className="mt-5 inline-flex min-h-11 items-center justify-center rounded-full bg-brand-600 px-5 font-semibold text-white hover:bg-brand-700">
                  {page.exploreLabel}<span className="sr-only">: {city.name}</span>
                </a>
              </li>
            ))}
          </ul>
          {pagination && <Pagination nav={pagination} />}
        </div>
      </section>

      <CtaSection id="dont-see-heading" heading={page.dontSee.heading} text={page.dontSee.text} tone="card" call={{ phone: chrome.phone, label: page.dontSee.callLabel }}>
        <LinkButton href={chrome.routes.contact}>{page.dontSee.contactLabel}</LinkButton>
      </CtaSection>
    </>
  );
}
