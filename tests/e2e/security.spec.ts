import { expect, test } from '@playwright/test';
import { expectNoA11yViolations, registerFan, signIn, webBase } from './helpers';

test('the Content-Security-Policy lets the page run and blocks a script injected into it', async ({ page }) => {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/.test(message.text())) violations.push(message.text());
  });
  const response = await page.goto('/login');
  const csp = response?.headers()['content-security-policy'] ?? '';
  const nonce = csp.match(/'nonce-([^']+)'/)?.[1];
  expect(nonce).toBeTruthy();
  // The page itself hydrated under the policy: the log-in form validates on the client.
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page.getByText('Please enter your email address')).toBeVisible();
  expect(violations).toEqual([]);

  // What an XSS would do: add an inline script, and an inline event handler. Neither runs.
  const ran = await page.evaluate(async () => {
    const flags = window as unknown as { injected?: boolean; handler?: boolean };
    const script = document.createElement('script');
    script.textContent = 'window.injected = true';
    document.body.appendChild(script);
    const img = document.createElement('img');
    img.setAttribute('onerror', 'window.handler = true');
    img.src = 'data:image/png;base64,broken';
    document.body.appendChild(img);
    await new Promise((resolve) => setTimeout(resolve, 300));
    return { injected: flags.injected ?? false, handler: flags.handler ?? false };
  });
  expect(ran).toEqual({ injected: false, handler: false });
  expect(violations.length).toBeGreaterThan(0);
});

test('a form on another site cannot post to a Stagedoor action, even for a signed-in fan', async ({ page, context, request }) => {
  const fan = await registerFan(request);
  await signIn(context, fan.token);
  await page.goto('/discover');
  await expect(page.getByRole('button', { name: `Logged in as ${fan.username}` })).toBeVisible();

  // 127.0.0.1 is another site than localhost: a page there posts the log-out form to Stagedoor.
  const otherSite = webBase.replace('localhost', '127.0.0.1');
  await page.goto(`${otherSite}/healthz`);
  await page.evaluate((target) => {
    const form = document.createElement('form');
    form.method = 'post';
    form.action = `${target}/logout`;
    document.body.appendChild(form);
    form.submit();
  }, webBase);
  await expect(page.getByRole('heading', { name: 'This form came from another site' })).toBeVisible();

  // The fan is still signed in: the action never ran.
  await page.goto('/discover');
  await expect(page.getByRole('button', { name: `Logged in as ${fan.username}` })).toBeVisible();
});

test('static files carry the headers a subresource needs, and the document keeps every one', async ({ page, request }) => {
  const scripts: string[] = [];
  page.on('request', (r) => {
    if (r.resourceType() === 'script') scripts.push(r.url());
  });
  const response = await page.goto('/login');
  await expectNoA11yViolations(page);
  const documentHeaders = response?.headers() ?? {};
  expect(documentHeaders['content-security-policy']).toContain("frame-ancestors 'none'");
  expect(documentHeaders['x-frame-options']).toBe('DENY');
  expect(documentHeaders['referrer-policy']).toBe('strict-origin-when-cross-origin');
  expect(documentHeaders['x-content-type-options']).toBe('nosniff');

  expect(scripts.length).toBeGreaterThan(0);
  for (const url of [scripts[0], '/favicon.svg']) {
    const response = await request.get(url);
    expect(response.status(), url).toBe(200);
    const headers = response.headers();
    expect(headers['x-content-type-options'], url).toBe('nosniff');
    expect(headers['cross-origin-resource-policy'], url).toBe('same-origin');
    expect(headers['content-security-policy'], url).toBeUndefined();
    expect(headers['x-frame-options'], url).toBeUndefined();
  }
});
