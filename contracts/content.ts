/**
 * The content model: one zod schema per content kind, the one source of truth. The TypeScript
 * types below are inferred from it; the JSON Schemas are derived from it in memory
 * (contracts/validate/jsonSchemas.ts), compiled by ajv from there and written to content/schemas/
 * for editors by `npm run schemas`. The texts islands receive as props are part of it; browser code
 * imports only types from here, so zod never reaches the island bundle.
 */
import { z } from 'zod';
import { LOCAL_DATE_TIME } from './zonedTime.js';
import type { Lang } from './languages.js';

/**
 * The most cities one page lists: cards on a page of /locations, chips and areaServed on a service
 * page and /services, and site.yaml's own list (the business's areaServed on every page). A card
 * is about 1.5 KB of HTML, so a page of /locations stays near 100 KB however many cities there
 * are; 48 fills whole rows at one, two, three and four columns. Past it /locations is split into
 * numbered pages and a service page links to them (notes/decisions.md).
 */
export const CITIES_PER_PAGE = 48;

const text = z.string().trim().min(1);

const describe = <T extends z.ZodType>(schema: T, description: string): T => schema.meta({ description });

/** A site path ("/book-online"), a tel:/mailto: link or an absolute https URL. */
const href = describe(
  z.string().regex(/^(\/[^\s]*|tel:\+?[0-9]+|mailto:[^\s@]+@[^\s@]+|https:\/\/[^\s]+)$/),
  'A site path starting with /, a tel: or mailto: link, or an https:// URL',
);
/** An image's path under content/images/; the CMS recognises image fields by this pattern. */
export const IMAGE_PATH = /^[a-z0-9][a-z0-9/_-]*\.(svg|png|jpe?g|webp)$/;
const imagePath = describe(
  z.string().regex(IMAGE_PATH),
  'An image file under content/images/, e.g. cities/san-jose.svg',
);
const iconName = describe(
  z.enum([
    'star', 'shield', 'leaf', 'award', 'smile', 'calendar', 'phone', 'mail', 'map-pin', 'clock', 'home',
    'sparkles', 'building', 'hammer', 'truck', 'key', 'briefcase', 'store', 'stethoscope', 'users',
    'check', 'heart', 'wind', 'cpu', 'landmark', 'waves', 'trees', 'ruler', 'search', 'trash', 'spray',
  ]),
  'Name of an icon from the site icon set',
);

const link = z.strictObject({ label: text, href });
const seo = z.strictObject({
  title: describe(text.max(70), 'Browser title, at most 70 characters'),
  description: describe(text.min(50).max(170), 'Meta description, 50 to 170 characters'),
});
/** The texts of a list's numbered pages; `more` names the placeholders of its titles and descriptions besides {page}, {pages} and {brand}. */
const paginationTexts = (more: string) => z.strictObject({
  label: describe(text, 'Accessible name of the links between the pages'),
  previous: text,
  next: text,
  page: describe(text, 'Accessible name of a page number link; {page} is filled in'),
  status: describe(text, 'Shown above the cards, e.g. Page {page} of {pages}'),
  seoTitle: describe(text, `Browser title of the pages after the first; {page}, {pages}, {brand} and ${more} are filled in`),
  seoDescription: describe(text, `Meta description of the pages after the first; {page}, {pages}, {brand} and ${more} are filled in`),
});

const faqItem = z.strictObject({ question: text, answer: text });
const stat = z.strictObject({ value: text, label: text });
const paragraphs = z.array(text).min(1);

/* Texts the islands receive as props (browser code imports their types). */

const contactTextsSchema = z.strictObject({
  fields: z.strictObject({
    firstName: text, lastName: text, email: text, phone: text, message: text, honeypot: text,
  }),
  messagePlaceholder: text,
  submit: text,
  submitting: text,
  errors: z.strictObject({ firstName: text, lastName: text, email: text, phone: text, message: text }),
  success: z.strictObject({ title: text, description: text }),
  failure: describe(z.strictObject({ title: text, description: text }), '{phone} is filled in'),
});

