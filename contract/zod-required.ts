/**
 * Makes undefined (a field the form left empty) fail with the field's "required" message, not zod's: the `error` of
 * a schema that must be there (`z.string(required('Please enter your email.'))`).
 */
export const required = (message: string) => ({ error: (issue: { input: unknown }) => (issue.input === undefined ? message : undefined) });
