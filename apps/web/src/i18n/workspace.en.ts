// English texts of a service's pages: the services list's notices, the service detail page and
// its tabs (overview, users and groups, Samba, settings), and the apply state every workspace
// resource shows (spec service-management §2–§5, §8). Loaded with those pages
// (workspace-messages.ts). The shape is the one workspace.lt.ts must match.

export const workspaceEn = {
  applyStatus: {
    applied: 'Applied',
    applying: 'Applying…',
    failed: 'Not applied',
    summaryApplying_one: '{{count}} change is being applied to your workspace…',
    summaryApplying_other: '{{count}} changes are being applied to your workspace…',
    summaryFailed_one: '{{count}} change could not be applied.',
    summaryFailed_other: '{{count}} changes could not be applied.',
    summaryApplied: 'All changes are applied.',
  },
  resource: {
    loading: 'Loading…',
    retry: 'Try again',
    edit: 'Edit',
    delete: 'Delete',
    deleting: 'Deleting…',
    save: 'Save',
    saving: 'Saving…',
    copy: 'Copy',
    copied: 'Copied',
    copyLabel: 'Copy {{what}}',
  },
  daemon: {
    serving: 'Serving',
    changes: 'Changes',
    stateServing: 'Yes: {{name}} is running and clients can connect',
    stateNotServing: 'No: {{name}} is set up but not running',
    stateNotServingReason: 'No: {{name}} is set up but not running ({{reason}})',
    stateFailed: 'No: {{name}} could not be started or changed',
    stateFailedReason: 'No: {{name}} could not be started or changed ({{reason}})',
    stateWaiting: 'Waiting for the storage node’s report',
    stateNotPlaced: 'Not placed on a storage node yet',
    stateRestarting: 'Not right now: the workspace is restarting',
    stateWorkspaceDown: 'No: the workspace is not running ({{state}})',
    stateNotNeeded: 'Not needed: {{reason}}',
    statusFailed: 'Failed to load the status of {{name}}',
    reload: 'Reload',
    reloading: 'Reloading…',
    reloaded: 'The {{name}} configuration was sent to the storage node again.',
    reloadFailed: 'Failed to reload {{name}}',
  },
  list: {
    filter: 'Filter by name',
    noMatch: 'Nothing matches “{{query}}”.',
    pagination: 'Pages',
    page: 'Page {{page}} of {{pages}}',
    previous: 'Previous',
    next: 'Next',
  },
  workspace: {
    nameHint:
      'Lower-case letters, numbers, hyphens and underscores; starts with a letter; up to 32 characters.',
  },
  daemonName: {
    samba: 'Samba file sharing',
    vpn: 'VPN',
    nfs: 'NFS',
    ftp: 'FTP',
    sftp: 'SFTP',
    ldap: 'LDAP directory',
    backup: 'Backups',
    'backup-clients': 'Device backups',
    storage: 'Storage',
    network: 'Network',
    users: 'Workspace users',
    'workspace-dir': 'Workspace folder',
  },
  goesDown: {
    intro: 'Everything it serves goes down:',
    samba_one: 'Samba: everyone connected to its {{count}} share at {{address}} is disconnected',
    samba_other: 'Samba: everyone connected to its {{count}} shares at {{address}} is disconnected',
    sambaAny: 'Samba: everyone connected to its shares at {{address}} is disconnected',
    vpn_one: 'VPN: the {{count}} session connected now ends',
    vpn_other: 'VPN: the {{count}} sessions connected now end',
    vpnAny: 'VPN: every session connected now ends',
    nfs_one: 'NFS: clients that mount its {{count}} export lose it',
    nfs_other: 'NFS: clients that mount its {{count}} exports lose them',
    nfsAny: 'NFS: clients that mount its exports lose them',
    ftp: 'FTP and SFTP: open sessions end and transfers under way stop',
    ldap: 'LDAP: its directory stops answering, so sign-ins that use it fail',
  },
  serviceState: {
    awaitingPayment: 'Awaiting payment',
    failed: 'Payment failed',
    preparing: 'Being set up',
    waitingForResources: 'Waiting for resources',
    active: 'Active',
    running: 'Running',
    restarting: 'Restarting…',
    degraded: 'Degraded',
    offline: 'Offline',
    stopped: 'Stopped',
    locked: 'Locked',
    cancelled: 'Cancelled',
    terminated: 'Terminated',
    connected: 'Connected',
  },
  serviceNotice: {
    extend: 'Extend',
    terminatesAt: 'Its data will be deleted on {{date}} unless you extend it.',
    expiringSoon_one: 'This service expires in {{count}} day.',
    expiringSoon_other: 'This service expires in {{count}} days.',
    critical_one: 'This service expires in {{count}} day. Extend it now to keep access to your data.',
    critical_other: 'This service expires in {{count}} days. Extend it now to keep access to your data.',
    awaitingPayment: 'This service is waiting for payment.',
    paymentFailed: 'The payment for this service failed.',
    retryPayment: 'Retry payment',
    retrying: 'Opening the payment page…',
    retryFailed: 'Failed to retry payment',
    processing: 'Your workspace is being set up. It is usually ready within a minute.',
    resourcePending:
      'Paid, but no storage is free right now. We try again every 2 minutes and let you know when it is ready.',
    offlineNotServing:
      'Offline: its shares are not being served right now, so nobody can connect. Restart the workspace on its overview to start it again; if it stays offline for more than a few minutes, contact support.',
    degradedNodeSilent:
      'Degraded: the storage node that holds this workspace has stopped answering. Its shares may still be served, but we cannot see them and changes wait until the node answers again. Your data is kept; a restart cannot help until then. If this lasts more than a few minutes, contact support.',
    degraded:
      'Degraded: its shares are served, but the latest change (such as a new disk size) could not be applied. Restart the workspace on its overview to try again; if it stays degraded, contact support.',
    stopped: 'Stopped: nothing is served and nobody can connect; its data is kept. Start it on its overview.',
    cancelled: 'Cancelled: nothing is served. Its data will be deleted for good on {{date}}.',
  },
  /**
   * The service's second copy on another node (GET /services/overview `replica`): where it is and
   * how fresh. `{{when}}` is a relative time ("12 seconds ago", "prieš 5 minutes").
   */
  replica: {
    place: 'on {{node}}',
    placeUnknown: 'on another node',
    inSync: 'Second copy {{place}}: in sync {{when}}',
    inSyncUnknown: 'Second copy {{place}}: in sync',
    syncing: 'Second copy {{place}}: being made',
    behind: 'Second copy {{place}}: behind, last in sync {{when}}',
    behindNever: 'Second copy {{place}}: behind, not in sync yet',
    justNow: 'just now',
  },
  serviceCard: {
    manage: 'Manage',
    applying: 'Applying changes…',
  },
  serviceDetail: {
    loading: 'Loading the service…',
    loadFailed: 'Failed to load service details',
    idMissing: 'Service ID is missing',
    backToServices: 'Back to services',
    tabs: 'Service sections',
  },
  network: {
    nodeOnlyTitle: 'Reachable only from this machine.',
    nodeOnly:
      'The storage node answers this workspace only from itself: VPN, Samba, NFS and FTP clients on other machines cannot connect, although the programs run.',
    howToOpen:
      'To open it, whoever runs the node sets AGENT_CLIENT_ROUTES to the client networks (0.0.0.0/0 for any) and starts the agent again (see the README).',
    routes: 'Clients can connect from {{routes}}.',
    vpnOnlyTitle: 'Connect the VPN first.',
    vpnOnly:
      'This plan has a NAT address: only the VPN answers on the workspace’s address. Samba, NFS, FTP, SFTP and LDAP answer inside the VPN, at {{address}}, once a VPN user is connected.',
    servingNodeOnly:
      'Yes, for this machine only: {{name}} runs, but clients on other machines cannot reach it',
    bandwidthTitle: 'Bandwidth this month',
    bandwidthLabel: 'Bandwidth used',
    bandwidthText: '{{used}} of {{limit}} ({{percent}}%)',
    bandwidthPeriod:
      'From {{start}} to {{end}}, both ways ({{received}} in, {{sent}} out); it starts again on {{end}}.',
    bandwidthWarning:
      '{{percent}}% used: once all of it is used, the network is slowed to {{rate}} Mbit/s until {{end}}. Files stay available.',
    throttled:
      'Used up: the network is slowed to {{rate}} Mbit/s each way until {{end}}. Files stay available; a larger plan brings more bandwidth.',
    notMeasured: 'Not measured yet: the service is not on a storage node.',
    loadFailed: 'Failed to load the bandwidth.',
  },
};

export type WorkspaceMessages = typeof workspaceEn;
