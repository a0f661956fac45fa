import type { PageBody } from '../../contracts/pages.js';
import { LinkButton } from '../components/Buttons.js';

type Props = Extract<PageBody, { kind: 'notFound' }>;

export function NotFoundPage({ code, heading, link }: Props) {
  return (
    <section className="grid min-h-[60vh] place-items-center bg-ink-50 px-4 py-20 text-center">
      <div>
        <h1 className="text-7xl font-extrabold text-brand-700">{code}</h1>
        <p className="mt-4 text-2xl font-semibold text-ink-900">{heading}</p>
        <div className="mt-8"><LinkButton href={link.href}>{link.label}</LinkButton></div>
      </div>
    </section>
  );
}
