/** `npm run new-city -- "Mountain View"`: a valid starting file for a city, ready to edit. */
import { access, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Document } from 'yaml';

function citySlug(name: string): string {
  return name.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}

function newCityYaml(name: string): string {
  const data = {
    name,
    population: '~50,000',
    description: `Deep, routine and move-out cleaning for ${name} homes, by a bonded and insured local team.`,
    page: {
      seoDescription: `Deep cleaning in ${name}, CA by a bonded, insured team using eco-friendly products. Book online in minutes; 100% satisfaction guaranteed.`,
      tagline: `Thorough, eco-friendly deep cleaning for ${name} homes.`,
      intro: [
        `Our ${name} deep cleaning covers every room top to bottom: baseboards, door frames, windowsills, grout and the inside of the oven hood vent.`,
        `We schedule ${name} visits Monday to Saturday, bring our own eco-friendly supplies, and re-clean anything you are not happy with if you tell us within 48 hours.`,
      ],
      benefits: [
        `Bonded and insured cleaners who know ${name}`,
        'Eco-friendly products safe for kids and pets',
        'Detailed room-by-room deep cleaning checklist',
        'Flexible Monday to Saturday scheduling',
        '100% satisfaction guarantee with free re-clean',
        'Easy online booking and reminders',
      ],
      faqs: [
        { question: `How long does a deep cleaning take in ${name}?`, answer: 'Most homes take 4-8 hours, depending on size and condition.' },
        { question: 'Do I need to be home?', answer: 'No. Many clients give us a key or door code; we lock up when we leave.' },
        { question: 'What is not included?', answer: 'We do not clean exterior windows above ground level, biohazards, pests, heavy construction debris or delicate antiques.' },
      ],
    },
  };
  const doc = new Document(data);
  doc.commentBefore = ` yaml-language-server: $schema=../schemas/city.schema.json\n Starting file for ${name}: replace the population and the page texts with local details.\n Remove the whole page: section if the city should have a card only (it then links to /book-online).`;
  return doc.toString({ lineWidth: 0 });
}

export async function writeNewCity(contentDir: string, name: string): Promise<string> {
  const trimmed = name.trim();
  if (!trimmed) throw new Error('Give the city name: npm run new-city -- "Mountain View"');
  const file = path.join(contentDir, 'cities', `${citySlug(trimmed)}.yaml`);
  if (await access(file).then(() => true, () => false)) throw new Error(`${path.relative(process.cwd(), file)} already exists`);
  await writeFile(file, newCityYaml(trimmed), { flag: 'wx' });
  return file;
}
