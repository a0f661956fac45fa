/**
 * The content manager as `npm run dev` serves it, on a copy of the content: the dev session
 * (DevSession) watching it, the CMS's local backend writing into it, one server for both, as
 * cli/commands.ts wires them. For the browser tests of /admin.
 */
import path from 'node:path';
import { expect } from 'vitest';
import { CmsLocalBackend } from '../../cms/localBackend.js';
import { DevSession } from '../../serve/dev.js';
import { startServer, type RunningServer } from '../../serve/server.js';
import { contentCopy, ROOT, tempDir } from './content.js';

export interface CmsSession {
  contentDir: string;
  outDir: string;
  session: DevSession;
  server: RunningServer;
  close(): Promise<void>;
}

/** Started on a fresh copy of content/, which `prepare` may change first; the site is built without an error. */
export async function startCmsSession(prefix: string, prepare?: (contentDir: string) => Promise<void>): Promise<CmsSession> {
  const tmp = await tempDir(prefix);
  const contentDir = await contentCopy(tmp.dir);
  await prepare?.(contentDir);
  const outDir = path.join(tmp.dir, 'dist');
  const session = new DevSession({ root: ROOT, contentDir, outDir, siteUrl: 'https://www.bayshinecleaning.com' });
  let stopWatching: (() => Promise<void>) | undefined;
  let server: RunningServer | undefined;
  const close = async () => {
    await stopWatching?.();
    await server?.close();
    await session.close();
    await tmp.remove();
  };
  try {
    expect((await session.start()).errors).toEqual([]);
    stopWatching = await session.watch();
    const cms = new CmsLocalBackend(contentDir, { whenServed: (change) => session.updateFor(change) });
    server = await startServer({ distDir: outDir, handlers: [session.handle, cms.handle] });
  } catch (err) {
    await close();
    throw err;
  }
  return { contentDir, outDir, session, server, close };
}
