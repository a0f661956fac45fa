/**
 * What a picture uploaded through the CMS must be, in one place: the admin page checks a file as
 * soon as it is picked (so a wrong file never enters the entry being edited), and the local backend
 * checks again before anything is written (cms/localBackend.ts, which also decodes it).
 */
export const MAX_UPLOAD_BYTES = 5_000_000;

const SIGNATURES: Record<string, (b: Uint8Array) => boolean> = {
  png: (b) => [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((x, i) => b[i] === x),
  jpg: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  webp: (b) => String.fromCharCode(...b.slice(0, 4)) === 'RIFF' && String.fromCharCode(...b.slice(8, 12)) === 'WEBP',
  svg: (b) => {
    const text = new TextDecoder('utf-8', { fatal: false }).decode(b);
    return /<svg[\s>]/i.test(text) && !text.includes('\uFFFD');
  },
};

const megabytes = (n: number) => `${Math.round(n / 100_000) / 10} MB`;

/** Why this file cannot be a site picture, for the editor; undefined when it can. */
export function pictureProblem(name: string, bytes: Uint8Array): string | undefined {
  const ext = /\.(svg|png|jpe?g|webp)$/i.exec(name)?.[1]?.toLowerCase().replace('jpeg', 'jpg');
  if (!ext) return `${name} is not a picture: upload an SVG, PNG, JPEG or WebP file.`;
  if (bytes.length > MAX_UPLOAD_BYTES) return `${name} is ${megabytes(bytes.length)}; pictures may be at most ${megabytes(MAX_UPLOAD_BYTES)}. Save it smaller (for example 2000 pixels wide) and upload it again.`;
  if (!SIGNATURES[ext]!(bytes)) return `${name} is not a ${ext.toUpperCase()} picture (the file is damaged or of another kind).`;
  if (ext === 'svg' && /<script|<foreignObject|\son\w+\s*=|javascript:/i.test(new TextDecoder().decode(bytes))) return `${name} contains scripts; only plain drawings are accepted.`;
  return undefined;
}
