// The sensor-board firmware on MicroPython (its WebAssembly build), stepped by the host.
//
// Usage: node run.mjs FIRMWARE_DIR. The firmware's modules are copied into MicroPython's
// own file system as the package `firmware`, as on the board; then the first stdin line
// sets up hardware/firmware/lockstep.py's driver and every next line is one request,
// answered by one line on stdout. MicroPython's own prints go to stderr.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";

const firmwareDir = process.argv[2];
const mp = await loadMicroPython({
  stdout: (line) => process.stderr.write(line + "\n"),
  stderr: (line) => process.stderr.write(line + "\n"),
});
mp.FS.mkdir("/firmware");
for (const name of readdirSync(firmwareDir)) {
  if (name.endsWith(".py")) {
    mp.FS.writeFile(`/firmware/${name}`, readFileSync(join(firmwareDir, name)));
  }
}
mp.runPython("import sys\nsys.path.append('/')\nfrom firmware import lockstep");
const lockstep = mp.globals.get("lockstep");
let handle = null;
try {
  for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
    if (handle === null) {
      // The bound method taken once: each `driver.handle` makes a proxy that holds it in
      // MicroPython's heap until node's own collector runs, which grew that heap by
      // 30 bytes a step.
      handle = lockstep.from_line(line).handle;
      process.stdout.write("{}\n");
    } else {
      process.stdout.write(handle(line) + "\n");
    }
  }
} catch (error) {
  // A Python exception: its traceback, then its last line alone, which the host reports.
  const lines = String(error?.message ?? error).trim().split("\n");
  process.stderr.write(lines.join("\n") + "\n" + lines[lines.length - 1] + "\n");
  process.exit(1);
}
