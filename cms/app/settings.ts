/** What admin.html tells the admin script (a JSON block written by generator/backOffice/backOffice.ts). */
export interface AdminSettings {
  /** URL of Decap CMS's prebuilt script. */
  decap: string;
  /** URL of the CMS configuration (content/schemas/cms-config.json plus this deployment's settings). */
  config: string;
  /** URL of the preview data the build planned (cms/app/preview.tsx, PreviewContext). */
  preview: string;
  /**
   * The business's time zone, site.yaml's hours.timeZone: the date fields show and take its wall
   * clock (cms/app/zonedDate.ts), and the publish panel tells when a dated article goes live.
   */
  timeZone: string;
}

/**
 * The name of the one city the build plans for the previews (PreviewContext.city): the city page's
 * shared texts then read this mark where the name goes, and the preview puts the name typed there.
 */
export const CITY_MARK = '{city}';
