import { describe, expect, it } from 'vitest';
import {
  CONTENT_TYPE_LABELS,
  CONTENT_TYPES,
  itemViewForMedia,
  POSTS_FILTERS,
  POSTS_TYPES,
  typesForPostsFilters,
  VAULT_CATEGORIES,
} from '#contract/content-types';

describe('content types', () => {
  it('has the nine vault categories and five other types', () => {
    expect(VAULT_CATEGORIES).toEqual([
      'demo',
      'unreleased',
      'voicenote',
      'session',
      'videoMessage',
      'musicVideo',
      'behindTheScenes',
      'live',
      'tourDiary',
    ]);
    expect(CONTENT_TYPES.slice(9)).toEqual(['photo', 'post', 'poll', 'ticketPresale', 'announcement']);
  });
  it('shows the display labels exactly as the spec lists them, in order', () => {
    expect(CONTENT_TYPES.map((type) => CONTENT_TYPE_LABELS[type])).toEqual([
      'Demo',
      'Unreleased',
      'Voice Note',
      'Session',
      'Video Message',
      'Music Video',
      'Behind The Scenes',
      'Live',
      'Tour Diary',
      'Photo',
      'Post',
      'Poll',
      'Ticket Presale',
      'Announcement',
    ]);
  });
});

describe('posts filters', () => {
  it('are the five values of the search parameter', () => {
    expect(POSTS_FILTERS).toEqual(['Post', 'Poll', 'Tour Diary', 'Ticket Presale', 'Announcement']);
  });
  it('map to content types; Post covers text and image posts', () => {
    expect(typesForPostsFilters(['Post'])).toEqual(['post', 'photo']);
    expect(typesForPostsFilters(['Tour Diary', 'Announcement'])).toEqual(['tourDiary', 'announcement']);
    expect(typesForPostsFilters(['Ticket Presale', 'Poll'])).toEqual(['ticketPresale', 'poll']);
  });
  it('mean every posts type when none (or only unknown ones) are chosen', () => {
    expect(typesForPostsFilters([])).toEqual(POSTS_TYPES);
    expect(typesForPostsFilters(['Nope'])).toEqual(POSTS_TYPES);
    expect(POSTS_TYPES).toEqual(['post', 'photo', 'poll', 'tourDiary', 'ticketPresale', 'announcement']);
  });
});

describe('item view (vault/{id}?type=)', () => {
  it('follows the media', () => {
    expect(itemViewForMedia('audio')).toBe('audio');
    expect(itemViewForMedia('video')).toBe('video');
    expect(itemViewForMedia('image')).toBe('photo');
    expect(itemViewForMedia(null)).toBe('post');
  });
});
