/**
 * A lead's own address in the inbox, /leads#lead/<kind>/<id>: the Telegram message links there.
 * The shape is written once, beside the edge function that builds the link.
 */
export { leadHash, parseLeadHash, type LeadRef } from '../../supabase/functions/_shared/leadAddress.js';
