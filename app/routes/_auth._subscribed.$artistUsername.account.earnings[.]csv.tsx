import type { LoaderFunctionArgs } from '@remix-run/node';
import type { ArtistPayment, ArtistPaymentList } from '#contract/earnings';
import { apiFor } from '~/utils/api.server';
import { requireOwnArtist } from '~/utils/auth.server';

/** The most payments one export holds (GET /performers/me/payments answers at most this many at once). */
const MAX_ROWS = 10_000;

const COLUMNS: [string, (payment: ArtistPayment) => string | number][] = [
  ['date', (p) => p.createdAt],
  ['fan_username', (p) => p.fan.username],
  ['fan_name', (p) => p.fan.name],
  ['fan_email', (p) => p.fan.email],
  ['kind', (p) => p.kind],
  ['currency', (p) => p.currency.toUpperCase()],
  ['amount', (p) => p.amount.toFixed(2)],
  ['refunded', (p) => p.refunded.toFixed(2)],
  ['fee', (p) => p.fee.toFixed(2)],
  ['net', (p) => (p.amount - p.refunded - p.fee).toFixed(2)],
  ['promo', (p) => p.promo ?? ''],
  ['state', (p) => p.state],
  ['payout', (p) => p.payout],
];

/**
 * RFC 4180: a field with a comma, quote or line break is quoted, its quotes doubled. A field that a spreadsheet would
 * run as a formula (=, +, -, @ first: a fan's name is theirs to choose) is prefixed with a quote mark (OWASP's advice).
 */
function csvField(value: string | number) {
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** /{artist}/account/earnings.csv: every payment of the earnings page, one a row, for a spreadsheet or an accountant. */
export async function loader(args: LoaderFunctionArgs) {
  const api = apiFor(args);
  const { artist } = await requireOwnArtist(api, args.params.artistUsername);
  const payments = await api.get<{ data: ArtistPaymentList }>('/performers/me/payments', { params: { limit: MAX_ROWS, offset: 0 } });
  const lines = [COLUMNS.map(([name]) => name), ...payments.data.data.map((payment) => COLUMNS.map(([, value]) => value(payment)))];
  const body = `${lines.map((line) => line.map(csvField).join(',')).join('\r\n')}\r\n`;
  return new Response(body, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${artist.username}-payments.csv"`,
      'Cache-Control': 'no-store',
    },
  });
}
