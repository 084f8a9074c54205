import { parseWithZod } from '@conform-to/zod/v4';
import { describe, expect, it } from 'vitest';
import { guardForm, MAX_LIST_INDEX, readFormData } from '../../app/utils/form-guard.server';
import { LoginSchema } from '#contract/accounts';

const form = (entries: [string, string][]) => {
  const data = new FormData();
  for (const [name, value] of entries) data.append(name, value);
  return data;
};
const login: [string, string][] = [
  ['usernameOrEmail', 'fan@example.com'],
  ['password', 'x'],
];

// What a hostile post could send to any route action; conform alone threw (a 500) or built a list of 10⁸ entries.
describe('guardForm', () => {
  it('refuses a list index past the limit with a 400, before conform builds the list', () => {
    for (const name of ['usernameOrEmail[99999999]', 'poll.answers[1001].text']) {
      const thrown = (() => {
        try {
          guardForm(form([...login, [name, 'x']]));
        } catch (error) {
          return error;
        }
      })();
      expect(thrown, name).toBeInstanceOf(Response);
      expect((thrown as Response).status).toBe(400);
    }
    expect(() => guardForm(form([...login, [`poll.answers[${MAX_LIST_INDEX}].text`, 'x']]))).not.toThrow();
  });

  it('drops a reserved field conform would choke on, so the form is read as a plain submit', () => {
    const malformed = [
      'nope',
      'null',
      '1',
      '{}',
      '{"type":"insert"}',
      '{"type":"remove","payload":null}',
      '{"type":"insert","payload":{"name":"x","index":99999999}}',
      '{"type":"update","payload":{"name":"a[99999999]"}}',
      // List intents on fields that are not lists (a text field, the whole form).
      '{"type":"insert","payload":{"name":"password"}}',
      '{"type":"reorder","payload":{"name":"usernameOrEmail","from":0,"to":1}}',
      '{"type":"remove","payload":{"name":"","index":0}}',
      '{"type":"update","payload":{"name":"a..b","value":1}}',
      '{"type":"insert","payload":{"name":"a..b"}}',
      '{"type":"update","payload":{"name":"__proto__.polluted","value":1}}',
    ];
    for (const intent of malformed) {
      const submission = parseWithZod(guardForm(form([...login, ['__intent__', intent], ['__state__', intent]])), { schema: LoginSchema });
      expect(submission.status, intent).toBe('success');
    }
  });

  it('keeps the intents conform sends', () => {
    for (const intent of [
      { type: 'validate', payload: { name: 'password' } },
      { type: 'insert', payload: { name: 'answers', defaultValue: { text: '' } } },
      { type: 'remove', payload: { name: 'answers', index: 1 } },
    ]) {
      const json = JSON.stringify(intent);
      expect(guardForm(form([...login, ['answers[0].text', 'A'], ['answers[1].text', 'B'], ['__intent__', json]])).get('__intent__')).toBe(
        json,
      );
    }
  });
});

describe('readFormData', () => {
  const post = (body: BodyInit | null, type?: string) =>
    new Request('http://localhost/login', { method: 'POST', body, headers: type ? { 'Content-Type': type } : {} });
  const refusal = async (request: Request) => {
    try {
      await readFormData(request);
    } catch (error) {
      if (error instanceof Response) return { status: error.status, text: await error.text() };
    }
    throw new Error('the body was read as a form');
  };

  it('reads a urlencoded form and a multipart form', async () => {
    const plain = await readFormData(post('usernameOrEmail=a%40b.c&password=x', 'application/x-www-form-urlencoded'));
    expect(plain.get('usernameOrEmail')).toBe('a@b.c');
    const form = new FormData();
    form.set('title', 'Hello');
    const multipart = new Request('http://localhost/x', { method: 'POST', body: form });
    expect((await readFormData(multipart)).get('title')).toBe('Hello');
  });

  it('answers 415 with a sentence to no body, text and JSON', async () => {
    for (const request of [post(null), post('hello', 'text/plain'), post('{"a":1}', 'application/json')]) {
      expect(await refusal(request)).toEqual({
        status: 415,
        text: 'This page takes a form: send it as application/x-www-form-urlencoded or multipart/form-data.',
      });
    }
  });

  it('answers 400 to multipart that is not', async () => {
    expect(
      await refusal(post('--abc\r\nContent-Disposition: form-data; name="t"\r\n\r\nbroken', 'multipart/form-data; boundary=abc')),
    ).toEqual({
      status: 400,
      text: 'This form could not be read. Please send it again.',
    });
  });
});
