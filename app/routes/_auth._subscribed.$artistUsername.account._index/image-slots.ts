/** The artist's four images, each its own file field of the images form (PUT /performers/me/images). */
export const IMAGE_SLOTS = [
  { name: 'avatar', label: 'Avatar' },
  { name: 'cover', label: 'Cover' },
  { name: 'heroImage', label: 'Hero image' },
  { name: 'headlineImage', label: 'Headline image' },
] as const;

export type ImageSlot = (typeof IMAGE_SLOTS)[number]['name'];
