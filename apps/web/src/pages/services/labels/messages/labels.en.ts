// English texts of the Labels tab (namespace `labelsTab`, loaded with the tab).
export const labelsTabEn = {
  title: 'Labels',
  lead: 'Key=value pairs to group and find your services by, such as env=prod or team=finance. Only you see them; the service itself does not change.',
  counter: '{{count}} of {{limit}}',
  add: 'Add label',
  empty: 'No labels yet.',
  loadFailed: 'Failed to load labels',
  key: 'Key',
  keyHint: 'Lower-case letters, digits, dots, hyphens and underscores, such as env or team.name',
  value: 'Value',
  valueHint: 'Letters, digits, dots, hyphens and underscores; may be left empty',
  noValue: '(empty)',
  createTitle: 'Add a label',
  editTitle: 'Change label {{name}}',
  create: 'Add label',
  createFailed: 'Failed to add the label',
  updateFailed: 'Failed to change the label',
  deleteTitle: 'Remove label {{name}}?',
  deleteBody: 'The service will no longer be found by this label.',
  deleteFailed: 'Failed to remove the label',
};

export type LabelsTabMessages = typeof labelsTabEn;
