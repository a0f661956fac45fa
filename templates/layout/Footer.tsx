import { Clock, Mail, MapPin, Phone, Sparkles } from '../components/Icon.js';
import type { Layout as Chrome } from '../../contracts/pages.js';

export function Footer({ chrome }: { chrome: Chrome }) {
  const f = chrome.footer;
  const linkClass = 'inline-flex min-h-11 items-center py-1 text-ink-200 hover:text-white hover:underline underline-offset-4';
  return (
    <footer className="bg-ink-900 text-ink-200">
      <div className="mx-auto grid max-w-7xl grid-cols-2 gap-x-6 gap-y-10 px-4 py-14 sm:px-6 lg:grid-cols-[1.4fr_1fr_1fr_1.2fr] lg:gap-x-10">
        <div className="col-span-2 lg:col-span-1">
          <p className="flex items-center gap-2 text-xl font-extrabold text-white">
            <span className="grid size-9 place-items-center rounded-xl bg-brand-600 text-white"><Sparkles className="size-5" aria-hidden="true" /></span>
            {chrome.brand}
          </p>
          <p className="mt-4 leading-relaxed">{f.about}</p>
        </div>
        <nav aria-labelledby="footer-quick">
          <h2 id="footer-quick" className="text-sm font-semibold tracking-wider text-white uppercase">{f.quickLinksHeading}</h2>
          <ul className="mt-3">
            {f.quickLinks.map((l) => <li key={l.href}><a href={l.href} hrefLang={l.hreflang} className={linkClass}>{l.label}</a></li>)}
          </ul>
        </nav>
        <nav aria-labelledby="footer-services">
          <h2 id="footer-services" className="text-sm font-semibold tracking-wider text-white uppercase">{f.servicesHeading}</h2>
          <ul className="mt-3">
            {chrome.services.map((l) => <li key={l.href}><a href={l.href} className={linkClass}>{l.name}</a></li>)}
          </ul>
        </nav>
        <div className="col-span-2 lg:col-span-1">
          <h2 className="text-sm font-semibold tracking-wider text-white uppercase">{f.contactHeading}</h2>
          <ul className="mt-3 space-y-1">
            <li><a href={chrome.phone.href} className={`${linkClass} gap-2`}><Phone className="size-4" aria-hidden="true" />{chrome.phone.display}</a></li>
            <li><a href={`mailto:${chrome.email}`} className={`${linkClass} gap-2 break-all`}><Mail className="size-4 shrink-0" aria-hidden="true" />{chrome.email}</a></li>
            <li className="flex min-h-11 items-center gap-2"><MapPin className="size-4" aria-hidden="true" />{chrome.locality}</li>
            <li className="flex min-h-11 items-center gap-2"><Clock className="size-4" aria-hidden="true" />{chrome.hours}</li>
          </ul>
        </div>
      </div>
      <div className="border-t border-white/10">
        <div className="mx-auto flex max-w-7xl flex-col gap-2 px-4 py-6 text-sm sm:flex-row sm:items-center sm:justify-between sm:px-6">
          <p>{f.copyrightText}</p>
          <ul className="flex gap-4">
            {f.legal.map((l) => <li key={l.href}><a href={l.href} hrefLang={l.hreflang} className={linkClass}>{l.label}</a></li>)}
          </ul>
        </div>
      </div>
    </footer>
  );
}
