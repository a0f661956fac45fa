/** Cloudflare Pages Function, GET /api/callback: finishes the CMS's GitHub sign-in (functions/_shared/githubOAuth.ts). */
import { finishSignIn, type PagesContext } from '../_shared/githubOAuth.js';

export const onRequestGet = (context: PagesContext) => finishSignIn(context);
