// English texts of the public share-link page /s/{token} (namespace `sharePage`, loaded with the
// page: app/router.tsx). The shape share-page.lt.ts must match.

export const sharePageEn = {
  title: 'Shared with you',
  loading: 'Opening the link…',
  file: 'File',
  folder: 'Folder',
  size: 'Size',
  sizeAtLeast: 'at least {{size}}',
  modified: 'Modified',
  expires: 'Link expires',
  neverExpires: 'This link never expires.',
  downloadsLeft: 'Downloads left',
  download: 'Download',
  downloadZip: 'Download all as .zip',
  view: 'View in the browser',
  root: 'All files',
  name: 'Name',
  empty: 'This folder is empty.',
  truncated: 'Only the first {{count}} entries are shown. Download the folder as a .zip to get everything.',
  password: {
    title: 'This link is protected',
    lead: 'Enter the password its owner gave you.',
    label: 'Password',
    show: 'Show',
    hide: 'Hide',
    submit: 'Open',
    checking: 'Checking…',
    wait: 'Too many tries. Try again in {{seconds}} s.',
  },
  refusal: {
    share_link_not_found: 'Link not found',
    share_link_revoked: 'Link turned off',
    share_link_expired: 'Link expired',
    share_link_over_limit: 'Download limit reached',
    share_link_ip_refused: 'Not available from your network',
    share_link_unavailable: 'No longer available',
    node_unreachable: 'Temporarily unavailable',
    other: 'Something went wrong',
  },
  retry: 'Try again',
  poweredBy: 'Shared with Debesis',
};

export type SharePageMessages = typeof sharePageEn;
