/** A lead's own address in the inbox, /leads#lead/<kind>/<id>: the Telegram message links there. */
import { isLeadKind, type LeadKind } from './model.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface LeadRef { kind: LeadKind; id: string }

export const leadHash = (ref: LeadRef) => `#lead/${ref.kind}/${ref.id}`;

/** The lead a location hash names, or undefined for anything else (the hash is typed by anyone). */
export function parseLeadHash(hash: string): LeadRef | undefined {
  const [head, kind, id, ...rest] = hash.replace(/^#/, '').split('/');
  if (head !== 'lead' || rest.length || !isLeadKind(kind) || !id || !UUID.test(id)) return undefined;
  return { kind, id: id.toLowerCase() };
}
