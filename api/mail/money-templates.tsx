import { Action, Details, Layout, Link, Paragraph, Title, type Sender } from './layout.js';
import type { Template } from './templates.js';
import { possessive } from '#contract/names';

/**
 * The mails about money after the first payment (docs/payments.md): trials, refunds, disputes and gifts. Like
 * ./templates.tsx, each takes plain values, amounts and dates already written out.
 */

const STAGEDOOR: Sender = { name: 'Stagedoor' };

export function trialStarted(p: { artist: Sender; trialEnds: string; amount: string; card: string | null; accountUrl: string }): Template {
  const rows: [string, string][] = [
    ['Fan club', p.artist.name],
    ['Free until', p.trialEnds],
    ['Then', `${p.amount} a year`],
  ];
  if (p.card) rows.push(['Card', p.card]);
  return {
    subject: `Your free trial of ${possessive(p.artist.name)} fan club has started`,
    sender: p.artist,
    body: (
      <Layout
        sender={p.artist}
        preview={`Free until ${p.trialEnds}, then ${p.amount} a year`}
        footer={`You get this mail because you started a free trial of ${possessive(p.artist.name)} fan club on Stagedoor.`}
      >
        <Title>Your free trial has started</Title>
        <Paragraph>
          Everything in {possessive(p.artist.name)} fan club is yours until {p.trialEnds}. Nothing has been charged. On {p.trialEnds} we
          charge {p.amount} for the first year, and we remind you three days before.
        </Paragraph>
        <Details rows={rows} />
        <Paragraph>
          Not for you? Cancel before {p.trialEnds} and you pay nothing. <Link href={p.accountUrl}>Manage your membership</Link>
        </Paragraph>
      </Layout>
    ),
  };
}

export function trialEnding(p: { artist: Sender; trialEnds: string; amount: string; accountUrl: string }): Template {
  return {
    subject: `Your free trial of ${possessive(p.artist.name)} fan club ends on ${p.trialEnds}`,
    sender: p.artist,
    body: (
      <Layout
        sender={p.artist}
        preview={`${p.amount} on ${p.trialEnds} unless you cancel`}
        footer={`You get this reminder because your free trial of ${possessive(p.artist.name)} fan club ends soon.`}
      >
        <Title>Your free trial ends in 3 days</Title>
        <Paragraph>
          On {p.trialEnds} we will charge {p.amount} to the card you gave, for the first year of {possessive(p.artist.name)} fan club.
        </Paragraph>
        <Paragraph>Nothing to do if you want to stay. If you do not, cancel before then and nothing is charged.</Paragraph>
        <Action href={p.accountUrl}>Cancel or manage your membership</Action>
      </Layout>
    ),
  };
}

export function refund(p: {
  artist: Sender;
  amount: string;
  paid: string;
  reason: string;
  date: string;
  /** The membership ended with the refund. */
  accessEnded: boolean;
  accountUrl: string;
  subscribeUrl: string;
}): Template {
  return {
    subject: `${p.artist.name} refunded ${p.amount}`,
    sender: p.artist,
    body: (
      <Layout
        sender={p.artist}
        preview={`${p.amount} back to your card`}
        footer={`You get this mail because a payment you made to ${possessive(p.artist.name)} fan club was refunded.`}
      >
        <Title>You have been refunded</Title>
        <Paragraph>
          {p.amount} of the {p.paid} you paid is on its way back to the card you paid with. Banks take 5 to 10 days to show it.
        </Paragraph>
        <Details
          rows={[
            ['Fan club', p.artist.name],
            ['Refunded', p.amount],
            ['Reason', p.reason],
            ['Date', p.date],
          ]}
        />
        {p.accessEnded ? (
          <>
            <Paragraph>Your membership has ended with the refund, and nothing more will be charged.</Paragraph>
            <Action href={p.subscribeUrl}>Join again</Action>
          </>
        ) : (
          <Paragraph>
            Your membership carries on as it was. <Link href={p.accountUrl}>See your membership</Link>
          </Paragraph>
        )}
      </Layout>
    ),
  };
}

export function disputeOpened(p: { artistName: string; fan: string; amount: string; date: string; earningsUrl: string }): Template {
  return {
    subject: `A fan disputed a payment of ${p.amount}`,
    sender: STAGEDOOR,
    body: (
      <Layout
        sender={STAGEDOOR}
        preview={`${possessive(p.fan)} bank is looking into a payment`}
        footer={`You get this mail because you run ${possessive(p.artistName)} fan club on Stagedoor.`}
      >
        <Title>A payment is disputed</Title>
        <Paragraph>
          {p.fan} asked their bank to take back the {p.amount} they paid on {p.date}. Their access is paused while the bank decides: it
          comes back if the dispute is decided in your favour, and ends if not (the money then goes back to the fan).
        </Paragraph>
        <Action href={p.earningsUrl}>See your earnings</Action>
      </Layout>
    ),
  };
}

export function gift(p: { artist: Sender; from: string; message: string; redeemUrl: string; expiresNote: string }): Template {
  return {
    subject: `${p.from} gave you a year of ${possessive(p.artist.name)} fan club`,
    sender: p.artist,
    body: (
      <Layout
        sender={p.artist}
        preview={p.message || `A year of ${possessive(p.artist.name)} fan club, from ${p.from}`}
        footer={`You get this mail because ${p.from} bought you a gift membership on Stagedoor.`}
      >
        <Title>A gift for you</Title>
        <Paragraph>
          {p.from} gave you a year of {possessive(p.artist.name)} fan club: every post, the vault and messages with {p.artist.name}.
        </Paragraph>
        {p.message ? <Paragraph>“{p.message}”</Paragraph> : null}
        <Action href={p.redeemUrl}>Open your gift</Action>
        <Paragraph>
          With an account or without one: the link lets you make one in a minute. {p.expiresNote} The gift lasts a year and never renews by
          itself, so nobody is charged again.
        </Paragraph>
      </Layout>
    ),
  };
}

export function giftReceipt(p: { artist: Sender; amount: string; recipient: string; date: string; card: string | null }): Template {
  const rows: [string, string][] = [
    ['Gift', `A year of ${possessive(p.artist.name)} fan club`],
    ['For', p.recipient],
    ['Amount paid', p.amount],
  ];
  if (p.card) rows.push(['Card', p.card]);
  rows.push(['Date', p.date]);
  return {
    subject: `Your receipt: a year of ${possessive(p.artist.name)} fan club for ${p.recipient}`,
    sender: p.artist,
    body: (
      <Layout
        sender={p.artist}
        preview={`${p.amount} paid on ${p.date}`}
        footer={`You get this receipt because you bought a gift membership of ${possessive(p.artist.name)} fan club on Stagedoor.`}
      >
        <Title>Thank you for your gift</Title>
        <Paragraph>
          We have sent {p.recipient} a mail with a link to their year of {possessive(p.artist.name)} fan club. It never renews, so nothing
          more is charged.
        </Paragraph>
        <Details rows={rows} />
      </Layout>
    ),
  };
}
