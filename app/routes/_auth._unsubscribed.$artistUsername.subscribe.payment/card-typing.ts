import type { FormEvent } from 'react';

const digitsOf = (text: string) => text.replace(/\D/g, '');

/** A card number as it is typed: digits only, in groups of four (4242 4242 4242 4242), up to 19 digits. */
export function formatCardNumber(text: string) {
  return digitsOf(text)
    .slice(0, 19)
    .replace(/(\d{4})(?=\d)/g, '$1 ');
}

/**
 * An expiry as it is typed: the slash comes by itself after the month, so a numeric keypad (which has none) can
 * enter "1234" as 12/34; a first digit above 1 is a month of its own (4 → 04).
 */
export function formatExpiry(text: string) {
  let digits = digitsOf(text);
  if (/^[2-9]/.test(digits)) digits = `0${digits}`;
  digits = digits.slice(0, 4);
  return digits.length > 2 ? `${digits.slice(0, 2)}/${digits.slice(2)}` : digits;
}

/**
 * An input handler that writes the field back formatted and keeps the caret after the same digits, so a fan can
 * correct a digit in the middle. Without JavaScript the field keeps what was typed and the schema reads it all the same.
 */
export function formatAsTyped(format: (text: string) => string) {
  return (event: FormEvent<HTMLInputElement>) => {
    const input = event.currentTarget;
    const formatted = format(input.value);
    if (formatted === input.value) return;
    const caret = input.selectionStart ?? input.value.length;
    const added = Math.max(0, digitsOf(formatted).length - digitsOf(input.value).length);
    const digitsBefore = digitsOf(input.value.slice(0, caret)).length + added;
    input.value = formatted;
    let position = 0;
    for (let seen = 0; position < formatted.length && seen < digitsBefore; position++) if (/\d/.test(formatted[position] ?? '')) seen++;
    input.setSelectionRange(position, position);
  };
}
