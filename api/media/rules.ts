import type { MediaKind } from '#contract/content-types';

const MB = 1024 * 1024;

interface KindRule {
  /** The sniffed MIME types accepted for the kind, each mapped to the type the file is served with. */
  mimes: Record<string, string>;
  maxBytes: number;
  /** How the refusal names the accepted formats. */
  formats: string;
  tooLarge: string;
}

/** What each kind of upload accepts: formats the browsers play or show, and a size that fits the kind. */
export const MEDIA_RULES: Record<MediaKind, KindRule> = {
  image: {
    mimes: {
      'image/jpeg': 'image/jpeg',
      'image/png': 'image/png',
      'image/apng': 'image/png',
      'image/webp': 'image/webp',
      'image/gif': 'image/gif',
    },
    maxBytes: 15 * MB,
    formats: 'a JPEG, PNG, WebP or GIF image',
    tooLarge: 'This file is too large. Images can be at most 15 MB.',
  },
  audio: {
    mimes: {
      'audio/mpeg': 'audio/mpeg',
      'audio/mp4': 'audio/mp4',
      'audio/x-m4a': 'audio/mp4',
      'audio/aac': 'audio/aac',
      'audio/wav': 'audio/wav',
      'audio/ogg': 'audio/ogg',
      'audio/ogg; codecs=opus': 'audio/ogg',
      'audio/flac': 'audio/flac',
    },
    maxBytes: 200 * MB,
    formats: 'an MP3, M4A, AAC, WAV, OGG or FLAC audio file',
    tooLarge: 'This file is too large. Audio files can be at most 200 MB.',
  },
  video: {
    mimes: {
      'video/mp4': 'video/mp4',
      'video/x-m4v': 'video/mp4',
      'video/quicktime': 'video/quicktime',
      'video/webm': 'video/webm',
    },
    maxBytes: 4 * 1024 * MB,
    formats: 'an MP4, MOV or WebM video',
    tooLarge: 'This file is too large. Videos can be at most 4 GB.',
  },
};

export const MAX_UPLOAD_BYTES = Math.max(...Object.values(MEDIA_RULES).map((rule) => rule.maxBytes));

export const mediaMessages = {
  noFile: 'Please choose a file to upload.',
  unreadableImage: "This image couldn't be read. Please upload a different file.",
  interrupted: 'The upload was interrupted. Please try again.',
} as const;

/** The refusal for a file whose content is not an accepted format (of the expected kind, when one is expected). */
export function unsupportedMessage(expected?: MediaKind) {
  if (expected) return `This file type isn't supported. Upload ${MEDIA_RULES[expected].formats}.`;
  const { image, audio, video } = MEDIA_RULES;
  return `This file type isn't supported. Upload ${image.formats}, ${audio.formats}, or ${video.formats}.`;
}

/** The kind and served type of a sniffed MIME type, or undefined when no kind accepts it. */
export function classify(sniffedMime: string | undefined): { kind: MediaKind; mime: string } | undefined {
  if (!sniffedMime) return undefined;
  for (const [kind, rule] of Object.entries(MEDIA_RULES) as [MediaKind, KindRule][]) {
    const mime = rule.mimes[sniffedMime];
    if (mime) return { kind, mime };
  }
  return undefined;
}
