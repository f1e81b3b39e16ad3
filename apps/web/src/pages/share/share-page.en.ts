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
  link: 'Link',
  expiresAt: 'Expires {{date}}',
  neverExpires: 'Never expires',
  downloadsLeft: 'Downloads left',
  download: 'Download',
  downloadZip: 'Download all as .zip',
  view: 'View',
  viewShort: 'View',
  viewNamed: 'View {{name}}',
  breadcrumb: 'Where you are in the folder',
  name: 'Name',
  actions: 'Actions',
  empty: 'This folder is empty.',
  truncated:
    'This folder has more entries than can be listed; only the first {{count}} are shown. Download it as a .zip to get them all.',
  password: {
    title: 'This link is protected',
    lead: 'Enter the password the person who shared it gave you.',
    label: 'Password',
    show: 'Show',
    hide: 'Hide',
    submit: 'Open',
    checking: 'Checking…',
    wait: 'Too many tries. Please wait {{wait}} and try again.',
    cookies:
      'The password is right, but your browser did not keep it. Allow cookies for this site and try again.',
  },
  refusal: {
    share_link_not_found: 'Link not found',
    share_link_revoked: 'Link turned off',
    share_link_expired: 'Link expired',
    share_link_over_limit: 'Download limit reached',
    share_link_ip_refused: 'Not available from your network',
    share_link_unavailable: 'No longer available',
    node_unreachable: 'Temporarily unavailable',
    network_error: 'No connection',
    other: 'Something went wrong',
  },
  retry: 'Try again',
  retrying: 'Trying…',
};

export type SharePageMessages = typeof sharePageEn;