const discountTextsSchema = z.strictObject({
  title: text,
  text,
  fields: z.strictObject({ email: text, phone: text }),
  submit: text,
  submitting: text,
  close: text,
  consent: text,
  errors: z.strictObject({ email: text, phone: text }),
  success: z.strictObject({ title: text, description: text }),
  failure: z.strictObject({ title: text, description: text }),
  notification: z.strictObject({ firstName: text, lastName: text, message: text }),
  delayMs: z.int().min(0),
  scrollPauseMs: z.int().min(0),
  sessionFlag: text,
});

export const formsSchema = z.strictObject({ contact: contactTextsSchema, discount: discountTextsSchema });

const checklistValue = describe(z.union([z.boolean(), z.literal('N/A')]), 'true, false or "N/A"');

const checklistColumnsSchema = z.strictObject({ task: text, routine: text, deep: text, moveInOut: text });

const checklistRoomsSchema = z.array(z.strictObject({
  id: z.string().regex(/^[a-z-]+$/),
  label: describe(text, 'Short tab label, e.g. Bath'),
  name: describe(text, 'Full room name, e.g. Bathrooms'),
  tasks: z.array(z.strictObject({
    task: text,
    routine: z.boolean(),
    deep: z.boolean(),
    moveInOut: checklistValue,
  })).min(1),
})).min(1);

export const siteSchema = z.strictObject({
  brand: z.strictObject({
    name: text,
    tagline: text,
    description: describe(text, 'One-sentence description of the business, used in structured data'),
  }),
  siteUrl: describe(z.string().regex(/^https:\/\/[^\s/]+$/), 'Production origin; SITE_URL overrides it'),
  phone: z.strictObject({
    display: describe(text, 'How the phone number is shown, e.g. (408) 555-0142'),
    e164: describe(z.string().regex(/^\+1[0-9]{10}$/), 'The same number for links, e.g. +14085550142'),
  }),
  email: z.email(),
  address: z.strictObject({ locality: text, region: z.literal('CA'), country: z.literal('US') }),
  hours: z.strictObject({
    display: text,
    note: text,
    days: z.array(z.enum(['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'])).min(1),
    opens: z.string().regex(/^[0-2][0-9]:[0-5][0-9]$/),
    closes: z.string().regex(/^[0-2][0-9]:[0-5][0-9]$/),
    // What a valid time zone and valid hours are is said once, by the chat's scheduled run that
    // reads them (supabase/functions/_shared/chat/officeHours.ts); the build checks them with it
    // (generator/model/officeHours.ts).
    timeZone: describe(text, 'The business\'s time zone (IANA name, e.g. America/Los_Angeles): the office hours and the lead reminders count in it'),
    reminderAfterMinutes: describe(
      z.int().default(15),
      'Minutes of opening hours after which a lead nobody has taken gets a reminder in the office chat (default 15)',
    ),
  }),
  serviceArea: z.strictObject({ title: text, radius: text }),
  claims: z.array(z.strictObject({ icon: iconName, title: text, text })).min(1),
  stats: z.strictObject({
    home: describe(z.array(stat).min(1), 'Stat tiles on the home page'),
    locations: describe(z.array(stat).min(1), 'Stat cards on /locations'),
  }),
  booking: z.strictObject({
    bookingUrl: describe(z.url({ protocol: /^https?$/ }), 'Booking page shown in the /book-online iframe'),
    loginPortalUrl: describe(z.url({ protocol: /^https?$/ }), 'Customer portal shown in the /customer-login iframe'),
  }),
  reviews: z.strictObject({
    scriptUrl: describe(z.url({ protocol: /^https?$/ }), 'Script of the third-party reviews widget'),
    widgetId: text,
    heading: text,
    loading: text,
    fallback: describe(text, 'Shown when the widget cannot load'),
    linkLabel: text,
    linkUrl: z.url({ protocol: /^https?$/ }),
  }),
  servedCities: describe(
    z.array(text).min(1).max(CITIES_PER_PAGE),
    "Cities listed first on service pages and in the business's structured data; for more, add files to content/cities/ (each gets a card on /locations and follows these on service pages)",
  ),
  navigation: z.strictObject({
    skipLink: text,
    homeLabel: text,
    menuLabel: text,
    closeLabel: text,
    primary: z.array(link).min(1),
    bookOnline: link,
    callLabel: text,
    mainNavLabel: describe(text, 'Accessible name of the header navigation'),
    drawerNavLabel: describe(text, 'Accessible name of the navigation in the small-screen drawer'),
    breadcrumbLabel: describe(text, 'Accessible name of the breadcrumb trail'),
  }),
  footer: z.strictObject({
    about: text,
    quickLinksHeading: text,
    quickLinks: z.array(link).min(1),
    servicesHeading: text,
    contactHeading: text,
    copyright: describe(text, 'Copyright line; {year} and {brand} are filled in'),
    legal: z.array(link).min(1),
  }),
  notFound: z.strictObject({
    seo,
    code: text,
    heading: text,
    link,
  }),
  language: describe(z.strictObject({
    name: describe(text, "This language's name in itself (English, Español): the header's link to this language on the other language's pages"),
    switchLabel: describe(text, 'Accessible name of the language switch in the header'),
    onlyInEnglish: describe(text, 'Marks a link from a page in this language to a page that exists in English only, e.g. (en inglés)'),
  }).optional(), 'The language switch: needed once the site has a translation (content/es/)'),
  labels: z.strictObject({
    getFreeQuote: text,
    bookOnline: text,
    bookNow: text,
    learnMore: text,
    included: text,
    notIncluded: text,
    notApplicable: text,
    breadcrumbHome: text,
    lastUpdated: describe(text, 'Shown before the date on legal pages, e.g. Last updated'),
  }),
});

