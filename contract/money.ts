/** Formats a yearly price in major units, e.g. 49.99 → "$49.99". */
export function formatPrice(amount: number, currency = 'usd') {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(amount);
}
