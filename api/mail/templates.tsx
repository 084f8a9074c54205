import type { ReactElement } from 'react';
import { Action, Details, Layout, Link, Paragraph, Title, type Sender } from './layout.js';
import { possessive } from '#contract/names';

/**
 * Every mail Stagedoor sends, as react-email components: a subject and a body, rendered to HTML and text by
 * ./render.ts. Each takes plain values (amounts and dates already written out), so a template says nothing about
 * where they came from.
 */
export interface Template {
  subject: string;
  sender: Sender;
  body: ReactElement;
}

const STAGEDOOR: Sender = { name: 'Stagedoor' };

export interface ReceiptProps {
  artist: Sender;
  amount: string;
  listPrice: string;
  promo: string | null;
  card: string | null;
  date: string;
  /** When the membership renews (or ends, with renewal off). */
  nextRenewal: string;
  renewal: boolean;
  accountUrl: string;
}

export function receipt(p: ReceiptProps): Template {
  const rows: [string, string][] = [
    ['Fan club', p.artist.name],
    ['Amount paid', p.amount],
  ];
  if (p.promo) rows.push(['Promo code', `${p.promo} (list price ${p.listPrice})`]);
  if (p.card) rows.push(['Card', p.card]);
  rows.push(['Date', p.date], ['Renews on', p.nextRenewal]);
  return {
    subject: p.renewal ? `Your ${p.artist.name} membership renewed: receipt` : `Your receipt for ${possessive(p.artist.name)} fan club`,
    sender: p.artist,
    body: (
      <Layout
        sender={p.artist}
        preview={`${p.amount} paid on ${p.date}`}
        footer={`You get this receipt because you paid for ${possessive(p.artist.name)} fan club on Stagedoor.`}
      >
        <Title>{p.renewal ? 'Thanks for another year' : 'Welcome to the fan club'}</Title>
        <Paragraph>
          {p.renewal
            ? `Your yearly membership of ${possessive(p.artist.name)} fan club has renewed.`
            : `You are now a member of ${possessive(p.artist.name)} fan club.`}
        </Paragraph>
        <Details rows={rows} />
        <Paragraph>
          Your membership renews each year on {p.nextRenewal}. To cancel, turn renewal off on your membership page before then: you keep
          access until the end of the year you paid for. <Link href={p.accountUrl}>Manage your membership</Link>
        </Paragraph>
      </Layout>
    ),
  };
}

export function renewalReminder(p: { artist: Sender; amount: string; renewalDate: string; accountUrl: string }): Template {
  return {
    subject: `Your ${p.artist.name} membership renews on ${p.renewalDate}`,
    sender: p.artist,
    body: (
      <Layout
        sender={p.artist}
        preview={`${p.amount} on ${p.renewalDate}`}
        footer={`You get this reminder because your membership of ${possessive(p.artist.name)} fan club renews automatically.`}
      >
        <Title>Your membership renews in 7 days</Title>
        <Paragraph>
          On {p.renewalDate} we will charge {p.amount} to the card you paid with, for another year of {possessive(p.artist.name)} fan club.
        </Paragraph>
        <Paragraph>
          Nothing to do if you want to stay. If you do not, turn renewal off before then: you keep access until {p.renewalDate}.
        </Paragraph>
        <Action href={p.accountUrl}>Cancel or manage renewal</Action>
      </Layout>
    ),
  };
}

export function renewalFailed(p: {
  artist: Sender;
  amount: string;
  reason: string;
  /** When we try again; null when this was the last attempt and the membership has ended. */
  nextAttempt: string | null;
  accessUntil: string;
  accountUrl: string;
  subscribeUrl: string;
}): Template {
  return {
    subject: p.nextAttempt ? `We could not renew your ${p.artist.name} membership` : `Your ${p.artist.name} membership has ended`,
    sender: p.artist,
    body: (
      <Layout
        sender={p.artist}
        preview={p.reason}
        footer={`You get this mail because the yearly renewal of your ${p.artist.name} membership did not go through.`}
      >
        <Title>{p.nextAttempt ? 'Your renewal did not go through' : 'We could not renew your membership'}</Title>
        <Paragraph>
          We tried to charge {p.amount} for another year of {possessive(p.artist.name)} fan club. {p.reason}
        </Paragraph>
        {p.nextAttempt ? (
          <>
            <Paragraph>
              We will try again on {p.nextAttempt}, and you keep access meanwhile (until {p.accessUntil} at least). To fix it, make sure the
              card you paid with can be charged online, or ask your bank why it declined the payment.
            </Paragraph>
            <Action href={p.accountUrl}>See your membership</Action>
          </>
        ) : (
          <>
            <Paragraph>That was our last try, so your membership has ended. You can join again at any time with another card.</Paragraph>
            <Action href={p.subscribeUrl}>Join again</Action>
          </>
        )}
      </Layout>
    ),
  };
}

