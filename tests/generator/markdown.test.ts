/**
 * An article's body, written by office staff in the CMS, as its page shows it
 * (contracts/articleMarkdown.ts): nothing in it runs in a reader's browser or sends them to a
 * script, what the page could not show is a problem the build stops on at its line, and the HTML
 * is valid.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import markdownIt from 'markdown-it';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ImageRef } from '../../contracts/pages.js';
import { markdownProblems, renderArticleMarkdown, withFasterRules, wordCount, type MarkdownOptions } from '../../contracts/articleMarkdown.js';
import { htmlProblems } from '../../tools/builtSite.js';
import { ROOT, tempDir } from '../helpers/content.js';

const PHOTO: ImageRef = {
  src: '/assets/img/photo-1-800.webp',
  avifSrcSet: '/assets/img/photo-1-400.avif 400w, /assets/img/photo-1-800.avif 800w',
  webpSrcSet: '/assets/img/photo-1-400.webp 400w, /assets/img/photo-1-800.webp 800w',
  width: 800,
  height: 533,
};
const IMAGES: Record<string, ImageRef> = { 'articles/photo-1.jpg': PHOTO };

/** Options as the build gives them, with the paths the render asked pictures for. */
function options(): MarkdownOptions & { asked: string[] } {
  const asked: string[] = [];
  return {
    origin: 'https://example.com',
    externalRel: 'noopener noreferrer',
    image: (p) => (asked.push(p), IMAGES[p]),
    asked,
  };
}
const render = (body: string) => renderArticleMarkdown(body, options());
const html = (body: string) => render(body).html;
const problems = (body: string) => markdownProblems(body, (p) => p in IMAGES);
const at = (body: string) => problems(body).map((p) => `${p.line}:${p.column ?? '-'} ${p.message}`);

