/**
 * The rules between a translated file (content/es/…) and its English twin (the same path under
 * content/), which the build (generator/model/rules.ts) and the content manager's save check
 * (cms/app/check.ts) both apply: the twin must exist, the two must have one structure (the same fields, the same
 * number of items in each list), the facts written in both must be equal (numbers, switches,
 * addresses, numbers to call, pictures), and a text of the twin's may not be left in English.
 */
import type { ValidDoc } from '../documents.js';
import type { ContentError } from '../errors.js';
import type { KindName } from '../kinds.js';
import { formatPath } from './errors.js';
import { locator } from './locate.js';

type Path = (string | number)[];

/**
 * The top-level field a translation writes that its twin need not: a service's own address (an
 * English service's is its file name: the build refuses a slug there), the language switch's texts
 * (optional in English). Optional in the model, required in a translation's form (cms/config.ts).
 */
export const TRANSLATION_FIELDS: Partial<Record<KindName, { field: string; english: 'optional' | 'absent' }>> = {
  service: { field: 'slug', english: 'absent' },
  site: { field: 'language', english: 'optional' },
};

/** Texts the same in every language: names (the brand's, a city's) and what the office's systems keep in English (the discount lead's stored name and message). */
const KEPT_IN_ENGLISH = [/^discount\.notification\./, /^servedCities\[/, /^name$/, /^brand\.name$/];

/** A text this many words long or longer, the same in both files, was left untranslated (short labels and names may be the same). */
const UNTRANSLATED_WORDS = 4;

/** A value that is a fact, not words: the same in every language. */
function isFact(value: string): boolean {
  return !/\p{L}/u.test(value) || /^(https?:|mailto:|tel:)/.test(value) || /\.(svg|png|jpe?g|webp|avif)$/i.test(value) || /^[^\s@]+@[^\s@]+$/.test(value);
}

/** The numbers a text states ("$25 off, 4-8 hours" → "25 4 8"): a translation says the same ones, in whatever order its sentence takes. */
const numbersOf = (value: string) => (value.match(/\d+(?:[.,]\d+)*/g) ?? []).map((n) => n.replace(/[.,]/g, '')).sort().join(' ');

const words = (value: string) => value.split(/\s+/).filter((w) => /\p{L}/u.test(w)).length;

export function twinRules(translation: ValidDoc, english: ValidDoc | undefined, englishFile: string): ContentError[] {
  if (!english) {
    return [{ file: translation.file, line: 1, column: 1, message: `no English twin ${englishFile}`, hint: `a translated page is the twin of an English one with the same file name: create ${englishFile}, or rename this file to match it` }];
  }
  if (english.kind !== translation.kind) return [];
  const errors: ContentError[] = [];
  // Positions need a careful parse: only for a file with a problem.
  let located: ReturnType<typeof locator> | undefined;
  const at = (path: Path, message: string, hint: string) => {
    located ??= locator(translation.yaml, translation.lineOffset);
    errors.push({ file: translation.file, ...located.value(path), ...(path.length && { path: formatPath(path) }), message, hint });
  };
  const walk = (es: unknown, en: unknown, path: Path) => {
    const where = formatPath(path) || 'the file';
    if (Array.isArray(en) || Array.isArray(es)) {
      if (!Array.isArray(en) || !Array.isArray(es)) return at(path, `${where} is a list in one language and not in the other`, `write it as in ${englishFile}`);
      if (en.length !== es.length) {
        return at(path, `${where} has ${es.length} item${es.length === 1 ? '' : 's'} here and ${en.length} in ${englishFile}`, 'translate every item of the English list, in the same order, and no other');
      }
      es.forEach((item, i) => walk(item, en[i], [...path, i]));
      return;
    }
    if (en && typeof en === 'object' && es && typeof es === 'object') {
      const enObj = en as Record<string, unknown>;
      const esObj = es as Record<string, unknown>;
      for (const key of Object.keys(enObj)) {
        if (!(key in esObj)) at(path, `${formatPath([...path, key])} is missing here but written in ${englishFile}`, 'translate it too');
      }
      for (const key of Object.keys(esObj)) {
        if (key in enObj) walk(esObj[key], enObj[key], [...path, key]);
        else if (!(path.length === 0 && TRANSLATION_FIELDS[translation.kind]?.field === key)) at([...path, key], `${formatPath([...path, key])} is not in ${englishFile}`, 'a translation has the fields of its English twin: remove it, or add it to the English file first');
      }
      return;
    }
    if (typeof en === 'string' && typeof es === 'string') {
      // A link's address differs by language (/contact, /es/contacto): the link check follows it.
      if (path.at(-1) === 'href') return;
      const dotted = formatPath(path);
      if (isFact(en)) {
        if (es !== en) at(path, `${where} is "${es}" here and "${en}" in ${englishFile}`, 'a fact (a number, an address, a picture) is the same in every language: correct the one that is wrong');
      } else if (es === en && words(en) >= UNTRANSLATED_WORDS && !KEPT_IN_ENGLISH.some((r) => r.test(dotted))) {
        at(path, `${where} is not translated: it is the English text of ${englishFile}`, 'write it in Spanish');
      } else if (numbersOf(es) !== numbersOf(en)) {
        at(path, `${where} says ${numbersOf(es) || 'no number'} where ${englishFile} says ${numbersOf(en)}`, 'the numbers of a text (a price, hours, days) are facts: the same in every language');
      }
      return;
    }
    if (es !== en && (typeof en !== 'string' || typeof es !== 'string')) {
      at(path, `${where} is ${JSON.stringify(es)} here and ${JSON.stringify(en)} in ${englishFile}`, 'a number or a yes/no is the same in every language: correct the one that is wrong');
    }
  };
  walk(translation.data, english.data, []);
  return errors;
}
