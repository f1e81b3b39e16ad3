// English texts of the Settings tab: name, description, reminders, plan and ending the service (namespace `settingsTab`, loaded with the tab: ../tab.ts).
// The shape settings.lt.ts must match.

export const settingsTabEn = {
  serviceSettings: {
    generalTitle: 'Name and description',
    name: 'Service name',
    description: 'Description',
    saved: 'Saved.',
    updateFailed: 'Failed to update service',
    remindersTitle: 'Reminders',
    expiryReminders: 'Email me before this service expires',
    expiryRemindersHint: 'A reminder when it is about to expire, and another when it is critical.',
    renewalTitle: 'Automatic renewal',
    autoRenew: 'Renew this service automatically with my saved card',
    autoRenewHint:
      'The saved card is charged {{days}} days before the service ends, at the current price of its plan and period. Without a saved card nothing is charged.',
    configureFailed: 'Failed to configure service',
    loadFailed: 'Failed to load the service settings',
    planTitle: 'Plan',
    planBody: 'This service is on the {{plan}} plan. Change the plan, disk space or users on the plans page.',
    changePlan: 'Change plan',
    endTitle: 'End the service',
    endLead: 'Cancelling or terminating cannot be undone.',
    cancel: 'Cancel service',
    cancelHint: 'It stops now; its data is kept for {{days}} days, then deleted.',
    terminate: 'Terminate and delete data',
    terminateHint: 'It stops now and its data is deleted now.',
    keep: 'Keep the service',
    cancelConfirmTitle: 'Cancel {{name}}?',
    cancelConfirmBody:
      'It stops now: nothing is served and nobody can connect. Its data is kept until {{date}} and then deleted for good. A cancelled service cannot be extended or started again.',
    cancelling: 'Cancelling…',
    cancelFailed: 'Failed to cancel service',
    terminateConfirmTitle: 'Terminate {{name}}?',
    terminateConfirmBody:
      'It stops now and its data (files, users and shares) is deleted today, {{date}}, for good. This cannot be undone.',
    terminateTypeName: 'Type the service name to confirm',
    terminateNameMismatch: 'Type the name exactly as it is shown: {{name}}',
    terminating: 'Terminating…',
    terminateFailed: 'Failed to terminate service',
  },
};

export type SettingsTabMessages = typeof settingsTabEn;
