/** Content problems are data until the CLI prints them. */
export interface ContentError {
  /** Path relative to the project root, e.g. content/cities/colma.yaml. */
  file: string;
  line?: number;
  column?: number;
  /** Field path inside the file, e.g. page.faqs[2].answer. */
  path?: string;
  message: string;
  hint?: string;
}

export class ContentErrors extends Error {
  constructor(readonly errors: ContentError[]) {
    super(`${errors.length} content problem${errors.length === 1 ? '' : 's'}:\n${errors.map(formatError).join('\n')}`);
    this.name = 'ContentErrors';
  }
}

export type PathSegment = string | number;

export function formatPath(path: readonly PathSegment[]): string {
  let out = '';
  for (const seg of path) out += typeof seg === 'number' ? `[${seg}]` : out ? `.${seg}` : seg;
  return out;
}

export function formatError(e: ContentError): string {
  const where = e.line ? `${e.file}:${e.line}:${e.column ?? 1}` : e.file;
  const head = `${where} ${e.path ? `${e.path}: ` : ''}${e.message}`;
  return e.hint ? `${head}\n    hint: ${e.hint}` : head;
}

export function sortErrors(errors: ContentError[]): ContentError[] {
  return [...errors].sort((a, b) =>
    a.file.localeCompare(b.file) || (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0));
}
