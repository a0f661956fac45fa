/** /build.json: what the site was built from. generator/write/buildInfo.ts writes it; the content manager reads it from the live site. */
export const BUILD_INFO_PATH = '/build.json';

export interface BuildInfo {
  /** The commit built (40 hex digits), or null without git. */
  commit: string | null;
  /** That commit's time (ISO 8601, UTC), or SOURCE_DATE_EPOCH's; null without either. */
  time: string | null;
  /** The build's "now" in the business's time zone: an article dated later is in no output of this build. */
  now: string;
}
