import { describe, expect, it } from 'vitest';
import { createMetrics, holdsToken } from '../../api/metrics';

describe('the api metrics', () => {
  it('counts requests by status class, not by status', async () => {
    const metrics = createMetrics();
    metrics.observeRequest('/users/me', 'GET', 200, 0.004);
    metrics.observeRequest('/users/me', 'GET', 204, 0.2);
    metrics.observeRequest('/users/me', 'GET', 404, 0.001);
    const text = await metrics.registry.metrics();
    expect(text).toContain('stagedoor_http_request_duration_seconds_count{route="/users/me",method="GET",status="2xx"} 2');
    expect(text).toContain('stagedoor_http_request_duration_seconds_count{route="/users/me",method="GET",status="4xx"} 1');
    expect(text).toContain('stagedoor_http_request_duration_seconds_bucket{le="0.005",route="/users/me",method="GET",status="2xx"} 1');
  });

  it('counts mails sent and failed, and hands a failure on for the job to retry', async () => {
    const metrics = createMetrics();
    let refuse = false;
    const mailer = metrics.countMails({
      async send() {
        if (refuse) throw new Error('451 try again later');
      },
      close() {},
    });
    await mailer.send({ to: 'fan@example.com', subject: 'Hi', text: 'Hi' });
    refuse = true;
    await expect(mailer.send({ to: 'fan@example.com', subject: 'Hi', text: 'Hi' })).rejects.toThrow('451');
    const text = await metrics.registry.metrics();
    expect(text).toContain('stagedoor_mails_sent_total 1');
    expect(text).toContain('stagedoor_mails_failed_total 1');
  });

  it('counts pushes by outcome', async () => {
    const metrics = createMetrics();
    for (const outcome of ['sent', 'sent', 'gone', 'error'] as const) metrics.pushed(outcome);
    const text = await metrics.registry.metrics();
    expect(text).toContain('stagedoor_pushes_sent_total 2');
    expect(text).toContain('stagedoor_pushes_failed_total{reason="gone"} 1');
    expect(text).toContain('stagedoor_pushes_failed_total{reason="error"} 1');
  });
});

describe('holdsToken', () => {
  it('takes the bearer token only', () => {
    const token = 'metrics-token-0123456789abcdef';
    expect(holdsToken(`Bearer ${token}`, token)).toBe(true);
    expect(holdsToken(`bearer ${token}`, token)).toBe(true);
    expect(holdsToken(`Bearer ${token}x`, token)).toBe(false);
    expect(holdsToken(token, token)).toBe(false);
    expect(holdsToken(`Basic ${token}`, token)).toBe(false);
    expect(holdsToken(undefined, token)).toBe(false);
  });
});
