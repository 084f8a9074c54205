import { render, toPlainText } from '@react-email/render';
import type { Mail } from './mailer.js';
import type { Template } from './templates.js';

/** A template as mail: the HTML that react-email renders, and a text part made from that HTML. */
export async function renderMail(to: string, template: Template, extra: Pick<Mail, 'headers' | 'messageId'> = {}): Promise<Mail> {
  const html = await render(template.body);
  return { to, subject: template.subject, html, text: toPlainText(html), ...extra };
}
