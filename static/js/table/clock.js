/* The players' clocks as the table JSON states them at the server's time of the message. */
import { S } from "./state.js";

export function fmtClock(ms) {
  if (ms === null || ms === undefined) return "";
  ms = Math.max(0, ms);
  let s = Math.ceil(ms / 1000);
  const m = Math.floor(s / 60);
  s = s % 60;
  return m + ":" + (s < 10 ? "0" : "") + s;
}

/* A seat's time left now (null: no clock). */
export function clockMs(seat) {
  const cl = S.table && S.table.clocks;
  if (!cl) return null;
  const tc = S.table.time_control;
  if (tc && !tc.bank_seconds && !tc.increment_seconds) return null;
  const running = cl.running ? cl.running.indexOf(seat) >= 0 : (cl.to_act || []).indexOf(seat) >= 0;
  const deadline = cl.deadlines ? cl.deadlines[seat] : running ? cl.deadline : null;
  if (running && deadline) return deadline - (Date.now() + S.skew);
  if (cl.banks_ms && cl.banks_ms[seat] !== undefined && cl.banks_ms[seat] !== null) {
    if (running && S.table.status === "playing") return cl.banks_ms[seat] - (Date.now() - S.clockAt);
    return cl.banks_ms[seat];
  }
  return null;
}
