import { describe, expect, it } from 'vitest';
import { NotificationChoicesSchema } from '~/routes/_auth._subscribed.$artistUsername.account._index/notification-choices';
import { parseForm } from '~/utils/form-schema';

/** The account page's notification form, as a browser posts it: a ticked checkbox sends 'on', an unticked one nothing. */
const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return parseForm(data, NotificationChoicesSchema);
};

describe('notification choices form', () => {
  it('reads the mail choice and the two switches, an unticked one as off', () => {
    const submission = form({ intent: 'notifications', email: 'digest', inApp: 'on' });
    expect(submission.status).toBe('success');
    expect(submission.status === 'success' && submission.value).toEqual({
      intent: 'notifications',
      email: 'digest',
      push: false,
      inApp: true,
    });
  });

  it('refuses a mail choice the api does not know, on its field', () => {
    const submission = form({ intent: 'notifications', email: 'weekly', push: 'on' });
    expect(submission.status).toBe('error');
    expect(submission.status === 'error' && submission.error).toEqual({ email: ['Choose how you would like to hear by mail.'] });
  });
});