const serviceSection = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('schedules'),
    heading: text,
    intro: text.optional(),
    plans: z.array(z.strictObject({
      name: text,
      description: text,
      badge: text.optional(),
      features: z.array(text).min(1),
      button: link,
    })).min(1),
  }),
  z.strictObject({
    kind: z.literal('moveCards'),
    heading: text,
    intro: text.optional(),
    cards: z.array(z.strictObject({
      icon: iconName,
      title: text,
      description: text,
      benefits: z.array(text).min(1),
      button: link,
    })).min(1),
  }),
  z.strictObject({
    kind: z.literal('projectTypes'),
    heading: text,
    intro: text.optional(),
    types: z.array(z.strictObject({
      type: text,
      description: text,
      features: z.array(text).min(1),
    })).min(1),
  }),
  z.strictObject({
    kind: z.literal('process'),
    heading: text,
    intro: text.optional(),
    steps: z.array(z.strictObject({ title: text, description: text })).min(1),
  }),
  z.strictObject({
    kind: z.literal('businessTypes'),
    heading: text,
    intro: text.optional(),
    types: z.array(z.strictObject({ type: text, icon: iconName, services: z.array(text).min(1) })).min(1),
  }),
  z.strictObject({
    kind: z.literal('frequencies'),
    heading: text,
    intro: text.optional(),
    items: z.array(z.strictObject({ name: text, description: text })).min(1),
  }),
  z.strictObject({
    kind: z.literal('benefits'),
    heading: text,
    intro: text.optional(),
    items: z.array(z.strictObject({ icon: iconName, title: text, description: text })).min(1),
  }),
]);

