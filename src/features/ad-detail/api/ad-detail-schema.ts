import * as z from 'zod/mini';
import { adFactsSchema } from '../../../lib/ad-facts.ts';
import { adSchema } from '../../../lib/ad-schema.ts';

/**
 * get_ad's answer: an ad as the lists give it, with all its facts. Lists use
 * adSchema alone, so the facts' schemas stay out of the library's first chunk.
 */
export const adDetailSchema = z.extend(adSchema, { facts: z.optional(adFactsSchema) });
