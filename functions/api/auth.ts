/** Cloudflare Pages Function, GET /api/auth: starts the CMS's GitHub sign-in (functions/_shared/githubOAuth.ts). */
import { startSignIn, type PagesContext } from '../_shared/githubOAuth.js';

export const onRequestGet = (context: PagesContext) => startSignIn(context);