export const serviceSchema = z.strictObject({
  slug: describe(z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/).optional(), "A translation's own path under its language's folder (lowercase words joined by hyphens); an English service's path is its file name"),
  name: describe(text, 'Service name, e.g. Deep Cleaning'),
  order: describe(z.int().min(0), 'Position among the services (smallest first)'),
  icon: iconName,
  seo,
  hero: z.strictObject({ heading: text, subheading: text, image: imagePath }),
  summary: describe(text, 'Short description used on cards and in structured data'),
  included: describe(z.array(text).min(3), "The What's Included list on /services"),
  intro: z.strictObject({ heading: text, paragraphs }),
  whyChoose: z.strictObject({ heading: text, items: z.array(text).min(3) }),
  sections: describe(z.array(serviceSection), 'Sections only this service page has'),
  faq: z.strictObject({ heading: text, items: z.array(faqItem).min(2) }),
  cta: z.strictObject({ heading: text, text, button: link }),
  serviceAreasHeading: text,
  relatedHeading: text,
});

const cityPageSchema = z.strictObject({
  seoDescription: describe(text.min(50).max(170), 'Meta description of the city page'),
  tagline: text,
  heroImage: imagePath.optional(),
  intro: describe(z.array(text).length(2), 'Exactly two intro paragraphs'),
  benefits: describe(z.array(text).length(6), 'Exactly six selling points'),
  faqs: describe(z.array(faqItem).min(3).max(4), 'Three or four questions and answers'),
});

export const citySchema = z.strictObject({
  name: describe(text, 'City name as visitors write it, e.g. Mountain View'),
  population: describe(text, 'Approximate population as shown, e.g. ~82,000'),
  description: describe(text.max(160), 'One line shown on the city card'),
  order: describe(z.int().min(0).optional(), 'Optional position on /locations (smallest first); otherwise by name'),
  page: describe(cityPageSchema.optional(), 'Content of the city page; without it the card links to /book-online'),
});

export const checklistSchema = z.strictObject({
  seo,
  heading: text,
  intro: text,
  columns: checklistColumnsSchema,
  rooms: checklistRoomsSchema,
  getStarted: z.strictObject({ heading: text, text, bookLabel: text, callLabel: text }),
});

export const homeSchema = z.strictObject({
  seo,
  hero: z.strictObject({ eyebrow: text, heading: text, subheading: text, image: imagePath, callLabel: text }),
  claimsHeading: text,
  statsHeading: text,
  services: z.strictObject({ heading: text, intro: text }),
  about: z.strictObject({ heading: text, paragraphs, points: z.array(text).min(1), image: imagePath }),
  faq: z.strictObject({ heading: text, items: z.array(faqItem).min(3) }),
});

export const servicesIndexSchema = z.strictObject({
  seo,
  heading: text,
  intro: text,
  services: describe(z.array(z.string().regex(/^[a-z0-9-]+$/)).min(1), 'Slugs of the services shown as cards, in order'),
  includedHeading: describe(text, "Heading of each card's list, e.g. What's Included"),
  cta: z.strictObject({ heading: text, text, button: link }),
});

export const locationsSchema = z.strictObject({
  seo,
  heading: text,
  intro: text,
  gridHeading: text,
  exploreLabel: text,
  populationLabel: text,
  dontSee: z.strictObject({ heading: text, text, contactLabel: text, callLabel: text }),
  pagination: describe(
    paginationTexts('{first} and {last} (city names)'),
    `Texts of the numbered pages /locations/page/2 and on, made when there are more than ${CITIES_PER_PAGE} cities`,
  ),
  moreCities: describe(text, `Link from a service page to /locations, shown after the first ${CITIES_PER_PAGE} served cities when there are more`),
  cityPage: describe(
    z.strictObject({
      seoTitle: text,
      heroHeading: text,
      bookNow: text,
      scheduleButton: text,
      benefitsHeading: text,
      faqHeading: text,
      ctaHeading: text,
      ctaText: text,
      ctaButton: text,
      relatedHeading: text,
      related: z.array(z.strictObject({ service: z.string().regex(/^[a-z0-9-]+$/), text })).length(4),
      defaultHeroImage: imagePath,
    }),
    'Texts shared by every city page; {city} and {brand} are filled in',
  ),
});

