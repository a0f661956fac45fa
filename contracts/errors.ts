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
}

export type PathSegment = string | number;
