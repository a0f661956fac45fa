import { Globe, Menu, Phone, Sparkles, X } from '../components/Icon.js';
import type { Layout as Chrome } from '../../contracts/pages.js';

/**
 * The primary navigation link a page belongs to ('' for none): the header marks it current. The
 * header depends on the page through this alone, so render draws one header per section.
 */
export function currentSection(chrome: Chrome, route: string): string {
  return chrome.navigation.primary.find((link) => route === link.href || route.startsWith(`${link.href}/`))?.href ?? '';
}

/**
 * Header with a right-side drawer for small screens. The drawer is a native popover: it opens,
 * closes on Escape and outside clicks, and traps nothing, all without JavaScript. Following a link
 * loads the next page, which closes it.
 */
/**
 * The header's link to the page in the other language. Its address is the page's own (the twin),
 * and the header is drawn once per section: `switchHref` is a marker render puts each page's in place of.
 */
function LanguageSwitch({ chrome, switchHref, className }: { chrome: Chrome; switchHref: string; className: string }) {
  const sw = chrome.languageSwitch;
  if (!sw) return null;
  return (
    <a href={switchHref} hrefLang={sw.hreflang} lang={sw.htmlLang} className={className}>
      <Globe className="size-4 shrink-0" aria-hidden="true" />{sw.name}
    </a>
  );
}

export function Header({ chrome, section, switchHref = '' }: { chrome: Chrome; section: string; switchHref?: string }) {
  const nav = chrome.navigation;
  const isCurrent = (href: string) => href === section;
  const home = chrome.home;
  return (
    // With a language switch, its strip scrolls away and the bar below it stays (sticky the strip's height above the top).
    <header className={`sticky z-40 border-b border-ink-100 bg-white/95 backdrop-blur ${chrome.languageSwitch ? '-top-11' : 'top-0'}`}>
      {chrome.languageSwitch && (
        <div className="border-b border-ink-100 bg-ink-50">
          <nav aria-label={chrome.languageSwitch.label} className="mx-auto flex h-11 max-w-7xl items-center justify-end px-4 sm:px-6">
            <LanguageSwitch chrome={chrome} switchHref={switchHref} className="inline-flex min-h-11 min-w-11 items-center justify-center gap-1.5 rounded px-2 text-sm font-semibold text-brand-700 underline underline-offset-4 hover:text-brand-800" />
          </nav>
        </div>
      )}
      <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-4 px-4 sm:h-20 sm:px-6">
        <a href={home} className="flex min-h-11 items-center gap-2 rounded-lg text-lg font-extrabold tracking-tight text-ink-900 sm:text-xl lg:text-lg xl:text-xl" aria-label={`${chrome.brand}, ${nav.homeLabel}`}>
          <span className="grid size-9 place-items-center rounded-xl bg-brand-600 text-white"><Sparkles className="size-5" aria-hidden="true" /></span>
          <span className="whitespace-nowrap">{chrome.brand}</span>
        </a>
        <nav aria-label={nav.mainNavLabel} className="hidden lg:block">
          <ul className="flex items-center gap-1">
            {nav.primary.map((link) => (
              <li key={link.href}>
                <a
                  href={link.href}
                  className={`inline-flex min-h-11 items-center rounded-full px-1.5 text-sm font-medium whitespace-nowrap xl:px-3 xl:text-[15px] 2xl:px-4 hover:bg-brand-50 hover:text-brand-700 ${isCurrent(link.href) ? 'text-brand-700' : 'text-ink-700'}`}
                  {...(isCurrent(link.href) ? { 'aria-current': 'page' as const } : {})}
                >
                  {link.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div className="flex items-center gap-2">
          <a href={chrome.phone.href} className="inline-flex min-h-11 min-w-11 items-center justify-center gap-2 rounded-full border-2 border-brand-600 px-3 font-semibold text-brand-700 hover:bg-brand-50 sm:px-4">
            <Phone className="size-4" aria-hidden="true" />
            {/* Beside the navigation (lg) there is room for the number only from xl on. */}
            <span className="sr-only sm:not-sr-only lg:sr-only xl:not-sr-only"><span className="whitespace-nowrap">{chrome.phone.display}</span></span>
            <span className="sr-only">{` (${nav.callLabel})`}</span>
          </a>
          <a href={nav.bookOnline.href} className="hidden min-h-11 items-center rounded-full bg-brand-600 px-5 font-semibold whitespace-nowrap text-white shadow-sm hover:bg-brand-700 sm:inline-flex lg:px-4 xl:px-5">
            {nav.bookOnline.label}
          </a>
          <button type="button" popoverTarget="site-drawer" className="inline-flex size-11 items-center justify-center rounded-full text-ink-800 hover:bg-ink-100 lg:hidden" aria-label={nav.menuLabel}>
            <Menu className="size-6" aria-hidden="true" />
          </button>
        </div>
      </div>
      <div
        id="site-drawer"
        popover="auto"
        className="fixed inset-y-0 right-0 left-auto m-0 h-dvh max-h-none w-80 max-w-[85vw] border-0 bg-white p-0 shadow-2xl backdrop:bg-ink-900/50"
      >
        <div className="flex h-16 items-center justify-between border-b border-ink-100 px-4">
          <span className="text-lg font-bold text-ink-900">{chrome.brand}</span>
          <button type="button" popoverTarget="site-drawer" popoverTargetAction="hide" className="inline-flex size-11 items-center justify-center rounded-full text-ink-800 hover:bg-ink-100" aria-label={nav.closeLabel}>
            <X className="size-6" aria-hidden="true" />
          </button>
        </div>
        <nav aria-label={nav.drawerNavLabel}>
          <ul className="flex flex-col p-4">
            {nav.primary.map((link) => (
              <li key={link.href}>
                <a href={link.href} className="flex min-h-12 items-center rounded-lg px-3 text-lg font-medium text-ink-800 hover:bg-brand-50 hover:text-brand-700">
                  {link.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div className="flex flex-col gap-3 border-t border-ink-100 p-4">
          <a href={chrome.phone.href} className="inline-flex min-h-12 items-center justify-center gap-2 rounded-full border-2 border-brand-600 font-semibold text-brand-700">
            <Phone className="size-4" aria-hidden="true" />{chrome.phone.display}
          </a>
          <a href={nav.bookOnline.href} className="inline-flex min-h-12 items-center justify-center rounded-full bg-brand-600 font-semibold text-white">{nav.bookOnline.label}</a>
        </div>
      </div>
    </header>
  );
}
