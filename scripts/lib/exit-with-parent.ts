// Loaded into a product a test or benchmark starts (`--import`, startProduct): the product stops
// itself, as on SIGTERM, once the process that started it is gone. A test file's worker can end
// without its clean-up running (a hook that timed out while the product was still starting, a run
// interrupted with a signal); the product it started then kept running, with its node and
// daemons, and loaded every later suite on the machine. Node has no parent-death signal, so the
// product looks at its parent's pid: an orphan is adopted by another process and that pid changes.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) process.kill(process.pid, 'SIGTERM');
}, 1000).unref();