export function renewalChanged(p: { artist: Sender; autoRenew: boolean; date: string; amount: string; accountUrl: string }): Template {
  return {
    subject: p.autoRenew ? `Your ${p.artist.name} membership will renew` : `Your ${p.artist.name} membership will not renew`,
    sender: p.artist,
    body: (
      <Layout
        sender={p.artist}
        preview={p.autoRenew ? `Renews on ${p.date}` : `Access until ${p.date}`}
        footer={`You get this mail because the renewal of your ${p.artist.name} membership was changed.`}
      >
        <Title>{p.autoRenew ? 'Renewal is back on' : 'Your cancellation is confirmed'}</Title>
        <Paragraph>
          {p.autoRenew
            ? `Your membership of ${possessive(p.artist.name)} fan club renews on ${p.date} for ${p.amount}.`
            : `Your membership of ${possessive(p.artist.name)} fan club will not renew. You keep access until ${p.date}, and nothing more will be charged.`}
        </Paragraph>
        <Paragraph>
          Changed your mind? <Link href={p.accountUrl}>{p.autoRenew ? 'Turn renewal off' : 'Turn renewal back on'}</Link> on your membership
          page.
        </Paragraph>
      </Layout>
    ),
  };
}

export function membershipEnded(p: { artist: Sender; artistUrl: string }): Template {
  return {
    subject: `Your ${p.artist.name} membership has ended`,
    sender: p.artist,
    body: (
      <Layout
        sender={p.artist}
        preview="Your membership has ended"
        footer={`You get this mail because you were a member of ${possessive(p.artist.name)} fan club on Stagedoor.`}
      >
        <Title>Your membership has ended</Title>
        <Paragraph>
          {p.artist.name} ended your membership of their fan club today. It will not renew, and nothing more will be charged.
        </Paragraph>
        <Paragraph>
          Their public page is still at <Link href={p.artistUrl}>{p.artistUrl}</Link>.
        </Paragraph>
      </Layout>
    ),
  };
}

export function welcome(p: { artist: Sender; artistUrl: string; accountUrl: string }): Template {
  return {
    subject: `Welcome to ${possessive(p.artist.name)} fan club`,
    sender: p.artist,
    body: (
      <Layout
        sender={p.artist}
        preview="You are in: free membership"
        footer={`You get this mail because you joined ${possessive(p.artist.name)} fan club on Stagedoor.`}
      >
        <Title>You are in</Title>
        <Paragraph>
          Welcome to {possessive(p.artist.name)} fan club. Membership is free: read, listen, vote and message {p.artist.name} from their
          page.
        </Paragraph>
        <Action href={p.artistUrl}>Go to {possessive(p.artist.name)} page</Action>
        <Paragraph>
          We will tell you when {p.artist.name} posts. Choose how on your <Link href={p.accountUrl}>account page</Link>.
        </Paragraph>
      </Layout>
    ),
  };
}

export function passwordReset(p: { name: string; link: string }): Template {
  return {
    subject: 'Reset your Stagedoor password',
    sender: STAGEDOOR,
    body: (
      <Layout
        sender={STAGEDOOR}
        preview="Choose a new password within one hour"
        footer="You get this mail because someone asked to reset the password of your Stagedoor account."
      >
        <Title>Reset your password</Title>
        <Paragraph>
          Hi {p.name}, someone asked to reset the password of your Stagedoor account. If it was you, open this link within one hour to
          choose a new password:
        </Paragraph>
        <Action href={p.link}>Choose a new password</Action>
        <Paragraph>
          Or paste this address into your browser: <Link href={p.link}>{p.link}</Link>
        </Paragraph>
        <Paragraph>If it was not you, ignore this mail: your password stays as it is.</Paragraph>
      </Layout>
    ),
  };
}

export function passwordChanged(p: { name: string; date: string; resetUrl: string }): Template {
  return {
    subject: 'Your Stagedoor password was changed',
    sender: STAGEDOOR,
    body: (
      <Layout
        sender={STAGEDOOR}
        preview={`Changed on ${p.date}`}
        footer="You get this mail because the password of your Stagedoor account changed."
      >
        <Title>Your password was changed</Title>
        <Paragraph>
          Hi {p.name}, the password of your Stagedoor account was changed on {p.date}, and every device signed in with the old one was
          signed out.
        </Paragraph>
        <Paragraph>
          If it was not you, <Link href={p.resetUrl}>reset your password</Link> now and tell us by replying to this mail.
        </Paragraph>
      </Layout>
    ),
  };
}

