/**
 * The functions that run in a process of their own (runInAssetHelper, generator/assets/helper/client.ts),
 * by name: each loads a large library (Vite, Tailwind's compiler, HarfBuzz, sharp) whose memory the
 * build would otherwise keep while it renders pages. Each module is imported only in that process.
 */
export const assetHelperJobs = {
  bundleIslands: async () => (await import('../islands.js')).bundleIslands,
  compileCssIntoCache: async () => (await import('../css.js')).compileCssIntoCache,
  subsetFontInto: async () => (await import('../fonts.js')).subsetFontInto,
  encodeImages: async () => (await import('../images.js')).encodeImages,
  bundleApp: async () => (await import('../appBundle.js')).bundleApp,
};

export type AssetHelperJobs = typeof assetHelperJobs;
export type AssetHelperJob = keyof AssetHelperJobs;
/** The job's function: its arguments and result travel as JSON. */
export type JobFunction<K extends AssetHelperJob> = Awaited<ReturnType<AssetHelperJobs[K]>>;
