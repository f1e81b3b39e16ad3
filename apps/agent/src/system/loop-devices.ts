// Which loop devices are attached to a file, from /sys (no program): after an unmount the kernel
// detaches an autoclear device on its own, and any device still attached means someone (another
// mount namespace) still holds the file system.
import { readdir, readFile } from 'node:fs/promises';

export async function loopDevicesOf(file: string): Promise<string[]> {
  const names = await readdir('/sys/block').catch(() => [] as string[]);
  const devices: string[] = [];
  for (const name of names.filter((n) => n.startsWith('loop'))) {
    const backing = await readFile(`/sys/block/${name}/loop/backing_file`, 'utf8').catch(() => '');
    if (backing.trim().replace(/ \(deleted\)$/, '') === file) devices.push(`/dev/${name}`);
  }
  return devices;
}
