/** The setup's two images (PUT /performers/me/images names them avatar and cover). */
export const ART_SLOTS = [
  { name: 'avatar', label: 'Picture', hint: 'Square works best: it sits beside your name and your posts.' },
  { name: 'cover', label: 'Cover', hint: 'Wide, across the top of your club page.' },
] as const;

export type ArtSlot = (typeof ART_SLOTS)[number]['name'];
