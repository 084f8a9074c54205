import { parseWithZod } from '@conform-to/zod/v4';
import { describe, expect, it } from 'vitest';
import { guardForm, MAX_LIST_INDEX } from '../../app/utils/form-guard.server';
import { LoginSchema } from '#contract/accounts';

const form = (entries: [string, string][]) => {
  const data = new FormData();
  for (const [name, value] of entries) data.append(name, value);
  return data;
};
const login: [string, string][] = [['usernameOrEmail', 'fan@example.com'], ['password', 'x']];

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
      expect(guardForm(form([...login, ['answers[0].text', 'A'], ['answers[1].text', 'B'], ['__intent__', json]])).get('__intent__')).toBe(json);
    }
  });
});
