/** Runs subsetFontInto in a process of its own (see loadFont in fonts.ts). */
import { subsetFontInto } from './fonts.js';
import { ownProcessArg } from './ownProcess.js';

const { source, cached } = ownProcessArg<{ source: string; cached: string }>();
await subsetFontInto(source, cached);
