import { parse, type Submission } from '@conform-to/react';
import * as z from 'zod/mini';

/**
 * conform's two zod helpers for every form a page validates (their schemas are written with zod/mini):
 * `parseForm` answers what `parseWithZod` answers, `formConstraint` what `getZodConstraint` gives, and
 * tests/unit/form-schema.test.ts holds both to conform's own answers (the artist's profile form aside, where
 * conform's were wrong: see the test).
 *
 * Why not conform's: `@conform-to/zod/v4` builds its form-value coercion with classic zod, so esbuild ships classic
 * zod (about 20 KB) with every page that imports anything from the adapter, even getZodConstraint alone, and with it
 * every part of zod's core that classic uses. Through these two helpers a form page ships only the zod/mini
 * functions its schemas use. The schemas read form text themselves (a checkbox's 'on', the profile's price).
 */

/**
 * The submission of a form checked by `schema`. The browser (conform's onValidate) and the action call it with the
 * same schema, so both say the same thing. Form values are strings and files; as in conform's default coercion an
 * empty one counts as missing (undefined), so a field's "required" message applies to an empty field. A schema
 * that wants a number or a boolean converts the text itself.
 */
export function parseForm<Schema extends z.ZodMiniType>(
  payload: FormData | URLSearchParams,
  schema: Schema,
): Submission<z.input<Schema>, string[], z.output<Schema>> {
  return parse(payload, {
    resolve(value) {
      const result = z.safeParse(schema, withoutEmptyValues(value));
      if (result.success) return { value: result.data };
      const error: Record<string, string[]> = {};
      for (const issue of result.error.issues) (error[fieldName(issue.path)] ??= []).push(issue.message);
      return { error };
    },
  }) as Submission<z.input<Schema>, string[], z.output<Schema>>;
}

/**
 * The HTML constraints of a flat form's fields: required unless the field is optional. That is all conform's
 * getZodConstraint derives from these schemas (it also reads length and pattern limits from zod's `bag`, which
 * zod 4.6 leaves empty for them; the test compares with conform so a change there shows).
 */
export function formConstraint<Shape extends z.core.$ZodLooseShape>(schema: z.ZodMiniObject<Shape>) {
  const shape: Record<string, z.core.$ZodType> = schema._zod.def.shape;
  return Object.fromEntries(Object.entries(shape).map(([name, field]) => [name, { required: field._zod.optin !== 'optional' }]));
}

function withoutEmptyValues(value: unknown): unknown {
  if (value === '') return undefined;
  if (typeof File !== 'undefined' && value instanceof File) return value.name === '' && value.size === 0 ? undefined : value;
  if (Array.isArray(value)) return value.map(withoutEmptyValues);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, withoutEmptyValues(entry)]));
  }
  return value;
}

/** conform's field names: `a.b` for a key, `a[0]` for an index. */
function fieldName(path: PropertyKey[]) {
  return path.reduce<string>(
    (name, segment) => (typeof segment === 'number' ? `${name}[${segment}]` : name ? `${name}.${String(segment)}` : String(segment)),
    '',
  );
}
