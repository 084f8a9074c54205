/**
 * The names of the events on the realtime connection (socket.io), as the api emits them and the web listens: one
 * small module, since every signed-in page's top bar listens for the unread badges. The payloads are typed beside
 * what they carry (MessageCreatedEvent in messages.ts, NotificationResponse in notifications.ts).
 */

/** Message events, pushed to the rooms of both members of the conversation. */
export const RealtimeEvent = {
  /** Sent by the client after a reconnect, with the session token. */
  login: 'auth/login',
  messageCreated: 'message/created',
  messageDeleted: 'message/deleted',
  conversationRead: 'conversation/read',
  unreadTotal: 'messages/unread-total',
  /** { artistId, conversationId, blocked }: to a fan whom an artist has blocked or unblocked, so their open page updates. */
  blockChanged: 'moderation/block-changed',
} as const;

/** The bell's events, pushed to the fan's room. */
export const NotificationEvent = {
  /** { total }: the fan's unread in-app notifications, on connecting and after every change. */
  unreadTotal: 'notifications/unread-total',
  /** { notification }: a new in-app notification, as GET /notifications lists it. */
  created: 'notifications/new',
} as const;
