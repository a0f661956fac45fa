/** Structured data as typed schema.org nodes (schema-dts), so only real types and properties compile. */
import type { BlogPosting, BreadcrumbList, City, HomeAndConstructionBusiness, Service as ServiceNode, WebPage } from 'schema-dts';
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

/** `inLanguage` once the site has more than one language. */
export function webPage(name: string, description: string, url: string, inLanguage?: string): Node<WebPage> {
  return { '@type': 'WebPage', name, description, url, ...(inLanguage && { inLanguage }) };
}

/**
 * An article as Google's "Article structured data" recommends: the headline, its picture, when it
 * went live and last changed (with the offset), an author with a url, and the one business node
 * as publisher.
 */
export function blogPosting(a: {
  headline: string; description: string; url: string; image?: string; published: string; modified: string;
  author: { name: string; url: string }; keywords: readonly string[];
}, origin: string): Node<BlogPosting> {
  return {
    '@type': 'BlogPosting',
    headline: a.headline,
    description: a.description,
    url: a.url,
    mainEntityOfPage: a.url,
    ...(a.image && { image: [a.image] }),
    datePublished: a.published,
    dateModified: a.modified,
    author: { '@type': 'Person', name: a.author.name, url: a.author.url },
    publisher: { '@id': businessId(origin) },
    keywords: a.keywords.join(', '),
    inLanguage: 'en-US',
  };
}
