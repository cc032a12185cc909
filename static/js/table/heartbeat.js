/* The client's half of the socket heartbeat (docs/PROTOCOL.md "Heartbeat"). A socket that has
 * heard nothing for QUIET_MS sends a ping, which the server answers at once; one that has heard
 * nothing for SILENT_MS is stalled (a path that holds packets still looks open to the browser):
 * the caller drops it and reconnects. When the page's own timers ran late (a throttled background
 * tab), the silence is not judged on that tick: a ping goes out and its answer gets its time. */
const PING = '{"type":"ping"}';
export const QUIET_MS = 2500;
export const SILENT_MS = 6000;
const TICK_MS = 500;
const LATE_MS = 2000;

export function watch(ws, onSilent) {
  let heard = Date.now(), pingedAt = 0, lastTick = Date.now();
  const timer = setInterval(() => {
    const now = Date.now();
    if (ws.readyState !== 1) return;
    if (now - lastTick > TICK_MS + LATE_MS) heard = Math.max(heard, now - QUIET_MS);
    lastTick = now;
    const quiet = now - heard;
    if (quiet >= SILENT_MS) { clearInterval(timer); onSilent(); return; }
    if (quiet >= QUIET_MS && now - pingedAt >= QUIET_MS) { pingedAt = now; ws.send(PING); }
  }, TICK_MS);
  return {
    heard() { heard = Date.now(); },
    stop() { clearInterval(timer); },
  };
}
