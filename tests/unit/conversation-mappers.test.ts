import { describe, expect, it } from 'vitest';
import { DEFAULT_AVATAR } from '~/utils/mappers';
import type { ConversationResponse, MessageResponse } from '#contract/messages';
import {
  findConversations,
  mapConversation,
  mapConversations,
  mapMessage,
  mergeMessages,
  removeMessage,
  upsertConversation,
  type Message,
} from '~/utils/messages';
import { MessageTextSchema } from '#contract/message-schemas';

const artist = { _id: 'a1', name: 'Nova', avatar: 'https://cdn.example/nova.jpg', username: 'nova' };

const withMessage: ConversationResponse = {
  _id: 'c1',
  lastMessage: 'See you in May',
  lastMessageCreatedAt: '2024-03-01T12:30:00.000Z',
  recipientInfo: artist,
  totalNotSeenMessages: 2,
};

describe('Conversation', () => {
  it('maps to id, recipient, numUnreadMessages and lastMessage { content, utcCreationTimestamp }', () => {
    expect(mapConversation(withMessage)).toEqual({
      id: 'c1',
      recipient: { id: 'a1', avatarUrl: 'https://cdn.example/nova.jpg', name: 'Nova', username: 'nova' },
      numUnreadMessages: 2,
      lastMessage: { content: 'See you in May', utcCreationTimestamp: Date.UTC(2024, 2, 1, 12, 30) },
      recipientReadAt: null,
      blocked: false,
    });
    expect(mapConversation({ ...withMessage, recipientReadAt: '2024-03-01T12:31:00.000Z' }).recipientReadAt).toBe(
      '2024-03-01T12:31:00.000Z',
    );
    // The artist blocks this conversation's fan: the page shows a line instead of the message box.
    expect(mapConversation({ ...withMessage, blocked: true }).blocked).toBe(true);
  });

  it('has no last message when none was sent, and the recipient gets the default avatar', () => {
    const empty = mapConversation({ _id: 'c2', recipientInfo: { ...artist, avatar: '' }, totalNotSeenMessages: 0 });
    expect(empty.lastMessage).toBeNull();
    expect(empty.recipient.avatarUrl).toBe(DEFAULT_AVATAR);
  });

  it('drops conversations without a last message from the list', () => {
    const list = mapConversations([
      withMessage,
      { _id: 'c2', recipientInfo: artist, totalNotSeenMessages: 0 },
      { ...withMessage, _id: 'c3' },
    ]);
    expect(list.map((c) => c.id)).toEqual(['c1', 'c3']);
  });

  it('keeps the newest activity first when an event updates or empties a conversation', () => {
    const older = mapConversation({ ...withMessage, _id: 'old', lastMessageCreatedAt: '2024-01-01T00:00:00.000Z' });
    const newer = mapConversation(withMessage);
    const bumped = mapConversation({ ...withMessage, _id: 'old', lastMessage: 'Back!', lastMessageCreatedAt: '2024-04-01T00:00:00.000Z' });
    expect(upsertConversation([newer, older], bumped).map((c) => [c.id, c.lastMessage?.content])).toEqual([
      ['old', 'Back!'],
      ['c1', 'See you in May'],
    ]);
    const emptied = mapConversation({ _id: 'c1', recipientInfo: artist, totalNotSeenMessages: 0 });
    expect(upsertConversation([newer, older], emptied).map((c) => c.id)).toEqual(['old']);
  });

  it('finds conversations by every word of the other member’s name or username, in the inbox’s order', () => {
    const fan = (id: string, name: string, username: string) =>
      mapConversation({ ...withMessage, _id: id, recipientInfo: { _id: id, name, username, avatar: '' } });
    const inbox = [fan('1', 'Ada Lovelace', 'ada'), fan('2', 'Grace Hopper', 'amazinggrace'), fan('3', 'Ada Hopper', 'hop')];
    expect(findConversations(inbox, '').map((c) => c.id)).toEqual(['1', '2', '3']);
    expect(findConversations(inbox, '  HOPPER ').map((c) => c.id)).toEqual(['2', '3']);
    expect(findConversations(inbox, 'ada hop').map((c) => c.id)).toEqual(['3']);
    expect(findConversations(inbox, 'grace').map((c) => c.id)).toEqual(['2']);
    expect(findConversations(inbox, 'nobody')).toEqual([]);
  });
});

const message = (id: string, createdAt: string, extra: Partial<MessageResponse> = {}): MessageResponse => ({
  _id: id,
  conversationId: 'c1',
  text: `text ${id}`,
  createdAt,
  senderInfo: { _id: 'f1', avatar: '', name: 'Fan', username: 'fan' },
  ...extra,
});

describe('Message', () => {
  it('maps the sender with the default avatar when it has none', () => {
    expect(mapMessage(message('m1', '2024-03-01T12:00:00.000Z'))).toEqual({
      id: 'm1',
      conversationId: 'c1',
      text: 'text m1',
      createdAt: '2024-03-01T12:00:00.000Z',
      sender: { id: 'f1', avatarUrl: DEFAULT_AVATAR, name: 'Fan', username: 'fan' },
    });
    const withAvatar = mapMessage(message('m2', '2024-03-01T12:00:00.000Z', { senderInfo: { ...artist } }));
    expect(withAvatar.sender.avatarUrl).toBe(artist.avatar);
  });

  it('merges events, refetches and older pages newest first, each message once', () => {
    const a = mapMessage(message('a', '2024-03-01T12:00:00.000Z'));
    const b = mapMessage(message('b', '2024-03-01T12:01:00.000Z'));
    const c = mapMessage(message('c', '2024-03-01T12:02:00.000Z'));
    const afterEvents = mergeMessages([], [b, c]);
    const afterRefetch = mergeMessages(afterEvents, [c, b, a]);
    expect(afterRefetch.map((m) => m.id)).toEqual(['c', 'b', 'a']);
    expect(removeMessage(afterRefetch, 'b').map((m) => m.id)).toEqual(['c', 'a']);
  });

  it('replaces the optimistic copy with the stored message, whichever arrives first', () => {
    const optimistic: Message = {
      ...mapMessage(message('pending:k1', '2024-03-01T12:05:00.000Z', { clientId: 'k1' })),
      pending: true,
    };
    const stored = mapMessage(message('m9', '2024-03-01T12:05:01.000Z', { clientId: 'k1' }));
    expect(mergeMessages([optimistic], [stored])).toEqual([stored]);
    expect(mergeMessages([stored], [optimistic])).toEqual([stored]);
  });
});

describe('message text', () => {
  it('is trimmed, required and at most 2000 characters', () => {
    expect(MessageTextSchema.parse('  hi  ')).toBe('hi');
    expect(MessageTextSchema.safeParse('   ').error?.issues[0].message).toBe('Please write a message.');
    expect(MessageTextSchema.safeParse(undefined).error?.issues[0].message).toBe('Please write a message.');
    expect(MessageTextSchema.safeParse('x'.repeat(2001)).error?.issues[0].message).toBe(
      'Your message is too long. Please keep it under 2000 characters.',
    );
    expect(MessageTextSchema.parse('x'.repeat(2000))).toHaveLength(2000);
  });
});
