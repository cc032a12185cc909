/* One backoff policy for every socket a page opens (the table, the lobby, the pool, a tournament):
 * the first retry after about half a second, each next one twice as late, never later than 15
 * seconds, with ±20% jitter so the sockets a restart dropped do not all come back in one instant.
 * ``attempt`` counts the failures since the last open (0 for the first retry). */
export const FIRST_RETRY_MS = 500;
export const LATEST_RETRY_MS = 15000;

export function reconnectDelay(attempt) {
  return Math.min(LATEST_RETRY_MS, FIRST_RETRY_MS * Math.pow(2, attempt)) * (0.8 + Math.random() * 0.4);
}
