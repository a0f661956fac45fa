/** The error list a failed stage throws, and how a content problem is printed. */
import type { ContentError, PathSegment } from '../errors.js';

export class ContentErrors extends Error {
  constructor(readonly errors: ContentError[]) {
    super(`${errors.length} content problem${errors.length === 1 ? '' : 's'}:\n${errors.map(formatError).join('\n')}`);
    this.name = 'ContentErrors';
  }
}

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

/**
 * A content problem as a GitHub Actions annotation: shown on the file and line in a pull request's
 * "Files changed" and checks (the CMS's editorial workflow opens one per change). Workflow-command
 * escaping: '%', CR and LF in the message; also ':' and ',' in the properties.
 */
export function githubAnnotation(e: ContentError): string {
  const data = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
  const prop = (s: string) => data(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
  const where = [`file=${prop(e.file)}`, ...(e.line ? [`line=${e.line}`, `col=${e.column ?? 1}`] : []), ...(e.path ? [`title=${prop(e.path)}`] : [])];
  return `::error ${where.join(',')}::${data(e.hint ? `${e.message}${HINT}${e.hint}` : e.message)}`;
}

const HINT = '. Hint: ';

/**
 * The content problem back from the annotation GitHub stored for it (its checks API), so the
 * content manager shows a failed deploy's problem in the words of `npm run check` (formatError).
 */
export function fromAnnotation(a: { path: string; start_line?: number | null; start_column?: number | null; title?: string | null; message: string }): ContentError {
  const cut = a.message.lastIndexOf(HINT);
  return {
    file: a.path,
    ...(a.start_line && { line: a.start_line, column: a.start_column ?? 1 }),
    ...(a.title && { path: a.title }),
    message: cut < 0 ? a.message : a.message.slice(0, cut),
    ...(cut >= 0 && { hint: a.message.slice(cut + HINT.length) }),
  };
}

export function sortErrors(errors: ContentError[]): ContentError[] {
  return [...errors].sort((a, b) =>
    a.file.localeCompare(b.file) || (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0));
}
