/**
 * The "now" of the shared build (tests/globalSetup.ts) and of the builds compared with it: a fixed
 * moment after every real article's date, so what is published does not depend on the clock.
 */
export const SHARED_BUILD_NOW = '2026-11-29T12:00';

/** The same moment as /build.json writes it (the business's time zone, with its offset). */
export const SHARED_BUILD_NOW_ISO = '2026-11-29T12:00:00-08:00';
