/** Synthetic content: the real content/ plus N generated city files with full pages. */
import { cp, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { stringify } from 'yaml';

const streets = ['Oak', 'Maple', 'Cedar', 'Elm', 'Willow', 'Bayview', 'Hillcrest', 'Sunset', 'Mission', 'Harbor'];

export function syntheticCity(i: number) {
  const name = `Benchville ${i}`;
  const street = streets[i % streets.length]!;
  return {
    name,
    population: `~${(1000 + i * 7).toLocaleString('en-US')}`,
    description: `Homes along ${street} Avenue and the hills above it, ${i % 3 === 0 ? 'with many condos' : 'mostly single-family'}.`,
    page: {
      seoDescription: `Deep cleaning in ${name}, CA by a bonded, insured local team. Book online; satisfaction guaranteed for every ${street} Avenue home.`,
      tagline: `Deep cleaning for every home in ${name}.`,
      intro: [
        `${name} homes near ${street} Avenue collect dust in places a weekly tidy never reaches; our deep clean starts there.`,
        `We schedule ${name} visits Monday to Saturday and re-clean anything you are not happy with within 48 hours (home ${i}).`,
      ],
      benefits: Array.from({ length: 6 }, (_, b) => `Benefit ${b + 1} for ${name} residents on ${street} Avenue`),
      faqs: Array.from({ length: 4 }, (_, q) => ({ question: `Question ${q + 1} about ${name}?`, answer: `Answer ${q + 1}: most ${name} deep cleans take 4-8 hours.` })),
    },
  };
}

export async function syntheticContent(root: string, dir: string, cities: number): Promise<string> {
  const contentDir = path.join(dir, 'content');
  await cp(path.join(root, 'content'), contentDir, { recursive: true });
  await writeSyntheticCities(contentDir, cities);
  return contentDir;
}

/** Writes benchville-1.yaml … benchville-N.yaml into a content folder's cities/. */
export async function writeSyntheticCities(contentDir: string, cities: number): Promise<void> {
  await mkdir(path.join(contentDir, 'cities'), { recursive: true });
  const header = '# yaml-language-server: $schema=../schemas/city.schema.json\n';
  for (let i = 1; i <= cities; i++) {
    await writeFile(path.join(contentDir, 'cities', `benchville-${i}.yaml`), header + stringify(syntheticCity(i), { lineWidth: 0 }));
  }
}
