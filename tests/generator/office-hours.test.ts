/**
 * The office hours the scheduled run of the office chat reads (issue 30): content/site.yaml's
 * hours, time zone and reminder delay, checked as content and published by the build as
 * /office-hours.json with a short cache, outside the sitemap.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { build } from '../../generator/build.js';
import { officeHoursSchema } from '../../supabase/functions/_shared/chat/officeHours.js';
import { contentCopy, englishContentCopy, problems, ROOT, withTempDir } from '../helpers/content.js';
import { HOURS } from '../backend/officeHoursFixture.js';

/** The problems of the content with site.yaml's text changed by `edit`. */
async function problemsWith(edit: (siteYaml: string) => string): Promise<string[]> {
  return withTempDir('office-hours-content-', async (dir) => {
    const copy = await englishContentCopy(dir);
    const file = path.join(copy, 'site.yaml');
    const text = await readFile(file, 'utf8');
    const changed = edit(text);
    expect(changed).not.toBe(text);
    await writeFile(file, changed);
    return problems(copy);
  });
}

describe('the office hours in content/site.yaml', () => {
  it('a time zone that does not exist is a content error at its line', async () => {
    expect(await problemsWith((t) => t.replace('timeZone: America/Los_Angeles', 'timeZone: America/Los_Angles'))).toEqual([
      'content/site.yaml:28:13 hours.timeZone: is not a time zone\n    hint: use a name from the IANA time zone database, e.g. America/Los_Angeles',
    ]);
  });

  it('a missing time zone says what to add; hours that close before they open are refused', async () => {
    expect(await problemsWith((t) => t.replace('  timeZone: America/Los_Angeles\n', ''))).toEqual([
      expect.stringMatching(/^content\/site\.yaml:\d+:\d+ hours\.timeZone: required field is missing\n {4}hint: add `timeZone:` \(The business's time zone/),
    ]);
    expect(await problemsWith((t) => t.replace('closes: "18:00"', 'closes: "08:00"'))).toEqual([
      'content/site.yaml:25:11 hours.closes: closes must be later than opens\n    hint: times are HH:MM on a 24-hour clock, e.g. opens: "09:00" and closes: "18:00"',
    ]);
  });

  it('a reminder delay out of range is refused; without one it is 15 minutes', async () => {
    expect(await problemsWith((t) => t.replace('reminderAfterMinutes: 15', 'reminderAfterMinutes: 0'))).toEqual([
      'content/site.yaml:29:25 hours.reminderAfterMinutes: must be at least 1\n    hint: a whole number of minutes of opening hours, e.g. 15',
    ]);
    await withTempDir('office-hours-default-', async (dir) => {
      const copy = await englishContentCopy(dir);
      const file = path.join(copy, 'site.yaml');
      await writeFile(file, (await readFile(file, 'utf8')).replace('  reminderAfterMinutes: 15\n', ''));
      await build({ root: ROOT, contentDir: copy, outDir: path.join(dir, 'dist'), skipIslands: true });
      expect(JSON.parse(await readFile(path.join(dir, 'dist', 'office-hours.json'), 'utf8')).reminderAfterMinutes).toBe(15);
    });
  });

  it('the build publishes them as /office-hours.json, as the run reads them, cached briefly, not in the sitemap', async () => {
    await withTempDir('office-hours-build-', async (dir) => {
      const dist = path.join(dir, 'dist');
      await build({ root: ROOT, contentDir: await contentCopy(dir), outDir: dist, skipIslands: true });
      const published = JSON.parse(await readFile(path.join(dist, 'office-hours.json'), 'utf8'));
      expect(published).toEqual(HOURS);
      expect(officeHoursSchema.safeParse(published).success).toBe(true);
      expect(await readFile(path.join(dist, '_headers'), 'utf8')).toContain('/office-hours.json\n  Cache-Control: public, max-age=300\n');
      expect(await readFile(path.join(dist, 'sitemap.xml'), 'utf8')).not.toContain('office-hours');
    });
  });
});
