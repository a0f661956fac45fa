import type { ServiceSection } from '../../contracts/content.js';
import { LinkButton } from './Buttons.js';
import { CircleCheck, Icon } from './Icon.js';
import { Section } from './Section.js';

const card = 'flex flex-col rounded-card bg-white p-6 shadow-card ring-1 ring-ink-100';
const checkList = (items: readonly string[]) => (
  <ul className="mt-4 space-y-2">
    {items.map((f) => <li key={f} className="flex gap-2 text-ink-700"><CircleCheck className="mt-0.5 size-5 shrink-0 text-brand-600" aria-hidden="true" />{f}</li>)}
  </ul>
);

/** The sections only one service page has: schedules, move cards, project types, process... */
export function ServiceSections({ sections }: { sections: readonly ServiceSection[] }) {
  return <>{sections.map((section, i) => <OneSection key={i} id={`section-${i}`} section={section} />)}</>;
}

function OneSection({ id, section }: { id: string; section: ServiceSection }) {
  switch (section.kind) {
    case 'schedules':
      return (
        <Section id={id} heading={section.heading} intro={section.intro}>
          <ul className="grid gap-6 lg:grid-cols-3">
            {section.plans.map((plan) => (
              <li key={plan.name} className={`${card} relative ${plan.badge ? 'ring-2 ring-brand-600' : ''}`}>
                {plan.badge && <p className="absolute -top-3 left-6 rounded-full bg-accent-400 px-3 py-1 text-xs font-bold tracking-wide text-ink-900">{plan.badge}</p>}
                <h3 className="text-2xl font-bold text-ink-900">{plan.name}</h3>
                <p className="mt-2 text-ink-600">{plan.description}</p>
                <div className="flex-1">{checkList(plan.features)}</div>
                <div className="mt-6"><LinkButton href={plan.button.href} className="w-full">{plan.button.label}</LinkButton></div>
              </li>
            ))}
          </ul>
        </Section>
      );
    case 'moveCards':
      return (
        <Section id={id} heading={section.heading} intro={section.intro}>
          <ul className="grid gap-6 md:grid-cols-2">
            {section.cards.map((c) => (
              <li key={c.title} className={card}>
                <span className="grid size-12 place-items-center rounded-xl bg-brand-50 text-brand-700"><Icon name={c.icon} /></span>
                <h3 className="mt-4 text-2xl font-bold text-ink-900">{c.title}</h3>
                <p className="mt-2 text-ink-600">{c.description}</p>
                <div className="flex-1">{checkList(c.benefits)}</div>
                <div className="mt-6"><LinkButton href={c.button.href} className="w-full">{c.button.label}</LinkButton></div>
              </li>
            ))}
          </ul>
        </Section>
      );
    case 'projectTypes':
      return (
        <Section id={id} heading={section.heading} intro={section.intro}>
          <ul className="grid gap-6 lg:grid-cols-3">
            {section.types.map((t) => (
              <li key={t.type} className={card}>
                <h3 className="text-xl font-bold text-ink-900">{t.type}</h3>
                <p className="mt-2 text-ink-600">{t.description}</p>
                {checkList(t.features)}
              </li>
            ))}
          </ul>
        </Section>
      );
    case 'process':
      return (
        <Section id={id} heading={section.heading} intro={section.intro} tone="tint">
          <ol className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
            {section.steps.map((s, i) => (
              <li key={s.title} className={card}>
                <span className="grid size-11 place-items-center rounded-full bg-brand-600 text-lg font-bold text-white" aria-hidden="true">{i + 1}</span>
                <h3 className="mt-4 text-xl font-bold text-ink-900">{s.title}</h3>
                <p className="mt-2 text-ink-600">{s.description}</p>
              </li>
            ))}
          </ol>
        </Section>
      );
    case 'businessTypes':
      return (
        <Section id={id} heading={section.heading} intro={section.intro}>
          <ul className="grid gap-6 lg:grid-cols-3">
            {section.types.map((t) => (
              <li key={t.type} className={card}>
                <span className="grid size-12 place-items-center rounded-xl bg-brand-50 text-brand-700"><Icon name={t.icon} /></span>
                <h3 className="mt-4 text-xl font-bold text-ink-900">{t.type}</h3>
                {checkList(t.services)}
              </li>
            ))}
          </ul>
        </Section>
      );
    case 'frequencies':
      return (
        <Section id={id} heading={section.heading} intro={section.intro} tone="tint">
          <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {section.items.map((f) => (
              <li key={f.name} className={card}>
                <h3 className="text-lg font-bold text-ink-900">{f.name}</h3>
                <p className="mt-1 text-ink-600">{f.description}</p>
              </li>
            ))}
          </ul>
        </Section>
      );
    case 'benefits':
      return (
        <Section id={id} heading={section.heading} intro={section.intro}>
          {/* Four benefits sit in one row (or two by two), never three and a lonely fourth. */}
          <ul className={`grid gap-6 sm:grid-cols-2 ${section.items.length % 4 === 0 ? 'lg:grid-cols-4' : 'lg:grid-cols-3'}`}>
            {section.items.map((b) => (
              <li key={b.title} className="flex gap-4">
                <span className="grid size-12 shrink-0 place-items-center rounded-xl bg-brand-50 text-brand-700"><Icon name={b.icon} /></span>
                <div><h3 className="text-lg font-bold text-ink-900">{b.title}</h3><p className="mt-1 text-ink-600">{b.description}</p></div>
              </li>
            ))}
          </ul>
        </Section>
      );
  }
}
