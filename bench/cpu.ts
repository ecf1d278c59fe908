/** CPU time readings from /proc (Linux only), for the benchmark. */
import { execFileSync } from "node:child_process";
import fs from "node:fs";

let clockTicks = 100;
try {
  clockTicks = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
} catch {
  /* keep 100 */
}

/** CPU seconds (user + system) a process has used so far, from /proc (Linux only). */
export function cpuSeconds(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / clockTicks; // utime, stime
  } catch {
    return null;
  }
}

/** Busy CPU seconds of the whole machine (all cores), from /proc/stat (Linux only). */
export function machineBusySeconds(): number | null {
  try {
    const line = fs.readFileSync("/proc/stat", "utf8").split("\n")[0]!;
    const v = line.trim().split(/\s+/).slice(1).map(Number);
    const total = v.slice(0, 8).reduce((a, b) => a + b, 0); // user nice system idle iowait irq softirq steal
    return (total - v[3]! - v[4]!) / clockTicks;
  } catch {
    return null;
  }
}
