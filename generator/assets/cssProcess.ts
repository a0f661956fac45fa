/** Runs compileCssIntoCache in a process of its own (see compileCss in css.ts). */
import { compileCssIntoCache } from './css.js';
import { ownProcessArg } from './ownProcess.js';

const { root, fontFaceCss } = ownProcessArg<{ root: string; fontFaceCss: string }>();
await compileCssIntoCache(root, fontFaceCss);
