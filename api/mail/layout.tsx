// Each component from its own package: the @react-email/components barrel also loads Tailwind and a code highlighter
// we do not use, about 32 MB of the server's resident memory from start-up.
import { Body } from '@react-email/body';
import { Button } from '@react-email/button';
import { Container } from '@react-email/container';
import { Head } from '@react-email/head';
import { Heading } from '@react-email/heading';
import { Hr } from '@react-email/hr';
import { Html } from '@react-email/html';
import { Img } from '@react-email/img';
import { Link } from '@react-email/link';
import { Preview } from '@react-email/preview';
import { Section } from '@react-email/section';
import { Text } from '@react-email/text';
import type { ReactNode } from 'react';

/** Who a mail comes from in the fan's eyes: the artist (name and image) or, for account mail, Stagedoor itself. */
export interface Sender {
  name: string;
  /** Absolute URL of the artist's image, if they have one. */
  imageUrl?: string | null;
}

const colors = { navy: '#0b1630', yellow: '#f9ef1e', text: '#1f2937', muted: '#6b7280', rule: '#e5e7eb' };

/**
 * The frame every mail shares: the sender's image and name on the dark navy band with the yellow accent (the look
 * of the fan-facing pages), the content, and a footer saying why the fan gets this mail and, for notifications, a visible
 * unsubscribe link that works without logging in.
 */
export function Layout(props: { sender: Sender; preview: string; children: ReactNode; footer: string; unsubscribeUrl?: string }) {
  return (
    <Html lang="en">
      <Head />
      <Preview>{props.preview}</Preview>
      <Body style={{ backgroundColor: '#f3f4f6', fontFamily: 'Helvetica, Arial, sans-serif', margin: 0, padding: '24px 0' }}>
        <Container style={{ backgroundColor: '#ffffff', maxWidth: 560, borderRadius: 8, overflow: 'hidden' }}>
          <Section style={{ backgroundColor: colors.navy, padding: '20px 24px', borderBottom: `4px solid ${colors.yellow}` }}>
            {props.sender.imageUrl ? (
              <Img
                src={props.sender.imageUrl}
                alt=""
                width="48"
                height="48"
                style={{ borderRadius: 24, display: 'inline-block', verticalAlign: 'middle' }}
              />
            ) : null}
            <Text
              style={{
                color: '#ffffff',
                fontSize: 18,
                fontWeight: 700,
                display: 'inline-block',
                margin: '0 0 0 12px',
                verticalAlign: 'middle',
              }}
            >
              {props.sender.name}
            </Text>
          </Section>
          <Section style={{ padding: '8px 24px 24px', color: colors.text }}>{props.children}</Section>
          <Hr style={{ borderColor: colors.rule, margin: 0 }} />
          <Section style={{ padding: '16px 24px' }}>
            <Text style={{ color: colors.muted, fontSize: 12, margin: 0 }}>{props.footer}</Text>
            {props.unsubscribeUrl ? (
              <Text style={{ color: colors.muted, fontSize: 12, margin: '8px 0 0' }}>
                <Link href={props.unsubscribeUrl} style={{ color: colors.muted, textDecoration: 'underline' }}>
                  Unsubscribe from mail about {props.sender.name}
                </Link>
              </Text>
            ) : null}
          </Section>
        </Container>
      </Body>
    </Html>
  );
}

export function Title({ children }: { children: ReactNode }) {
  return <Heading style={{ fontSize: 22, lineHeight: '28px', margin: '16px 0 8px' }}>{children}</Heading>;
}

export function Paragraph({ children }: { children: ReactNode }) {
  return <Text style={{ fontSize: 15, lineHeight: '22px', margin: '8px 0' }}>{children}</Text>;
}

/** The one thing the mail asks the fan to do. */
export function Action({ href, children }: { href: string; children: ReactNode }) {
  return (
    <Section style={{ margin: '16px 0' }}>
      <Button
        href={href}
        style={{ backgroundColor: colors.yellow, color: colors.navy, fontWeight: 700, padding: '12px 20px', borderRadius: 6 }}
      >
        {children}
      </Button>
    </Section>
  );
}

/** Label and value lines (a receipt's details). */
export function Details({ rows }: { rows: [string, string][] }) {
  return (
    <Section style={{ margin: '12px 0', border: `1px solid ${colors.rule}`, borderRadius: 6, padding: '4px 16px' }}>
      {rows.map(([label, value]) => (
        <Text key={label} style={{ fontSize: 14, margin: '8px 0' }}>
          <span style={{ color: colors.muted }}>{label}: </span>
          <strong>{value}</strong>
        </Text>
      ))}
    </Section>
  );
}

export { Link };
