/**
 * The functions that run in a process of their own (runInOwnProcess, generator/assets/ownProcess.ts),
 * by name: each loads a large library (Vite, Tailwind's compiler, HarfBuzz, sharp) whose memory the
 * build would otherwise keep while it renders pages. Each module is imported only in that process.
 */
export const ownProcessJobs = {
  bundleIslands: async () => (await import('./assets/islands.js')).bundleIslands,
  compileCssIntoCache: async () => (await import('./assets/css.js')).compileCssIntoCache,
  subsetFontInto: async () => (await import('./assets/fonts.js')).subsetFontInto,
  encodeImages: async () => (await import('./assets/images.js')).encodeImages,
  bundleApp: async () => (await import('./assets/appBundle.js')).bundleApp,
};

export type OwnProcessJobs = typeof ownProcessJobs;
export type OwnProcessJob = keyof OwnProcessJobs;
/** The job's function: its arguments and result travel as JSON. */
export type JobFunction<K extends OwnProcessJob> = Awaited<ReturnType<OwnProcessJobs[K]>>;
