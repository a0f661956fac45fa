/** Stage render: one planned page → its complete HTML document (react-dom/server). */
import { renderToString } from 'react-dom/server';
import type { ReactNode } from 'react';
import type { IslandName } from '../../src/islands/registry.js';
import { IslandCollector } from '../../templates/components/Island.js';
import { Document } from '../../templates/layout/Document.js';
import { ChecklistPage } from '../../templates/pages/ChecklistPage.js';
import { CityPage } from '../../templates/pages/CityPage.js';
import { ContactPage } from '../../templates/pages/ContactPage.js';
import { EmbedPage } from '../../templates/pages/EmbedPage.js';
import { HomePage } from '../../templates/pages/HomePage.js';
import { LegalPage } from '../../templates/pages/LegalPage.js';
import { LocationsPage } from '../../templates/pages/LocationsPage.js';
import { NotFoundPage } from '../../templates/pages/NotFoundPage.js';
import { ServicePage } from '../../templates/pages/ServicePage.js';
import { ServicesPage } from '../../templates/pages/ServicesPage.js';
import type { Layout, PagePlan } from '../../contracts/pages.js';

function pageContent(plan: PagePlan, layout: Layout): ReactNode {
  const body = plan.body;
  const closeLabel = layout.navigation.closeLabel;
  switch (body.kind) {
    case 'home': return <HomePage {...body} chrome={layout} />;
    case 'services': return <ServicesPage {...body} />;
    case 'locations': return <LocationsPage {...body} chrome={layout} />;
    case 'checklist': return <ChecklistPage {...body} chrome={layout} />;
    case 'contact': return <ContactPage {...body} />;
    case 'embed': return <EmbedPage {...body} />;
    case 'legal': return <LegalPage {...body} />;
    case 'service': return <ServicePage {...body} route={plan.route} closeLabel={closeLabel} />;
    case 'city': return <CityPage {...body} route={plan.route} closeLabel={closeLabel} />;
    case 'notFound': return <NotFoundPage {...body} />;
  }
}

/** Page-specific scripts besides the island loader (each tiny, each only where needed). */
function extraScripts(plan: PagePlan, layout: Layout): string[] {
  if (plan.body.kind === 'home' && layout.assets.heroBlur) return [layout.assets.heroBlur];
  if (plan.body.kind === 'notFound' && layout.assets.notFound) return [layout.assets.notFound];
  return [];
}

export function renderPage(plan: PagePlan, layout: Layout): string {
  // The page content renders first so the document knows which islands it holds.
  const islands = new Set<IslandName>();
  const content = renderToString(
    <IslandCollector.Provider value={islands}>{pageContent(plan, layout)}</IslandCollector.Provider>,
  );
  const scripts = [
    ...extraScripts(plan, layout),
    ...(islands.size && layout.assets.entry ? [layout.assets.entry] : []),
    ...(layout.assets.devReload ? [layout.assets.devReload] : []),
  ];
  const html = renderToString(
    <Document head={plan.head} chrome={layout} route={plan.route} scripts={scripts}>
      <div className="contents" dangerouslySetInnerHTML={{ __html: content }} />
    </Document>,
  );
  return `<!DOCTYPE html>${html}`;
}
