const escape = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The page behind a notification mail's unsubscribe link: served by the api itself, like the test gateway's
 * approval page, so the link works without logging in and without JavaScript. Opening it changes nothing (mail
 * scanners follow links); the button posts the form, which does.
 */
export function unsubscribePage(state: { email: string; artistName: string; done: boolean; action: string; accountUrl: string }) {
  const artist = escape(state.artistName);
  const body = state.done
    ? `<h1>You are unsubscribed</h1>
       <p><strong>${escape(state.email)}</strong> will get no more mail about new posts from <strong>${artist}</strong>.</p>
       <p>Your membership is unchanged. To get mail again, or a daily digest instead, open your <a href="${escape(state.accountUrl)}">account page</a>.</p>`
    : `<h1>Stop mail about ${artist}?</h1>
       <p><strong>${escape(state.email)}</strong> will get no more mail about new posts from <strong>${artist}</strong>. Your membership stays as it is.</p>
       <form method="post" action="${escape(state.action)}"><button type="submit">Unsubscribe</button></form>
       <p>Or choose a daily digest instead on your <a href="${escape(state.accountUrl)}">account page</a>.</p>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex">
<title>${state.done ? 'Unsubscribed' : 'Unsubscribe'} | Stagedoor</title>
<style>
body{margin:0;min-height:100vh;display:grid;place-items:center;background:#eef1f6;color:#13203a;font-family:system-ui,-apple-system,sans-serif}
main{max-width:26rem;margin:1rem;padding:2rem;background:#fff;border-radius:1rem;box-shadow:0 10px 30px rgba(0,0,0,.12);border-top:6px solid #f9ef1e}
h1{font-size:1.5rem;margin:0 0 .5rem}a{color:#2457d6}
button{width:100%;padding:.85rem 1rem;border-radius:999px;font-size:1rem;font-weight:600;cursor:pointer;background:#13203a;color:#fff;border:0}
button:focus-visible{outline:3px solid #2457d6;outline-offset:2px}
</style></head><body><main>${body}</main></body></html>`;
}
