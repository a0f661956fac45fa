/** A collection's feed as the plan stage hands it to the write stage (generator/write/feeds.ts writes RSS, Atom and JSON Feed). */
export interface FeedItem {
  /** Root-relative route of the entry's page, e.g. /articles/how-long-does-a-deep-cleaning-take. */
  route: string;
  title: string;
  /** The summary (the front matter's description). */
  summary: string;
  /** The full body as HTML, with root-relative links and picture URLs (href, src, srcset). */
  html: string;
  /** ISO 8601 with the offset, e.g. 2026-11-20T18:30:00-08:00. */
  published: string;
  updated?: string;
  author: { name: string; url: string };
  tags: string[];
  /** Root-relative URL of its picture, with its media type. */
  image?: { src: string; type: string };
}

export interface FeedInput {
  /** https://… without a trailing slash. */
  origin: string;
  title: string;
  description: string;
  /** Root-relative route of the list the feed follows (/articles). */
  home: string;
  language: string;
  copyright: string;
  /** Newest first, already cut to the feed's length. */
  items: FeedItem[];
}
