/** Structured data as typed schema.org nodes (schema-dts), so only real types and properties compile. */
import type { BreadcrumbList, City, HomeAndConstructionBusiness, Service as ServiceNode, WebPage } from 'schema-dts';
import type { Site } from '../../contracts/content.js';
import type { Breadcrumb } from '../../contracts/pages.js';

export type Node<T> = Exclude<T, string> & { '@type': string };

const businessId = (origin: string) => `${origin}/#business`;

const city = (name: string): Node<City> => ({ '@type': 'City', name });

export function business(site: Site, origin: string, areaServed: readonly string[]): Node<HomeAndConstructionBusiness> {
  return {
    '@type': 'HomeAndConstructionBusiness',
    '@id': businessId(origin),
    name: site.brand.name,
    description: site.brand.description,
    url: `${origin}/`,
    telephone: site.phone.e164,
    email: site.email,
    address: {
      '@type': 'PostalAddress',
      addressLocality: site.address.locality,
      addressRegion: site.address.region,
      addressCountry: site.address.country,
    },
    areaServed: areaServed.map(city),
    openingHoursSpecification: {
      '@type': 'OpeningHoursSpecification',
      dayOfWeek: site.hours.days,
      opens: site.hours.opens,
      closes: site.hours.closes,
    },
  } as Node<HomeAndConstructionBusiness>;
}

export function service(name: string, description: string, url: string, origin: string, areaServed: readonly string[]): Node<ServiceNode> {
  return {
    '@type': 'Service',
    name,
    description,
    url,
    serviceType: name,
    provider: { '@id': businessId(origin) },
    areaServed: areaServed.map(city),
  };
}

export function breadcrumbs(items: readonly Breadcrumb[], origin: string): Node<BreadcrumbList> {
  return {
    '@type': 'BreadcrumbList',
    itemListElement: items.map((item, i) => ({
      '@type': 'ListItem',
      position: i + 1,
      name: item.name,
      item: origin + (item.href === '/' ? '/' : item.href),
    })),
  };
}

export function webPage(name: string, description: string, url: string): Node<WebPage> {
  return { '@type': 'WebPage', name, description, url };
}
