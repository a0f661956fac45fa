/** What admin.html tells the admin script (a JSON block written by generator/cms/adminFiles.ts). */
export interface AdminSettings {
  /** URL of Decap CMS's prebuilt script. */
  decap: string;
  /** URL of the CMS configuration (content/schemas/cms-config.json plus this deployment's settings). */
  config: string;
  /** URL of the preview data the build planned (src/admin/preview.tsx, PreviewContext). */
  preview: string;
}
