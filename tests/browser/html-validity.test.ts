/**
 * Every generated page is valid HTML by the W3C Nu HTML Checker (vnu.jar from npm `vnu-jar`, run
 * with the machine's Java). Invalid markup is what browsers, screen readers and crawlers each repair
 * in their own way. One Java run checks all pages (the JVM start is most of the time).
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { createRequire } from 'node:module';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { distPages, type DistPage } from '../helpers/dist.js';

const require = createRequire(import.meta.url);
/** vnu-jar's main export is the path of vnu.jar. */
const VNU_JAR = String(require('vnu-jar'));
const JAVA = process.env.JAVA ?? (process.env.JAVA_HOME ? path.join(process.env.JAVA_HOME, 'bin/java') : 'java');

interface VnuMessage {
  type: 'error' | 'info' | 'non-document-error';
  subType?: 'warning' | 'fatal' | 'io' | 'schema' | 'internal';
  url?: string;
  message: string;
  extract?: string;
  firstLine?: number;
  lastLine?: number;
  firstColumn?: number;
  lastColumn?: number;
}

function runVnu(files: string[]): Promise<VnuMessage[]> {
  return new Promise((resolve, reject) => {
    // vnu exits 1 when it found errors; the JSON report (on stderr) is what counts.
    execFile(JAVA, ['-jar', VNU_JAR, '--format', 'json', ...files], { maxBuffer: 1 << 28 }, (err, _stdout, stderr) => {
      try {
        resolve((JSON.parse(stderr) as { messages: VnuMessage[] }).messages);
      } catch {
        reject(new Error(`vnu.jar did not report (is Java 11+ installed? ${JAVA}): ${err?.message ?? ''}\n${stderr.slice(0, 2000)}`));
      }
    });
  });
}

const isError = (m: VnuMessage) => m.type === 'error' || m.type === 'non-document-error' || m.subType === 'fatal';

describe('HTML validity (W3C Nu HTML Checker)', () => {
  const dist = inject('siteDist');
  let pages: DistPage[];
  let messages: VnuMessage[];

  beforeAll(async () => {
    pages = await distPages(dist);
    messages = await runVnu(pages.map((p) => path.join(dist, p.file)));
  }, 120_000);

  it('checks every generated page', () => {
    expect(pages.length).toBeGreaterThan(20);
    expect(pages.map((p) => p.route)).toEqual(expect.arrayContaining(['/', '/contact', '/404']));
  });

  it('finds no errors on any page', () => {
    const fileOf = (url = '') => path.relative(dist, url.replace(/^file:/, '')) || url;
    const report = messages.filter(isError).map((m) => {
      const where = `${fileOf(m.url)}:${m.lastLine ?? m.firstLine ?? '?'}:${m.firstColumn ?? m.lastColumn ?? '?'}`;
      return `${where} ${m.message}${m.extract ? `\n    …${m.extract.replace(/\s+/g, ' ').trim()}…` : ''}`;
    });
    expect(report.length, `${report.length} HTML errors:\n${report.join('\n')}`).toBe(0);
  });
});
