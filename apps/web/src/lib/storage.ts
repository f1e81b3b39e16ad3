// localStorage can throw (privacy modes, quota, sandboxed frames). A preference that cannot be
// stored is simply forgotten on reload; it must never break the page.

export function readStorage(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function writeStorage(key: string, value: string): void {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    // Not storable: the choice lasts until reload.
  }
}

export function removeStorage(key: string): void {
  try {
    window.localStorage.removeItem(key);
  } catch {
    // Nothing stored that we could reach.
  }
}
