export async function measureRealtime() {
  return { checks: [] };
}
export function realtimeTables() {
  return [];
}
