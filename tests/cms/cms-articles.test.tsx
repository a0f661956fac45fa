/**
 * Articles in the content manager:
 * - the Articles folder collection (content/articles/<slug>.md, created from the title) has every
 *   front matter field of the model in order, with the widgets the files need: tags as a list of
 *   texts, the picture stored under content/images/ as the model names it, the date on the
 *   business's clock, a draft switch off by default, and the body with the Markdown the build
 *   allows; articles.yaml is a single file among the pages;
 * - the tag rule reaches Decap, which compiles patterns without the u flag;
 * - the Markdown format reads and writes every committed Markdown file unchanged, leaves out what
 *   the form left empty, and keeps dates the texts they are;
 * - the check before saving refuses what the build refuses in an article;
 * - the preview draws the entry with the real ArticlePage, as the planner would plan it.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { load as parseYaml } from 'js-yaml';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ArticlesIndex } from '../../contracts/content.js';
import { articleFrontMatterSchema } from '../../contracts/content.js';
import type { ImageRef } from '../../contracts/pages.js';
import { LOCAL_DATE_TIME } from '../../contracts/zonedTime.js';
import { entryFile, entryProblems } from '../../cms/app/check.js';
import { cmsFrontmatterFormat } from '../../cms/app/format.js';
import { articleBodyOf, type ArticleBody, type ArticlePreviewContext } from '../../cms/app/preview.js';
import { ZONED_DATE_TIME_WIDGET } from '../../cms/app/zonedDate.js';
import { cmsCollections, cmsConfig, type CmsCollection, type CmsField } from '../../cms/config.js';
import { ArticlePage } from '../../templates/pages/ArticlePage.js';
import { ROOT } from '../helpers/content.js';

const collection = (name: string) => cmsCollections().find((c) => c.name === name)!;
const fieldsOf = (c: CmsCollection) => c.fields as CmsField[];
const field = (c: CmsCollection, name: string) => fieldsOf(c).find((f) => f.name === name)!;

describe('the Articles collection', () => {
  const articles = collection('articles');

  it('is the folder content/articles of Markdown files, created from the title, with a live preview', () => {
    expect(articles).toMatchObject({
      label: 'Articles', label_singular: 'Article', folder: 'content/articles', extension: 'md', format: 'frontmatter',
      create: true, delete: true, identifier_field: 'title', slug: '{{slug}}', editor: { preview: true },
    });
    expect(articles.sortable_fields).toEqual([{ field: 'date', default_sort: 'desc' }, 'title']);
    expect(articles.summary).toBe("{{title}}{{draft | ternary(' (draft)', '')}}");
    // What Decap makes the path from: the file the check before saving names.
    expect(entryFile(cmsConfig(), 'articles', 'how-often-to-deep-clean')).toEqual({ file: 'content/articles/how-often-to-deep-clean.md', kind: 'article' });
  });

  it('has every front matter field in the model\'s order, then the body', () => {
    expect(fieldsOf(articles).map((f) => f.name)).toEqual([...Object.keys(articleFrontMatterSchema.shape), 'body']);
  });

  it('edits tags as a list of texts, one to eight', () => {
    const tags = field(articles, 'tags');
    expect(tags).toMatchObject({ widget: 'list', min: 1, max: 8, field: { name: 'tag', widget: 'string' } });
    expect(tags.fields).toBeUndefined();
  });

  it('stores the picture as the model names it, a path under content/images/ (articles/x.jpg), with its alt text', () => {
    const image = field(articles, 'image');
    expect(image).toMatchObject({ widget: 'object', required: false });
    const [src, alt] = image.fields as [CmsField, CmsField];
    expect(src).toMatchObject({ name: 'src', label: 'File', widget: 'image', media_folder: '/content/images/articles', public_folder: 'articles', choose_url: false });
    expect(alt).toMatchObject({ name: 'alt', label: 'Alt text', widget: 'string' });
    // The global media folder is content/images, its public folder nothing: what Decap writes is the path under content/images/.
    expect(cmsConfig()).toMatchObject({ media_folder: 'content/images', public_folder: '' });
    expect(`${src.public_folder}/kitchen.jpg`).toMatch(new RegExp((src.pattern as string[])[0]!));
  });

  it('takes the dates with the date widget of the business\'s clock, the update optional', () => {
    expect(field(articles, 'date')).toMatchObject({ widget: ZONED_DATE_TIME_WIDGET, pattern: [LOCAL_DATE_TIME.source, expect.any(String)] });
    expect(field(articles, 'date').required).toBeUndefined();
    expect(field(articles, 'updated')).toMatchObject({ widget: ZONED_DATE_TIME_WIDGET, required: false });
  });

  it('has a draft switch, off unless ticked', () => {
    expect(field(articles, 'draft')).toMatchObject({ widget: 'boolean', default: false, required: false });
  });

  it('edits the body with the Markdown the build allows: headings 2 to 4, bold, italic, links, lists, quotes, pictures; no code, no raw mode', () => {
    const body = field(articles, 'body');
    expect(body).toMatchObject({
      widget: 'markdown',
      buttons: ['bold', 'italic', 'link', 'heading-two', 'heading-three', 'heading-four', 'quote', 'bulleted-list', 'numbered-list'],
      editor_components: ['image'], modes: ['rich_text'],
      // The body names a picture as /images/<path under content/images/> (contracts/articleMarkdown.ts).
      media_folder: '/content/images/articles', public_folder: '/images/articles',
    });
  });

  it('leaves the legal pages\' body as it was', () => {
    expect(field(collection('legal'), 'body')).toEqual({ name: 'body', label: 'Text', widget: 'markdown', hint: 'The page text. Headings start at level 2 (##).' });
  });

  it('has articles.yaml as a single file among the pages', () => {
    const files = collection('pages').files as { name: string; file: string; fields: CmsField[] }[];
    const index = files.find((f) => f.name === 'articlesIndex')!;
    expect(index.file).toBe('content/articles.yaml');
    expect(index.fields[0]!.comment).toBe('yaml-language-server: $schema=./schemas/articles-index.schema.json');
  });
});

describe('the tag rule, as Decap compiles it (no u flag)', () => {
  const pattern = () => ((field(collection('articles'), 'tags').field as CmsField).pattern as [string, string]);

  it('asks for a letter or a digit in words, and accepts accented and non-Latin tags', () => {
    const [re, says] = pattern();
    expect(says).toBe('must hold a letter or a digit; must not be blank; at most 40 characters');
    // Decap: RegExp(pattern) with no flags.
    const decap = new RegExp(re);
    for (const ok of ['move out', 'Écologique', 'pets', '2026', 'déménagement', '清洁', 'move-out']) expect(decap.test(ok), ok).toBe(true);
    for (const no of ['', ' ', '---', '!?', '#', 'x'.repeat(41)]) expect(decap.test(no), no).toBe(false);
  });

  it('no pattern of the configuration needs the u flag', () => {
    const patterns = JSON.stringify(cmsConfig()).match(/"pattern":\["((?:[^"\\]|\\.)*)"/g) ?? [];
    expect(patterns.length).toBeGreaterThan(50);
    for (const p of patterns) {
      const re = JSON.parse(p.slice('"pattern":['.length)) as string;
      expect(re, re).not.toMatch(/\\[pP]\{/);
      expect(() => new RegExp(re), re).not.toThrow();
    }
  });
});

describe('the Markdown format of the CMS', () => {
  const format = cmsFrontmatterFormat();
  const order = [...Object.keys(articleFrontMatterSchema.shape), 'body'];

  it('reads and saves every committed Markdown file back byte for byte (articles and legal pages)', async () => {
    const files: string[] = [];
    for (const dir of ['articles', 'legal']) {
      for (const name of await readdir(path.join(ROOT, 'content', dir)).catch(() => [])) if (name.endsWith('.md')) files.push(`content/${dir}/${name}`);
    }
    expect(files.some((f) => f.startsWith('content/legal/'))).toBe(true);
    for (const file of files) {
      const text = await readFile(path.join(ROOT, file), 'utf8');
      const data = format.fromFile(text);
      expect(typeof data.body, file).toBe('string');
      expect(format.toFile(data, Object.keys(data)), file).toBe(text);
    }
  });

  it('keeps a date the text it is (Decap\'s own parser makes a Date of a …Z value and writes it back in UTC)', () => {
    const data = format.fromFile('---\ntitle: x\ndate: 2026-11-20T17:30:00.000Z\nupdated: 2026-11-21\n---\n\nText.\n');
    expect(data).toEqual({ title: 'x', date: '2026-11-20T17:30:00.000Z', updated: '2026-11-21', body: 'Text.\n' });
  });

  it('leaves out what the form left empty, keeps the order of the fields, and puts the body after one blank line', () => {
    const saved = format.toFile({
      body: '## First\n\nText.\n\n\n', draft: false, image: { src: '', alt: '' }, updated: '', tags: ['planning'], date: '2026-11-20T09:30', title: 'A title',
    }, order);
    expect(saved).toBe('---\ntitle: A title\ndate: 2026-11-20T09:30\ntags:\n  - planning\ndraft: false\n---\n\n## First\n\nText.\n');
    expect(format.fromFile(saved)).toEqual({ title: 'A title', date: '2026-11-20T09:30', tags: ['planning'], draft: false, body: '## First\n\nText.\n' });
  });

  it('reads a file without front matter, or without a body', () => {
    expect(format.fromFile('Just text.\n')).toEqual({ body: 'Just text.\n' });
    expect(format.fromFile('---\ntitle: a\n---\n')).toEqual({ title: 'a' });
    expect(format.toFile({ title: 'a' }, ['title'])).toBe('---\ntitle: a\n---\n');
  });
});

const VALID = {
  title: 'How Often Should You Deep Clean Your Home?',
  description: 'Two to four deep cleans a year suit most Bay Area homes. Here is how to pick the right number for yours, and what changes it.',
  date: '2026-11-20T09:30', tags: ['deep cleaning', 'planning'], author: 'The Bay Shine Cleaning team', draft: false,
  body: '## The short answer\n\nTwo to four times a year.\n',
};
const ARTICLE = { file: 'content/articles/how-often.md', kind: 'article' as const };

describe('the check before an article is saved', () => {
  it('passes a valid article, its body not taken for a front matter field, a …Z date and a form left with empty optional values', () => {
    expect(entryProblems(ARTICLE, VALID)).toEqual([]);
    expect(entryProblems(ARTICLE, { ...VALID, date: '2026-11-20T17:30:00.000Z', updated: '', image: { src: '', alt: '' } })).toEqual([]);
  });

  it('refuses what the build refuses: a missing tag, an update before the date, raw HTML and a javascript: link in the body', () => {
    expect(entryProblems(ARTICLE, { ...VALID, tags: [] })).toEqual([expect.stringMatching(/^tags: /)]);
    expect(entryProblems(ARTICLE, { ...VALID, updated: '2026-11-19T09:30' })).toEqual([
      'updated: updated is before the date the article went live (an update comes after the first publication: correct one of the two dates)',
    ]);
    const problems = entryProblems(ARTICLE, { ...VALID, body: '## A\n\nText <b>bold</b>.\n\n[click](javascript:alert(1))\n' });
    expect(problems).toEqual([
      expect.stringMatching(/^body, line 3: raw HTML is not allowed in an article/),
      expect.stringMatching(/^body, line 5: link to a javascript: address/),
    ]);
  });
});

describe('the article preview', () => {
  const LA = 'America/Los_Angeles';
  const index = async () => parseYaml(await readFile(path.join(ROOT, 'content/articles.yaml'), 'utf8')) as ArticlesIndex;
  /** An article page as the planner plans it (generator/collections/articles.ts), for a stand-in article. */
  const planned = (texts: ArticlesIndex): ArticleBody => ({
    kind: 'article', title: 'Stand-in',
    published: { label: texts.article.published, iso: '2026-01-01T00:00:00-08:00', text: 'January 1, 2026' },
    readingTime: '1 min read', author: { label: texts.article.by, name: 'Someone' }, tags: { label: texts.article.tags, items: [] }, html: '<p>Stand-in</p>',
    related: { heading: texts.article.related, cards: [] }, cta: texts.cta,
    breadcrumbs: [{ name: 'Home', href: '/' }, { name: texts.heading, href: '/articles' }, { name: 'Stand-in', href: '/articles/stand-in' }],
    breadcrumbLabel: 'Breadcrumb',
  });
  const context = async (): Promise<ArticlePreviewContext> => {
    const texts = await index();
    return { route: '/articles/stand-in', body: planned(texts), texts: texts.article, externalRel: texts.externalLinkRel, origin: 'https://www.bayshinecleaning.com', timeZone: LA };
  };
  const images: Record<string, ImageRef> = { 'articles/kitchen.jpg': { src: '/assets/kitchen-1.webp', width: 1600, height: 900 } };
  const image = (p: string) => images[p];
  const NOW = Date.parse('2026-11-25T12:00:00Z');

  it('draws what is typed with the real ArticlePage: title, dates on the business\'s clock, reading time, author, tags, picture, body, contents', async () => {
    const ctx = await context();
    const body = '## One\n\nText.\n\n## Two\n\n![A tidy kitchen](/images/articles/kitchen.jpg)\n\n## Three\n\n### Three and a half\n\n## Four\n\n[Out](https://example.com/x) <b>not bold</b>\n';
    const planned = articleBodyOf(ctx, {
      slug: 'how-often', data: { ...VALID, date: '2026-11-21T02:30:00.000Z', updated: '2026-11-22T10:00', tags: ['Deep cleaning', 'deep-cleaning', 'Écologique'], image: { src: 'articles/kitchen.jpg', alt: 'A kitchen' }, body },
    }, image, NOW);
    expect(planned.published).toEqual({ label: 'Published', iso: '2026-11-20T18:30:00-08:00', text: 'November 20, 2026' });
    expect(planned.updated).toEqual({ label: 'Updated', iso: '2026-11-22T10:00:00-08:00', text: 'November 22, 2026' });
    expect(planned.tags.items).toEqual([{ name: 'Deep cleaning', href: '/articles/tags/deep-cleaning' }, { name: 'Écologique', href: '/articles/tags/ecologique' }]);
    expect(planned.toc?.items.map((i) => i.id)).toEqual(['one', 'two', 'three', 'three-and-a-half', 'four']);
    expect(planned.image).toEqual({ src: '/assets/kitchen-1.webp', width: 1600, height: 900, alt: 'A kitchen' });
    expect(planned.breadcrumbs.at(-1)).toEqual({ name: VALID.title, href: '/articles/how-often' });
    expect(planned.mark).toBeUndefined();
    const html = renderToStaticMarkup(<ArticlePage {...planned} />);
    expect(html).toContain(`<h1 class="mt-6 text-4xl font-extrabold tracking-tight text-balance sm:text-5xl">${VALID.title.replace(/'/g, '&#x27;')}</h1>`);
    expect(html).toContain('<time dateTime="2026-11-20T18:30:00-08:00">November 20, 2026</time>');
    expect(html).toContain('1 min read');
    expect(html).toContain('src="/assets/kitchen-1.webp"');
    expect(html).toContain('&lt;b&gt;not bold&lt;/b&gt;');
    expect(html).toContain('rel="noopener noreferrer"');
    expect(html).toContain(ctx.body.cta.heading);
  });

  it('marks a draft and an article dated later, as npm run dev does', async () => {
    const ctx = await context();
    expect(articleBodyOf(ctx, { slug: '', data: { ...VALID, draft: true } }, image, NOW).mark).toBe('Draft');
    const later = articleBodyOf(ctx, { slug: '', data: { ...VALID, date: '2026-12-24T09:00' } }, image, NOW);
    expect(later.mark).toBe('Scheduled for December 24, 2026');
    // A new entry, no slug yet: the stand-in's address in the breadcrumbs.
    expect(later.breadcrumbs.at(-1)!.href).toBe('/articles/stand-in');
  });

  it('draws an entry with nothing typed yet without failing', async () => {
    const planned = articleBodyOf(await context(), { slug: '', data: {} }, image, NOW);
    expect(() => renderToStaticMarkup(<ArticlePage {...planned} />)).not.toThrow();
    expect(planned.toc).toBeUndefined();
  });
});