export const contactSchema = z.strictObject({
  seo,
  heading: text,
  intro: text,
  formTitle: text,
  formIntro: text,
  cardsLabel: describe(text, 'Accessible name of the list of contact cards'),
  cards: z.array(z.strictObject({
    kind: z.enum(['phone', 'email', 'area', 'hours']),
    title: text,
    note: describe(text.optional(), 'Small print under the value; area and hours cards default to site.yaml (radius, hours note)'),
  })).min(1),
});

export const embedPageSchema = z.strictObject({
  seo,
  heading: text,
  paragraphs: z.array(text),
  points: z.array(text),
  frameTitle: text,
});

export const legalFrontMatterSchema = z.strictObject({
  title: text,
  description: text.min(50).max(170),
  lastUpdated: describe(text.regex(/^(January|February|March|April|May|June|July|August|September|October|November|December) [1-9][0-9]?, [0-9]{4}$/), 'As shown, e.g. February 6, 2025'),
});

const dateTime = describe(
  z.string().trim().regex(LOCAL_DATE_TIME),
  'A date (2026-11-20) or a date and time (2026-11-20T18:30); without an offset it is the business\'s time zone',
);

/** An article's front matter: content/articles/<slug>.md; the Markdown below it is the article. */
export const articleFrontMatterSchema = z.strictObject({
  title: describe(text.max(110), 'The headline, at most 110 characters'),
  description: describe(text.min(50).max(170), 'Meta description and the summary on cards and in feeds, 50 to 170 characters'),
  date: describe(dateTime, 'When it goes live: before this moment it is in no output (a date alone is the start of that day in the business\'s time zone)'),
  updated: describe(dateTime.optional(), 'When it was last changed in substance: shown, and the sitemap\'s lastmod'),
  tags: describe(z.array(describe(text.max(40).regex(/[\p{L}\p{N}]/u), 'A tag, e.g. move out')).min(1).max(8), 'One to eight tags: each has a page of its articles'),
  author: describe(text.max(80), 'Who wrote it, as shown'),
  image: describe(z.strictObject({ src: imagePath, alt: describe(text.max(200), 'What the picture shows, for readers who cannot see it') }).optional(), 'The picture at the top of the article, on its card and in shared links'),
  draft: describe(z.boolean().default(false), 'A draft is in no output of a build; npm run dev shows it, marked'),
});

/** content/articles.yaml: the texts of /articles, its tag pages, its feeds and of every article page. */
export const articlesIndexSchema = z.strictObject({
  seo,
  heading: text,
  intro: text,
  perPage: describe(z.number().int().min(1).max(50), 'Articles on each page of /articles and of a tag'),
  emptyText: describe(text, 'Shown on /articles while no article is published'),
  pagination: describe(paginationTexts('{heading}'), 'Texts of the numbered pages /articles/page/2 and on, and of a tag\'s'),
  tagPage: z.strictObject({
    heading: describe(text, 'Heading of a tag\'s page; {tag} is filled in'),
    intro: describe(text, '{tag} and {count} are filled in'),
    seoTitle: describe(text.max(70), '{tag} and {brand} are filled in'),
    seoDescription: describe(text.min(50).max(170), '{tag} and {brand} are filled in'),
    allTags: describe(text, 'Heading of the list of every tag on /articles'),
  }),
  article: z.strictObject({
    published: describe(text, 'Before the date an article went live, e.g. Published'),
    updated: describe(text, 'Before the date it was last updated, e.g. Updated'),
    by: describe(text, 'Before the author\'s name, e.g. By'),
    readingTime: describe(text, '{minutes} is filled in, e.g. {minutes} min read'),
    tags: describe(text, 'Accessible name of an article\'s tags'),
    toc: describe(text, 'Heading of the table of contents'),
    tocMinHeadings: describe(z.number().int().min(2).max(20), 'An article with at least this many section headings gets a table of contents'),
    related: describe(text, 'Heading of the related articles'),
    relatedCount: z.number().int().min(0).max(6),
    draft: describe(text, 'npm run dev only: the mark on a draft'),
    scheduled: describe(text, 'npm run dev only: the mark on an article dated later; {date} is filled in'),
  }),
  cta: z.strictObject({ heading: text, text, quote: link, book: link }),
  feed: z.strictObject({
    title: text,
    description: text,
    items: describe(z.number().int().min(1).max(100), 'The newest articles a feed carries, each in full'),
    label: describe(text, 'The link to the feed on /articles'),
  }),
  externalLinkRel: describe(z.string().regex(/^[a-z]+( [a-z]+)*$/), 'The rel of every link from an article to another site, e.g. noopener noreferrer'),
  authors: describe(
    z.array(z.strictObject({ name: text, url: href })).default([]),
    'Authors with a page about them (their url goes into search engines\' data); others link to the home page',
  ),
});