/** Every tag of the output with its attributes, as a browser would read them. */
function tags(out: string): { name: string; attrs: Record<string, string> }[] {
  return [...out.matchAll(/<([a-z][a-z\d-]*)((?:\s+[^\s=>]+(?:="[^"]*")?)*)\s*\/?>/gi)].map((m) => ({
    name: m[1]!.toLowerCase(),
    attrs: Object.fromEntries([...m[2]!.matchAll(/\s+([^\s=>]+)(?:="([^"]*)")?/g)].map((a) => [a[1]!.toLowerCase(), a[2] ?? ''])),
  }));
}
/** What a browser makes of an attribute value: entities decoded, tabs, newlines and edge spaces gone. */
const asBrowserReads = (v: string) =>
  v.replace(/&#x([\da-f]+);?/gi, (_, h: string) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#(\d+);?/g, (_, d: string) => String.fromCodePoint(Number(d)))
    .replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&')
    .replace(/[\t\n\r]/g, '').trim();
const SAFE_URL = /^(?:#|\/(?![/\\])|https?:|mailto:|tel:)/i;

describe('hostile bodies', () => {
  const hostile = [
    '<script>alert(1)</script>',
    'Hi <script>alert(1)</script> there',
    '<img src=x onerror=alert(1)>',
    'a <img src=x onerror="alert(1)"> b',
    '<iframe src="https://evil.example"></iframe>',
    '<a href="javascript:alert(1)">win</a>',
    '<!-- hidden --> text',
    '<svg onload=alert(1)>',
    '<style>body{display:none}</style>',
    '[win](javascript:alert(1))',
    '[win](JaVaScRiPt:alert(1))',
    '[win]( javascript:alert(1))',
    '[win](<  javascript:alert(1)>)',
    '[win](java&#x09;script:alert(1))',
    '[win](&#x6A;avascript:alert(1))',
    '[win](javas&#99;ript:alert(1))',
    '[win](<java\tscript:alert(1)>)',
    '[win](java%0Ascript:alert(1))',
    '[win](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
    '[win](data:image/png;base64,iVBORw0KGgo=)',
    '[win](vbscript:msgbox(1))',
    '[win](file:///etc/passwd)',
    '[win](//evil.example/x)',
    '[win](/\\evil.example)',
    '[win](\\\\evil.example)',
    '<javascript:alert(1)>',
    '<JAVASCRIPT:alert(1)>',
    '<data:text/html,<script>alert(1)</script>>',
    '[win][r]\n\n[r]: javascript:alert(1)',
    '[r]\n\n[r]: <javascript:alert(1)> "title"',
    '*[win](javascript:alert(1))*',
    '**<img src=x onerror=alert(1)>**',
    '_<a href="javascript:alert(1)">x</a>_',
    '***[**win**](javascript:alert(1))***',
    '[![pic](/images/articles/photo-1.jpg)](javascript:alert(1))',
    '![pic](javascript:alert(1))',
    '![pic](data:image/svg+xml,<svg onload=alert(1)>)',
  ];
  /** Attacks on attributes that escaping makes plain words: nothing in them for the build to refuse. */
  const inert: [string, string][] = [
    ['![pic" onerror="alert(1)](/images/articles/photo-1.jpg)', 'alt="pic&quot; onerror=&quot;alert(1)"'],
    ['[x](https://ok.example "t\\" onclick=\\"alert(1)")', 'title="t&quot; onclick=&quot;alert(1)"'],
    ['```js" onclick="alert(1)\ncode\n```', '<code class="language-js&quot;">'],
  ];

  /** No element that runs or loads anything, no event handler, no address but the allowed kinds. */
  function expectHarmless(out: string): void {
    // Every tag read (the check is not blind to one it cannot parse).
    expect(tags(out)).toHaveLength(out.match(/<(?!\/)/g)?.length ?? 0);
    for (const tag of tags(out)) {
      expect(['script', 'iframe', 'object', 'embed', 'style', 'svg', 'form', 'base', 'meta', 'link'], out).not.toContain(tag.name);
      expect(Object.keys(tag.attrs).filter((a) => a.startsWith('on')), out).toEqual([]);
      for (const a of ['href', 'src', 'srcset', 'action', 'formaction']) {
        if (a in tag.attrs) expect(asBrowserReads(tag.attrs[a]!), out).toMatch(SAFE_URL);
      }
    }
    expect(out).not.toMatch(/<script|<iframe|javascript:[^<]*"/i);
  }

  it.each(hostile)('%j runs nothing, links nowhere dangerous, and stops the build', (body) => {
    expectHarmless(html(body));
    expect(problems(body).length, body).toBeGreaterThan(0);
  });

  it.each(inert)('%j stays words inside its attribute', (body, attribute) => {
    const out = html(body);
    expectHarmless(out);
    expect(out).toContain(attribute);
    expect(problems(body)).toEqual([]);
  });

  it('shows raw HTML as the text that was written, so the author sees it', () => {
    expect(html('Hi <script>alert(1)</script> there')).toBe('<p>Hi &lt;script&gt;alert(1)&lt;/script&gt; there</p>\n');
    expect(html('<!-- note -->')).toBe('<p>&lt;!-- note --&gt;</p>\n');
  });

  it('shows a refused link as its bare text, not as a link', () => {
    expect(html('Click [here](javascript:alert(1)) now')).toBe('<p>Click [here](javascript:alert(1)) now</p>\n');
    expect(html('<javascript:alert(1)>')).toBe('<p>&lt;javascript:alert(1)&gt;</p>\n');
  });
});

describe('problems a build refuses, at their line', () => {
  it('reports a javascript: link at the line and column it is on', () => {
    const body = ['Intro.', '', 'A paragraph', 'over two lines.', '', 'More text that', 'goes on, and [click](javascript:alert(1)) here.'].join('\n');
    expect(problems(body)).toEqual([
      { line: 7, column: 14, message: 'link to a javascript: address', hint: 'links go to a page of the site (/contact), or to https://…' },
    ]);
  });

  it('names the scheme however it is spelled', () => {
    expect(at('[a]( JaVaScRiPt:alert(1))')).toEqual(['1:1 link to a javascript: address']);
    expect(at('[a](java&#x09;script:alert(1))')).toEqual(['1:1 link to a javascript: address']);
    expect(at('x <vbscript:msgbox(1)>')).toEqual(['1:3 link to a vbscript: address']);
    expect(at('[a](data:text/html,x)')).toEqual(['1:1 link to a data: address']);
    expect(at('[a](//evil.example)')).toEqual(['1:1 link to //evil.example, which is neither a page of the site nor https://…']);
    expect(at('[a](contact)')).toEqual(['1:1 link to contact, which is neither a page of the site nor https://…']);
  });

  it('reports a refused reference definition once, on its own line', () => {
    expect(at('See [the offer][o].\n\nMore.\n\n[o]: javascript:alert(1)')).toEqual(['5:- link to a javascript: address']);
    expect(at('[o]\n\n[o]: <javascript:alert(1)>')).toEqual(['3:6 link to a javascript: address']);
  });

  it('reports raw HTML blocks and inline HTML at their lines, wherever they sit', () => {
    const body = [
      '# Title', //                          1
      '', //                                 2
      '<div class="x">', //                 3: a block
      '</div>', //                           4
      '', //                                 5
      'Text', //                             6
      'and <b>bold</b>.', //                 7
      '', //                                 8
      '> quoted <i>x</i>', //                9
      '', //                                10
      '- item <span>y</span>', //           11
      '', //                                12
      '| a | b |', //                       13
      '|---|---|', //                       14
      '| 1 | <u>2</u> |', //                15
      '', //                                16
      '<!-- a comment -->', //              17
      '', //                                18
      '## <em>Heading</em>', //             19
    ].join('\n');
    expect(at(body)).toEqual([
      '3:- raw HTML is not allowed in an article',
      '7:5 raw HTML is not allowed in an article', '7:12 raw HTML is not allowed in an article',
      '9:10 raw HTML is not allowed in an article', '9:14 raw HTML is not allowed in an article',
      '11:8 raw HTML is not allowed in an article', '11:15 raw HTML is not allowed in an article',
      // A table cell's column is not known: the cell is cut out of its row.
      '15:- raw HTML is not allowed in an article', '15:- raw HTML is not allowed in an article',
      '17:- raw HTML is not allowed in an article',
      '19:4 raw HTML is not allowed in an article', '19:15 raw HTML is not allowed in an article',
    ]);
    expect(problems('<b>x</b>')[0]!.hint).toBe("write it in Markdown; the editor's toolbar has headings, lists, links and pictures");
  });

  it('counts lines a link title or a code span spans before a later problem', () => {
    expect(at('[a](/x "a\ntitle") and `code\nspan` then\n<b>x</b>')).toEqual(['4:1 raw HTML is not allowed in an article', '4:5 raw HTML is not allowed in an article']);
    expect(at('one\r\ntwo\r\n<b>x</b>')).toEqual(['3:1 raw HTML is not allowed in an article', '3:5 raw HTML is not allowed in an article']);
  });

  it('does not take a < in prose, or HTML shown as code, for HTML', () => {
    expect(problems('If a < b and 3<4, then x <= y; a<b>c is not a tag either? It is.\n\n2 < 3 > 1')).toHaveLength(1);
    expect(problems('If a < b and 3<4, then x <= y and y >= z.\n\n→ <3 hearts, 1 <- 2')).toEqual([]);
    expect(problems('Write `<div>` like this:\n\n```html\n<script>alert(1)</script>\n```\n\n    <b>indented code</b>')).toEqual([]);
    expect(problems('Mail <office@example.com> or see <https://example.org/x>.')).toEqual([]);
  });

  it('reports a link without words', () => {
    expect(at('Go [](/contact) or [ ](/pricing) or [![](/images/articles/photo-1.jpg)](/x).')).toEqual([
      '1:4 a link needs words that say where it goes',
      '1:20 a link needs words that say where it goes',
      '1:37 a link needs words that say where it goes',
      '1:38 a picture needs a description for readers who cannot see it',
    ]);
    expect(problems('[our prices](/pricing)')).toEqual([]);
  });

  it('reports pictures that are not in content/images/, from another site, or without a description', () => {
    const body = [
      '![A clean sink](/images/articles/photo-1.jpg)',
      '![A clean sink](/images/articles/missing.jpg)',
      '![A clean sink](https://cdn.example/sink.jpg)',
      '![A clean sink](//cdn.example/sink.jpg)',
      '![A clean sink](/images/../secrets.txt)',
      '![A clean sink](/photos/sink.jpg)',
      '![](/images/articles/photo-1.jpg)',
    ].join('\n\n');
    expect(at(body)).toEqual([
      '3:1 picture /images/articles/missing.jpg is not in content/images/',
      '5:1 pictures come from content/images/, not from another site',
      '7:1 pictures come from content/images/, not from another site',
      '9:1 picture /images/../secrets.txt is not in content/images/',
      '11:1 picture /photos/sink.jpg is not in content/images/',
      '13:1 a picture needs a description for readers who cannot see it',
    ]);
  });

  it('checks a body of thousands of problems on one line in linear time, so the build does not hang on it', () => {
    const body = '<b>x</b> [](/x) '.repeat(15_000);
    const start = performance.now();
    expect(problems(body)).toHaveLength(45_000);
    // Slicing the line for each problem (quadratic) took 49 s here; linear, half a second.
    expect(performance.now() - start).toBeLessThan(5_000);
  });

  it('never asks the disk about a path outside content/images/', () => {
    const asked: string[] = [];
    markdownProblems('![a](/images/../../etc/passwd) ![b](/images/%2e%2e/x.jpg) ![c](/images/a//b.jpg) ![d](/images/articles/ok.jpg)', (p) => (asked.push(p), false));
    expect(asked).toEqual(['articles/ok.jpg']);
    const o = options();
    renderArticleMarkdown('![a](/images/../../etc/passwd) ![b](/images/%2e%2e/x.jpg)', o);
    expect(o.asked).toEqual([]);
  });
});

describe('headings', () => {
  it('start at h2 below the page title: a body using # has every level moved down one, never past h6', () => {
    expect(html('# A\n\n## B\n\n###### F')).toBe('<h2 id="a">A</h2>\n<h3 id="b">B</h3>\n<h6>F</h6>\n');
    expect(html('## A\n\n### B\n\n#### C')).toBe('<h2 id="a">A</h2>\n<h3 id="b">B</h3>\n<h4>C</h4>\n');
    expect(html('A\n===\n\nB\n---')).toBe('<h2 id="a">A</h2>\n<h3 id="b">B</h3>\n');
  });

  it('give the table of contents the h2 and h3 in order, with github-style ids unique on the page', () => {
    const { html: out, headings } = render([
      '## What’s in a *deep* clean?', '### Kitchen & `oven`', '#### Not listed', '## Kitchen & oven', '## Kitchen & oven', '## Main', '## !!!', '## Café Tips',
    ].join('\n\n'));
    expect(headings).toEqual([
      { id: 'whats-in-a-deep-clean', text: 'What’s in a deep clean?', depth: 2 },
      { id: 'kitchen--oven', text: 'Kitchen & oven', depth: 3 },
      { id: 'kitchen--oven-1', text: 'Kitchen & oven', depth: 2 },
      { id: 'kitchen--oven-2', text: 'Kitchen & oven', depth: 2 },
      // The layout's <main id="main"> keeps its id: the skip link goes to it.
      { id: 'main-1', text: 'Main', depth: 2 },
      { id: 'section', text: '!!!', depth: 2 },
      { id: 'café-tips', text: 'Café Tips', depth: 2 },
    ]);
    for (const h of headings) expect(out).toContain(`<h${h.depth} id="${h.id}">`);
    expect(out).toContain('<h4>Not listed</h4>');
  });

  it('are numbered afresh for each article', () => {
    expect(render('## Tips').headings).toEqual([{ id: 'tips', text: 'Tips', depth: 2 }]);
    expect(render('## Tips').headings).toEqual([{ id: 'tips', text: 'Tips', depth: 2 }]);
  });

  it('link from the body to a section by its id', () => {
    expect(html('[see below](#kitchen)\n\n## Kitchen')).toBe('<p><a href="#kitchen">see below</a></p>\n<h2 id="kitchen">Kitchen</h2>\n');
  });
});

describe('links', () => {
  it("write the site's own absolute links root-relative, for the site's link check", () => {
    expect(html('[a](https://example.com/pricing?size=2#faq) [b](http://EXAMPLE.com/contact) [c](https://example.com) [d](<https://example.com/about>)')).toBe(
      '<p><a href="/pricing?size=2#faq">a</a> <a href="/contact">b</a> <a href="/">c</a> <a href="/about">d</a></p>\n',
    );
  });

  it('never turn a link to the site into a protocol-relative link to another', () => {
    expect(html('[a](https://example.com//evil.example/x)')).toBe('<p><a href="https://example.com//evil.example/x">a</a></p>\n');
  });

  it("give links to other sites the site's rel, and never open a new tab", () => {
    const out = html('[a](https://other.example/x) <https://other.example/y> [c][ref] [d](https://example.com@evil.example/)\n\n[ref]: https://other.example/z');
    expect(out).toBe('<p><a href="https://other.example/x" rel="noopener noreferrer">a</a> '
      + '<a href="https://other.example/y" rel="noopener noreferrer">https://other.example/y</a> '
      + '<a href="https://other.example/z" rel="noopener noreferrer">c</a> '
      + '<a href="https://example.com@evil.example/" rel="noopener noreferrer">d</a></p>\n');
    expect(out).not.toContain('target=');
  });

  it('keep mail, phone, site paths and fragments as written', () => {
    expect(html('[m](mailto:office@example.com) <office@example.com> [t](tel:+14155550100) [p](/services/deep-cleaning) [f](#faq)')).toBe(
      '<p><a href="mailto:office@example.com">m</a> <a href="mailto:office@example.com">office@example.com</a> <a href="tel:+14155550100">t</a> '
      + '<a href="/services/deep-cleaning">p</a> <a href="#faq">f</a></p>\n',
    );
  });
});

describe('pictures', () => {
  it('show the processed picture, sized so nothing shifts, lazily, as a figure of its own', () => {
    expect(html('![A sparkling kitchen & sink](/images/articles/photo-1.jpg)')).toBe(
      '<figure><picture>'
      + '<source type="image/avif" srcset="/assets/img/photo-1-400.avif 400w, /assets/img/photo-1-800.avif 800w" sizes="(min-width: 768px) 720px, 100vw">'
      + '<source type="image/webp" srcset="/assets/img/photo-1-400.webp 400w, /assets/img/photo-1-800.webp 800w" sizes="(min-width: 768px) 720px, 100vw">'
      + '<img src="/assets/img/photo-1-800.webp" alt="A sparkling kitchen &amp; sink" width="800" height="533" loading="lazy" decoding="async">'
      + '</picture></figure>\n',
    );
  });

  it('stay in their sentence when they are part of one', () => {
    expect(html('Before ![a sink](/images/articles/photo-1.jpg) after')).toMatch(/^<p>Before <picture>.*<\/picture> after<\/p>\n$/);
  });

  it('without source sets are a plain img', () => {
    const out = renderArticleMarkdown('![Logo](/images/logo.svg)', {
      ...options(), image: () => ({ src: '/assets/logo.svg', width: 120, height: 40 }),
    }).html;
    expect(out).toBe('<figure><img src="/assets/logo.svg" alt="Logo" width="120" height="40" loading="lazy" decoding="async"></figure>\n');
  });

  it('from elsewhere, or missing, load nothing: their description stands in', () => {
    const out = html('![A sink](https://cdn.example/sink.jpg)\n\n![A tub](/images/articles/missing.jpg)');
    expect(out).toBe('<figure>A sink</figure>\n<figure>A tub</figure>\n');
  });
});

describe('tables', () => {
  it('keeps a column\'s alignment without an inline style (the pages carry none)', () => {
    const { html } = render('| Room | Hours |\n|:---|---:|\n| Kitchen | 2 |\n');
    expect(html).not.toContain('style=');
    expect(html).toContain('<th data-align="right">Hours</th>');
    expect(html).toContain('<td data-align="left">Kitchen</td>');
  });

  it('scroll in a box a keyboard can reach, each named apart', () => {
    const table = '| Room | Hours |\n|---|--:|\n| Kitchen | 2 |';
    const out = html(`${table}\n\n${table}`);
    expect(out).toContain('<div class="table-scroll" role="region" aria-label="Table 1" tabindex="0">\n<table>\n<thead>');
    expect(out).toContain('<div class="table-scroll" role="region" aria-label="Table 2" tabindex="0">');
    expect(out).toContain('<td data-align="right">2</td>');
    expect(out.match(/<\/table>\n<\/div>\n/g)).toHaveLength(2);
    expect(html(table)).toContain('aria-label="Table"');
  });
});

describe('the rest of CommonMark', () => {
  it('renders lists, quotes, code, emphasis and rules', () => {
    expect(html('- a\n- *b*\n\n1. **c**\n\n> q\n\n`x<y`\n\n---\n\n~~old~~')).toBe(
      '<ul>\n<li>a</li>\n<li><em>b</em></li>\n</ul>\n<ol>\n<li><strong>c</strong></li>\n</ol>\n<blockquote>\n<p>q</p>\n</blockquote>\n'
      + '<p><code>x&lt;y</code></p>\n<hr>\n<p><s>old</s></p>\n',
    );
  });

  it('is parsed to the same tokens as markdown-it parses it with its own rules', () => {
    const tricky = [
      'a\r\nb\rc\nd\0e', 'cr\ronly\r\r- x', '[a [b] c](/x "t") and [x]\n\n[x]: /y', '*em* **strong** _u_ ~~s~~ `code` \\* &amp; &#x3C;',
      '<span>raw</span> <https://example.com> <a@b.co>', '| a | b |\n|:--|--:|\n| 1 | 2 |', '# H\n\n## H2 ##\n\nSetext\n---',
      '![alt *em*](/images/a.jpg) [link with `code`](https://x.com) [not a link]', 'trailing  \nbreak\\\nnext', '- [a](</b c>)\n  > q\n\n1) x',
      'email me: a@b.c, 50% off {now} = $5 + ~tilde~ ^caret^ @user #tag',
    ];
    const bodies = [...tricky, ...readdirSync(path.join(ROOT, 'content', 'articles')).map((f) => readFileSync(path.join(ROOT, 'content', 'articles', f), 'utf8'))];
    for (const html of [false, true]) {
      const stock = new markdownIt({ html });
      const faster = withFasterRules(new markdownIt({ html }));
      for (const body of bodies) {
        expect(JSON.stringify(faster.parse(body, {}))).toBe(JSON.stringify(stock.parse(body, {})));
      }
    }
  });
});

describe('wordCount', () => {
  it('counts the words a reader reads, not addresses or pictures', () => {
    const body = '# Deep clean\n\nA **kitchen** takes 3.5 hours—don’t rush a well-known job. See [our prices](https://example.com/pricing "Prices").\n\n'
      + '![a tidy sink](/images/articles/photo-1.jpg)\n\n- 1,000 homes\n- café\n\n[ref]: https://example.com/a-long/address';
    // Deep clean A kitchen takes 3.5 hours don’t rush a well-known job See our prices 1,000 homes café
    expect(wordCount(body)).toBe(18);
    expect(wordCount('')).toBe(0);
  });

  it('skips reference definitions on any line (up to three spaces in), and reads "!", "]" and joiners that start nothing', () => {
    const body = '[first]: https://a.example/x\n   [second]: https://b.example/y\n    [four]: spaces read\nWait! [not a link] here.\nend-';
    // four spaces read Wait not a link here end
    expect(wordCount(body)).toBe(9);
    expect(wordCount('see ![p](/images/a.jpg)\n[a]: b')).toBe(1);
  });
});

describe('validity', () => {
  it('is valid HTML by the W3C Nu HTML Checker, in a page', async () => {
    const body = [
      '# Spring cleaning', 'Intro with [a link](https://example.com/contact), [another](https://other.example) and `code`.',
      '## What’s in it?', '![A sparkling kitchen](/images/articles/photo-1.jpg)', 'Inline ![a sink](/images/articles/photo-1.jpg) picture.',
      '[![linked picture](/images/articles/photo-1.jpg)](/services)', '![Missing](/images/articles/missing.jpg)',
      '| Room | Hours |\n|---|:-:|\n| Kitchen | 2 |', '| A |\n|---|\n| B |',
      '- one\n- ![in a list](/images/articles/photo-1.jpg)\n\n1. first\n2. second', '> A quote\n> over lines', '```js\nconst a = 1 < 2;\n```',
      '---', '## What’s in it?', '### Kitchen', '## Main', '<script>alert(1)</script>', 'a <b onclick="x">b</b>', '[x](javascript:alert(1))',
    ].join('\n\n');
    const out = html(body);
    const tmp = await tempDir('markdown-valid-');
    try {
      await writeFile(path.join(tmp.dir, 'a.html'), `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>Article</title></head>\n<body><main id="main"><h1>Title</h1>\n${out}</main></body></html>\n`);
      expect(await htmlProblems(tmp.dir, [{ file: 'a.html', route: '/a' }])).toEqual([]);
    } finally {
      await tmp.remove();
    }
  }, 60_000);
});
