// What `use-sync-external-store/shim` resolves to (vite.config.ts): react-i18next imports that
// shim, a copy of useSyncExternalStore for React before 18, which ships to every visitor although
// it only hands over to React's own when React has one, as React 19 does. ~0.6 KiB gzipped.
export { useSyncExternalStore } from 'react';
