// English texts of the plan picker (/auth/plans, /pricing). Loaded with that page
// (plans-messages.ts), not with the home page. The shape is the one plans.lt.ts must match.

export const plansEn = {
  planPicker: {
    title: 'Choose your plan',
    lead: 'Pick a plan, then set the storage, users and billing period you need. Longer periods cost less.',
    loading: 'Loading plans…',
    loadFailed: 'The plans could not be loaded.',
    retry: 'Try again',
    empty: 'No plans are on sale right now.',
    perMonth: 'per month, excl. VAT',
    storage: 'Storage',
    users: 'Users',
    address: 'Address',
    support: 'Support',
    addressType: { nat: 'NAT IP', dedicated: 'Dedicated IP' },
    addresses: {
      title: 'NAT IP or dedicated IP',
      nat: 'The workspace shares its public address with others. From outside it is reachable only through its VPN: connected, you use its shares inside the VPN.',
      dedicated:
        'The workspace has a public address of its own. Besides the VPN, it can publish shares directly on that address.',
    },
    supportType: { email: 'Email', priority: 'Priority', '24/7': '24/7' },
    choose: 'Choose {{name}}',
    chooseShort: 'Choose',
    chosen: 'Chosen',
    configure: {
      title: 'Configure {{name}}',
      loading: 'Loading the plan’s options…',
      loadFailed: 'The plan’s options could not be loaded.',
      disk: 'Disk space (GB)',
      diskHint: '{{included}} included; add more in steps of {{step}}, up to {{max}}.',
      diskPrice: 'Each extra {{step}}: {{price}} a month, excl. VAT.',
      bandwidth: 'Bandwidth: {{amount}} GB (twice the disk space)',
      users: 'Users',
      usersHint: '{{included}} included; up to {{max}}.',
      usersPrice_one: 'Each extra user: {{price}} a month, excl. VAT.',
      usersPrice_other: 'Each extra {{count}} users: {{price}} a month, excl. VAT.',
      period: 'Billing period',
      discount: '−{{rate}}',
      noDiscount: 'No discount',
    },
    months_one: '{{count}} month',
    months_other: '{{count}} months',
    displayName_one: '{{name}} — {{disk}} GB Storage, {{count}} User',
    displayName_other: '{{name}} — {{disk}} GB Storage, {{count}} Users',
    breakdown: {
      title: 'Price',
      basePrice: 'Base price ({{months}})',
      options: 'Additional resources',
      periodSubtotal: 'Period subtotal',
      discount: 'Period discount ({{rate}})',
      subtotal: 'Subtotal after discount',
      credit: 'Account credit used',
      vatRate: 'VAT rate',
      vatAmount: 'VAT',
      total: 'Total',
      totalExclVat: 'Total excl. VAT',
      exclVat: 'excl. VAT',
      exclVatNote: 'VAT is added at checkout, once we know your country.',
      vatCountry: 'VAT for {{country}}.',
      reverseCharge:
        'Reverse charge: no VAT is charged; VAT is accounted for by you as the recipient (Article 196, Directive 2006/112/EC).',
      outsideScope: 'Outside the scope of EU VAT: no VAT is charged.',
      /** Why a business's price is not reverse-charged (vat_reason, vat_number_check). */
      noReverseCharge: {
        domestic:
          'Lithuanian VAT is charged: the reverse charge applies only to businesses in other EU countries.',
        noNumber:
          'VAT is charged because your company details have no VAT number. A business outside Lithuania with a valid EU VAT number is reverse-charged; contact support to add yours.',
        format:
          'VAT is charged because your VAT number is not a valid number of your company’s country, so the reverse charge cannot apply.',
        viesInvalid:
          'VAT is charged because the EU VIES register does not confirm your VAT number as valid, so the reverse charge cannot apply.',
        viesUnavailable:
          'VAT is charged because the EU VIES register did not answer just now, so your VAT number could not be confirmed. Once it answers again, new orders are reverse-charged.',
      },
      checking: 'Checking the price…',
      confirmed: 'Price confirmed',
      unconfirmed: 'The price could not be confirmed right now; it is checked again at checkout.',
      invalid: 'Fix the highlighted fields to see the price.',
    },
    continue: 'Continue',
  },
};

export type PlansMessages = typeof plansEn;
