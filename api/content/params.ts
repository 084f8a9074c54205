import { z } from 'zod';
import { CONTENT_TYPES } from '#contract/content-types';

/** A list in a query string, given as repeated parameters (`types=demo&types=live`), comma-separated, or both. */
export function listParam<T extends z.ZodType>(item: T) {
  return z.preprocess((value) => {
    if (value === undefined || value === null || value === '') return undefined;
    const values = (Array.isArray(value) ? value : [value]).flatMap((entry) => String(entry).split(','));
    const trimmed = values.map((entry) => entry.trim()).filter(Boolean);
    return trimmed.length ? trimmed : undefined;
  }, z.array(item).max(50).optional());
}

export const TypesParam = listParam(z.enum(CONTENT_TYPES, { error: 'Unknown content type.' }));

export const SortParam = z.enum(['asc', 'desc'], { error: 'Sort must be asc or desc.' }).default('desc');

export const paging = {
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  limit: z.coerce.number().int().min(1).max(100).default(20),
};