/** Sent to a new address given in the account settings: the change happens when the link is opened. */
export function emailConfirm(p: { name: string; newEmail: string; link: string }): Template {
  return {
    subject: 'Confirm your new Stagedoor email address',
    sender: STAGEDOOR,
    body: (
      <Layout
        sender={STAGEDOOR}
        preview="Open the link within 24 hours"
        footer="You get this mail because someone asked to use this address for a Stagedoor account."
      >
        <Title>Confirm your new email address</Title>
        <Paragraph>
          Hi {p.name}, you asked to use {p.newEmail} for your Stagedoor account. Open this link within 24 hours to confirm it:
        </Paragraph>
        <Action href={p.link}>Confirm my new email address</Action>
        <Paragraph>
          Or paste this address into your browser: <Link href={p.link}>{p.link}</Link>
        </Paragraph>
        <Paragraph>If it was not you, ignore this mail: nothing changes.</Paragraph>
      </Layout>
    ),
  };
}

/** Sent to the old address when the email changes (PUT /users, or a confirmed change of the account settings). */
export function emailChanged(p: { name: string; newEmail: string; date: string; resetUrl: string }): Template {
  return {
    subject: 'The email address of your Stagedoor account was changed',
    sender: STAGEDOOR,
    body: (
      <Layout
        sender={STAGEDOOR}
        preview={`Now ${p.newEmail}`}
        footer="You get this mail at your previous address because the email of your Stagedoor account changed."
      >
        <Title>Your email address was changed</Title>
        <Paragraph>
          Hi {p.name}, on {p.date} the email address of your Stagedoor account was changed to {p.newEmail}. Mail about your account now goes
          there.
        </Paragraph>
        <Paragraph>
          If it was not you, <Link href={p.resetUrl}>reset your password</Link> and reply to this mail so we can help.
        </Paragraph>
      </Layout>
    ),
  };
}

export interface PostSummary {
  title: string;
  typeLabel: string;
  excerpt: string;
  url: string;
}

export function newPost(p: { artist: Sender; post: PostSummary; unsubscribeUrl: string; preferencesUrl: string }): Template {
  return {
    subject: `${p.artist.name}: ${p.post.title}`,
    sender: p.artist,
    body: (
      <Layout
        sender={p.artist}
        preview={p.post.excerpt || `New ${p.post.typeLabel.toLowerCase()} from ${p.artist.name}`}
        footer={`You get this mail because you are a member of ${possessive(p.artist.name)} fan club. Choose how you hear about new posts on your account page.`}
        unsubscribeUrl={p.unsubscribeUrl}
      >
        <Paragraph>
          New {p.post.typeLabel.toLowerCase()} from {p.artist.name}
        </Paragraph>
        <Title>{p.post.title}</Title>
        {p.post.excerpt ? <Paragraph>{p.post.excerpt}</Paragraph> : null}
        <Action href={p.post.url}>Open it</Action>
        <Paragraph>
          <Link href={p.preferencesUrl}>Notification settings</Link>
        </Paragraph>
      </Layout>
    ),
  };
}

export function digest(p: { artist: Sender; posts: PostSummary[]; unsubscribeUrl: string; preferencesUrl: string }): Template {
  const count = p.posts.length === 1 ? 'a new post' : `${p.posts.length} new posts`;
  return {
    subject: `${p.artist.name}: ${count} today`,
    sender: p.artist,
    body: (
      <Layout
        sender={p.artist}
        preview={p.posts.map((post) => post.title).join(' · ')}
        footer={`You get this daily digest because you are a member of ${possessive(p.artist.name)} fan club and chose one mail a day.`}
        unsubscribeUrl={p.unsubscribeUrl}
      >
        <Title>
          {p.artist.name} posted {count}
        </Title>
        {p.posts.map((post) => (
          <Paragraph key={post.url}>
            <Link href={post.url}>{post.title}</Link> · {post.typeLabel}
            {post.excerpt ? ` · ${post.excerpt}` : ''}
          </Paragraph>
        ))}
        <Paragraph>
          <Link href={p.preferencesUrl}>Notification settings</Link>
        </Paragraph>
      </Layout>
    ),
  };
}
