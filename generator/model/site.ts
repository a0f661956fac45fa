/** The typed content model every template is rendered from: validated content plus what derives from it. */
import type {
  Checklist, CityFile, CityPageContent, Contact, EmbedPage, Forms, Home, LegalFrontMatter, Locations, Service,
  ServicesIndex, Site,
} from './schemas.js';

export interface ServiceEntry extends Service {
  slug: string;
  route: string;
}

export interface CityEntry extends Omit<CityFile, 'page'> {
  slug: string;
  /** The city page's route, or null when the city has no page. */
  route: string | null;
  /** Where the city card's Explore Location button leads. */
  exploreHref: string;
  page?: CityPageContent;
}

export interface LegalEntry extends LegalFrontMatter {
  slug: string;
  route: string;
  html: string;
}

export interface SiteModel {
  site: Site;
  home: Home;
  servicesIndex: ServicesIndex;
  locations: Locations;
  contact: Contact;
  checklist: Checklist;
  forms: Forms;
  customerLogin: EmbedPage;
  bookOnline: EmbedPage;
  services: ServiceEntry[];
  cities: CityEntry[];
  /** The served-cities list: site settings' list plus every city file, without repeats. */
  servedCities: string[];
  legal: LegalEntry[];
}

export const cityRoute = (slug: string) => `/locations/deep-cleaning-${slug}-ca`;
export const BOOK_ONLINE = '/book-online';
