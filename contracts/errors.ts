/** Content problems are data until the CLI prints them; every stage reports them in this shape. */
export interface ContentError {
  /** Path relative to the project root, e.g. content/cities/colma.yaml. */
  file: string;
  line?: number;
  column?: number;
  /** Field path inside the file, e.g. page.faqs[2].answer. */
  path?: string;
  message: string;
  hint?: string;
  /** A warning is printed, and builds go on. */
  warning?: true;
}

export type PathSegment = string | number;

/** Line and column (1-based; the column in UTF-16 units, as editors count) of an offset in a text. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}
