/**
 * The CMS's local backend of `npm run dev` (cms/localBackend.ts), over HTTP as the
 * browser reaches it: only same-origin JSON requests, only content files and pictures, nothing
 * outside content/, and an upload that is no picture, too large or damaged is refused with a
 * message while nothing of the entry is written; after a publish it says when the dev server
 * serves the rebuild. The Spanish twins under content/es/ are content files too, but for the
 * English-only kinds (articles, legal pages), which have none.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CmsLocalBackend, LOCAL_BACKEND_PATH } from '../../cms/localBackend.js';
import { startServer, type RunningServer } from '../../serve/server.js';
import { MAX_UPLOAD_BYTES } from '../../cms/app/upload.js';
import { contentCopy, tempDir, treeDigest } from '../helpers/content.js';
import type { ContentError } from '../../contracts/errors.js';
import { formatError } from '../../contracts/validate/errors.js';

describe('the CMS local backend', () => {
  let tmp: Awaited<ReturnType<typeof tempDir>>;
  let contentDir: string;
  let server: RunningServer;

  beforeAll(async () => {
    tmp = await tempDir('cms-backend-');
    contentDir = await contentCopy(tmp.dir);
    server = await startServer({ distDir: tmp.dir, handlers: [new CmsLocalBackend(contentDir).handle] });
  });
  afterAll(async () => {
    await server.close();
    await tmp.remove();
  });

  const call = (action: string, params: Record<string, unknown> = {}, headers: Record<string, string> = {}) => fetch(server.url + LOCAL_BACKEND_PATH, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.url, ...headers },
    body: JSON.stringify({ action, params }),
  });
  const errorOf = async (res: Response) => ((await res.json()) as { error: string }).error;
  const jpeg = () => sharp({ create: { width: 40, height: 30, channels: 3, background: '#123456' } }).jpeg().toBuffer();

  it('lists and reads the city files as Decap expects them', async () => {
    const res = await call('entriesByFolder', { folder: 'content/cities', extension: 'yaml', depth: 1 });
    expect(res.status).toBe(200);
    const entries = await res.json() as { data: string; file: { path: string; id: string } }[];
    expect(entries.map((e) => e.file.path)).toEqual((await readdir(path.join(contentDir, 'cities'))).sort().map((f) => `content/cities/${f}`));
    expect(entries[0]!.data).toBe(await readFile(path.join(contentDir, 'cities', 'atherton.yaml'), 'utf8'));
    expect(entries[0]!.file.id).toMatch(/^[0-9a-f]{64}$/);
  });

  it('answers only same-origin JSON requests', async () => {
    expect((await call('info', {}, { origin: 'https://evil.example' })).status).toBe(403);
    expect((await fetch(server.url + LOCAL_BACKEND_PATH, { method: 'POST', headers: { 'content-type': 'text/plain', origin: server.url }, body: '{"action":"info"}' })).status).toBe(415);
    expect((await fetch(server.url + LOCAL_BACKEND_PATH)).status).toBe(405);
    expect(await (await call('info')).json()).toMatchObject({ publish_modes: ['simple'], type: 'local_fs' });
  });

  it('never reads or writes outside the content files and pictures', async () => {
    const before = await treeDigest(tmp.dir);
    for (const [action, params] of [
      ['getEntry', { path: 'content/../package.json' }],
      ['getEntry', { path: '/etc/passwd' }],
      ['getMediaFile', { path: 'content/schemas/city.schema.json' }],
      ['persistEntry', { dataFiles: [{ path: 'content/../evil.yaml', raw: 'x' }], assets: [] }],
      ['persistEntry', { dataFiles: [{ path: 'content/cities/../../evil.yaml', raw: 'x' }], assets: [] }],
      ['persistEntry', { dataFiles: [{ path: 'content/static/evil.html', raw: '<script>' }], assets: [] }],
      ['persistEntry', { dataFiles: [{ path: 'content/schemas/city.schema.json', raw: '{}' }], assets: [] }],
      ['deleteFile', { path: 'content/site.yaml.bak' }],
      ['persistMedia', { asset: { path: 'content/cities/x.jpg', content: '', encoding: 'base64' } }],
    ] as const) {
      const res = await call(action, params);
      expect(res.status, `${action} ${JSON.stringify(params)}`).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    }
    expect(await treeDigest(tmp.dir)).toEqual(before);
  });

  it('lists, reads and writes the Spanish twins under content/es/, and no Spanish article or legal page', async () => {
    const entries = await (await call('entriesByFolder', { folder: 'content/es/cities', extension: 'yaml', depth: 1 })).json() as { file: { path: string } }[];
    expect(entries.map((e) => e.file.path)).toEqual((await readdir(path.join(contentDir, 'es/cities'))).sort().map((f) => `content/es/cities/${f}`));
    const raw = (await readFile(path.join(contentDir, 'es/cities/colma.yaml'), 'utf8')).replace(/tagline: .*/, 'tagline: Hogares de Colma, limpios como los nuestros');
    expect((await call('persistEntry', { dataFiles: [{ path: 'content/es/cities/colma.yaml', raw }], assets: [] })).status).toBe(200);
    expect(await readFile(path.join(contentDir, 'es/cities/colma.yaml'), 'utf8')).toBe(raw);
    const before = await treeDigest(contentDir);
    for (const file of ['content/es/articles/x.md', 'content/es/legal/x.md', 'content/es/articles.yaml', 'content/es/notes.yaml']) {
      const res = await call('persistEntry', { dataFiles: [{ path: file, raw: 'x' }], assets: [] });
      expect(res.status, file).toBe(403);
    }
    expect(await treeDigest(contentDir)).toEqual(before);
  });

  it('refuses a picture that is not one, too large, damaged or scripted, and writes nothing of its entry', async () => {
    const before = await treeDigest(contentDir);
    const entry = { path: 'content/cities/colma.yaml', raw: 'name: Colma\n' };
    const header = Buffer.from([0xff, 0xd8, 0xff, 0xe0]);
    for (const [name, bytes, status, message] of [
      ['notes.txt', Buffer.from('hello'), 415, 'notes.txt is not a picture: upload an SVG, PNG, JPEG or WebP file.'],
      ['fake.png', Buffer.from('not a png at all'), 415, 'fake.png is not a PNG picture (the file is damaged or of another kind).'],
      ['broken.jpg', Buffer.concat([header, Buffer.alloc(64, 7)]), 415, 'broken.jpg is not a JPG picture (the file is damaged or of another kind).'],
      ['script.svg', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>'), 415, 'script.svg contains scripts; only plain drawings are accepted.'],
      ['huge.jpg', Buffer.concat([header, Buffer.alloc(MAX_UPLOAD_BYTES)]), 413, 'huge.jpg is 5 MB; pictures may be at most 5 MB. Save it smaller (for example 2000 pixels wide) and upload it again.'],
    ] as const) {
      const res = await call('persistEntry', { dataFiles: [entry], assets: [{ path: `content/images/cities/${name}`, content: bytes.toString('base64'), encoding: 'base64' }] });
      expect(res.status, name).toBe(status);
      expect(await errorOf(res), name).toBe(message);
    }
    expect(await treeDigest(contentDir)).toEqual(before);
  });

  it('writes a real photo and its entry, the photo first', async () => {
    const photo = await jpeg();
    const raw = (await readFile(path.join(contentDir, 'cities/colma.yaml'), 'utf8')).replace('cities/colma.svg', 'cities/colma-photo.jpg');
    const res = await call('persistEntry', { dataFiles: [{ path: 'content/cities/colma.yaml', raw }], assets: [{ path: 'content/images/cities/colma-photo.jpg', content: photo.toString('base64'), encoding: 'base64' }] });
    expect(res.status).toBe(200);
    expect((await readFile(path.join(contentDir, 'images/cities/colma-photo.jpg'))).equals(photo)).toBe(true);
    expect(await readFile(path.join(contentDir, 'cities/colma.yaml'), 'utf8')).toBe(raw);
    expect((await readdir(path.join(contentDir, 'images/cities'))).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('says what became of the last publish and which entry files it wrote: building until the rebuild of its file is served, then live or failed in npm run check\'s words', async () => {
    const pending = new Map<string, (u: { errors: ContentError[] }) => void>();
    const backend = new CmsLocalBackend(contentDir, { whenServed: (change) => new Promise((resolve) => pending.set(change, resolve)) });
    const status = () => backend.handleAction('publishStatus', {});
    expect(await status()).toEqual({ state: 'none' });
    const raw = await readFile(path.join(contentDir, 'cities/colma.yaml'), 'utf8');
    await backend.handleAction('persistEntry', { dataFiles: [{ path: 'content/cities/colma.yaml', raw }], assets: [] });
    expect([...pending.keys()]).toEqual(['cities/colma.yaml']);
    const files = ['content/cities/colma.yaml'];
    expect(await status()).toEqual({ state: 'building', files });
    pending.get('cities/colma.yaml')!({ errors: [] });
    await expect.poll(status).toEqual({ state: 'live', files });

    // The next publish's rebuild finds a problem no form could see (a city named twice).
    await backend.handleAction('persistEntry', { dataFiles: [{ path: 'content/cities/colma-again.yaml', raw }], assets: [] });
    const again = ['content/cities/colma-again.yaml'];
    expect(await status()).toEqual({ state: 'building', files: again });
    const error: ContentError = { file: 'content/cities/colma-again.yaml', line: 1, column: 7, path: 'name', message: 'city "Colma" is already defined in content/cities/colma.yaml', hint: 'each city once' };
    pending.get('cities/colma-again.yaml')!({ errors: [error] });
    await expect.poll(status).toEqual({ state: 'failed', problems: [formatError(error)], files: again });
  });
});