export type Site = z.infer<typeof siteSchema>;
export type Service = z.infer<typeof serviceSchema>;
export type ServiceSection = z.infer<typeof serviceSection>;
type CityFile = z.infer<typeof citySchema>;
export type CityPageContent = z.infer<typeof cityPageSchema>;
export type Checklist = z.infer<typeof checklistSchema>;
export type Home = z.infer<typeof homeSchema>;
export type ServicesIndex = z.infer<typeof servicesIndexSchema>;
export type Locations = z.infer<typeof locationsSchema>;
export type Contact = z.infer<typeof contactSchema>;
export type EmbedPage = z.infer<typeof embedPageSchema>;
type LegalFrontMatter = z.infer<typeof legalFrontMatterSchema>;
export type FaqItem = z.infer<typeof faqItem>;
export type Link = z.infer<typeof link>;
export type Stat = z.infer<typeof stat>;
export type IconName = z.infer<typeof iconName>;
export type ContactTexts = z.infer<typeof contactTextsSchema>;
export type DiscountTexts = z.infer<typeof discountTextsSchema>;
type Forms = z.infer<typeof formsSchema>;
export type ChecklistValue = z.infer<typeof checklistValue>;
export type ChecklistColumns = z.infer<typeof checklistColumnsSchema>;
export type ChecklistRoom = z.infer<typeof checklistRoomsSchema>[number];

/** The typed content model every page is planned from: validated content plus what derives from it. */
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

type ArticleFrontMatter = z.infer<typeof articleFrontMatterSchema>;
export type ArticlesIndex = z.infer<typeof articlesIndexSchema>;

/** A tag as shown and as its address writes it. */
export interface Tag { name: string; slug: string }

/**
 * What every other page knows of an article: no body. `lang` is the language of the entry, a
 * property every collection takes on (notes/decisions.md, "Articles"); English is the only one yet.
 */
export interface ArticleCard extends Omit<ArticleFrontMatter, 'tags' | 'date' | 'updated'> {
  slug: string;
  route: string;
  lang: Lang;
  tags: Tag[];
  /** When it goes live and was last updated: ISO 8601 with the business's offset. */
  date: string;
  updated?: string;
  /** `date` as milliseconds since the epoch, to compare with the build's "now". */
  time: number;
  /** Reading time in minutes, from the body's words. */
  minutes: number;
}

export interface ArticleEntry extends ArticleCard {
  /** The Markdown body, and the line of the file it starts on. */
  body: string;
  bodyLine: number;
}

export interface SiteModel {
  /** The language of every text in it: the site has one model per language (content/ and content/es/). */
  lang: Lang;
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
  articlesIndex: ArticlesIndex;
  /** In a build, the published articles' cards (newest first); under npm run dev, every article, drafts too. */
  articles: ArticleCard[];
}
