/** Synthetic content: the real content/ plus N generated city files with full pages (and their Spanish twins). */
import { cp, mkdir, rm, writeFile } from 'node:fs/promises';
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

/** A city's Spanish twin: the same structure and facts, every text in Spanish (generator/model/twins.ts). */
export function syntheticCitySpanish(i: number) {
  const name = `Benchville ${i}`;
  const street = streets[i % streets.length]!;
  const city = syntheticCity(i);
  return {
    name,
    population: city.population,
    description: `Casas a lo largo de la avenida ${street} y las colinas de arriba, ${i % 3 === 0 ? 'con muchos condominios' : 'casi todas unifamiliares'}.`,
    page: {
      seoDescription: `Limpieza profunda en ${name}, CA por un equipo local con fianza y seguro. Reserve en línea; satisfacción garantizada en cada casa de la avenida ${street}.`,
      tagline: `Limpieza profunda para cada hogar de ${name}.`,
      intro: [
        `Las casas de ${name} cerca de la avenida ${street} juntan polvo donde la limpieza semanal nunca llega; nuestra limpieza profunda empieza ahí.`,
        `Programamos visitas en ${name} de lunes a sábado y volvemos a limpiar lo que no le guste dentro de 48 horas (casa ${i}).`,
      ],
      benefits: city.page.benefits.map((_, b) => `Beneficio ${b + 1} para los residentes de ${name} en la avenida ${street}`),
      faqs: city.page.faqs.map((_, q) => ({ question: `¿Pregunta ${q + 1} sobre ${name}?`, answer: `Respuesta ${q + 1}: la mayoría de las limpiezas profundas en ${name} toman de 4 a 8 horas.` })),
    },
  };
}

/**
 * The real content with N generated cities; `spanish`: each with its Spanish twin in es/cities/;
 * `english`: the real content without its translation (the English-only site).
 */
export async function syntheticContent(root: string, dir: string, cities: number, { spanish = false, english = false } = {}): Promise<string> {
  const contentDir = path.join(dir, 'content');
  await cp(path.join(root, 'content'), contentDir, { recursive: true });
  if (english) await rm(path.join(contentDir, 'es'), { recursive: true, force: true });
  await writeSyntheticCities(contentDir, cities);
  if (spanish) {
    await mkdir(path.join(contentDir, 'es', 'cities'), { recursive: true });
    const header = '# yaml-language-server: $schema=../../schemas/city.schema.json\n';
    for (let i = 1; i <= cities; i++) {
      await writeFile(path.join(contentDir, 'es', 'cities', `benchville-${i}.yaml`), header + stringify(syntheticCitySpanish(i), { lineWidth: 0 }));
    }
  }
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
