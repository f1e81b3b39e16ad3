// English texts of the public site's pages: about, contact, FAQ, documentation, privacy, terms
// and the three solution pages (spec accounts-ordering-billing §1-2). Loaded with those pages
// (public-messages.ts), not with the home page. The shape is the one public.lt.ts must match.

export const publicEn = {
  common: {
    seePlans: 'See plans',
    contactUs: 'Contact us',
    readDocs: 'Read the documentation',
    onThisPage: 'On this page',
    lastUpdated: 'Last updated: 1 January 2026',
  },
  about: {
    title: 'About Debesis',
    lead: 'We are a data-center company that has been running servers for Lithuanian businesses since 2007. Debesis is how we offer that experience as a service you can order in minutes.',
    storyTitle: 'Our story',
    story1:
      'We started in 2007 with a few racks of servers and a promise to our first customers: their data would be looked after as carefully as our own. Since then we have hosted file servers, mail and websites for companies of every size.',
    story2:
      'Over the years the same questions kept coming back: how can a small team share files safely, reach them from home and never lose them? Debesis is our answer: a private workspace with {{features}}, running on our own hardware and managed by you from one dashboard.',
    // {{features}} in story2: the shipped ones of storyParts, as a list.
    storyParts: { samba: 'shared drives', vpn: 'VPN', backups: 'backups' },
    factsTitle: 'Debesis in numbers',
    factYears: 'Running servers since',
    factYearsValue: '2007',
    factBackups: 'Automatic backups kept for',
    factBackupsValue: '7 days',
    factDrives: 'Drives of up to',
    factDrivesValue: '16 TB',
    factSupport: 'Support on the larger plans',
    factSupportValue: '24/7',
    valuesTitle: 'What we care about',
    valueSafetyTitle: 'Your data stays yours',
    valueSafetyBody:
      'Every workspace has its own storage, its own address and its own services. Nothing is shared with other customers, and we never look into your files.',
    valueEuTitle: 'Hosted in the EU',
    valueEuBody:
      'Your data is kept in our data center in Lithuania, under EU data-protection law, on hardware we own and operate ourselves.',
    valuePeopleTitle: 'People who answer',
    valuePeopleBody:
      'When you write to us, an engineer who knows the system reads your message. We reply within 24 hours, and much sooner on working days.',
    ctaTitle: 'Want to know more?',
    ctaBody: 'Tell us what your team needs and we will suggest the right plan.',
  },
  contact: {
    title: 'Contact us',
    lead: 'Questions about plans, moving your data or a service you already have? Write to us and an engineer will answer.',
    replyPromise: 'We reply within 24 hours.',
    hoursTitle: 'Business hours',
    hours: 'Monday–Friday, 9:00–18:00 EET',
    hoursNote: 'Customers on the OPTIMIZED and BIG ONE plans have 24/7 support for outages.',
    emailTitle: 'Email',
    formTitle: 'Send us a message',
    name: 'Your name',
    email: 'Email address',
    subject: 'Subject',
    message: 'Message',
    messageHint: 'At least 10 characters. Please do not send passwords.',
    submit: 'Send message',
    submitting: 'Sending…',
    sentTitle: 'Thank you, your message has been sent',
    sentBody: 'We have received your message and will reply to {{email}} within 24 hours.',
    sendAnother: 'Send another message',
    failed: 'Your message could not be sent. Please try again later, or email us at {{email}}.',
    failedNoAddress: 'Your message could not be sent. Please try again later, or email our support team.',
    tooMany:
      'You have sent several messages in a short time. Please try again later, or email us at {{email}}.',
  },
  faq: {
    title: 'Frequently asked questions',
    lead: 'Short answers to what people ask us most. Cannot find yours? Contact us.',
    items: {
      whatIs: {
        q: 'What exactly do I get with a plan?',
        // {{services}}: the shipped ones of serviceParts; aBackups follows once backups ship.
        a: 'A private workspace on our servers: storage with a fixed size, a number of users, an IP address, and the services to reach your files: {{services}}.',
        serviceParts: {
          samba: 'Samba (Windows and macOS sharing)',
          nfs: 'NFS',
          ftp: 'FTP/SFTP',
          vpn: 'OpenVPN',
        },
        aBackups: 'Daily backups are included.',
      },
      setupTime: {
        q: 'How soon can I use my workspace?',
        a: 'After the card payment the workspace is usually ready within a minute. If no capacity is free at that moment, the system keeps trying every 2 minutes and emails you when it is ready.',
      },
      backups: {
        q: 'Are my files backed up?',
        a: 'Yes. We back up every workspace automatically every day and keep those backups for 7 days. You can add your own schedules too: daily, weekly or monthly, with your own retention.',
      },
      grow: {
        q: 'Can I change my plan later?',
        a: 'Yes. You can upgrade at any time and pay only the prorated difference for the rest of your billing period. A downgrade is possible if your current users and files fit the smaller plan.',
      },
      where: {
        q: 'Where is my data kept?',
        a: 'In our own data center in Lithuania, inside the European Union. Your data is not copied outside the EU.',
      },
      devices: {
        q: 'Which devices can connect?',
        a: 'Any computer with Windows, macOS or Linux. Our documentation shows how to connect from each of them.',
        aMobile: 'Phones and tablets connect through OpenVPN and SFTP apps.',
      },
      payment: {
        q: 'How do I pay, and do I get invoices?',
        a: 'You pay by card. Every payment produces an invoice you can view and download as a PDF in the billing section. Longer billing periods come with a discount.',
      },
      expiry: {
        q: 'What happens if I do not renew?',
        a: 'An expired service stops giving access, but your data is kept for a grace period. Extend the service during that time to regain access; after it, the data is deleted.',
      },
      cancel: {
        q: 'Can a business account be turned back into a personal one?',
        a: 'No. Converting a personal account to a business account is permanent. Business details can be corrected by our support team.',
      },
    },
  },
  docs: {
    title: 'Documentation',
    lead: 'How to connect to your workspace. Your workspace’s address, users and shares are on its page in the dashboard.',
    placeholders:
      'In the examples, replace ADDRESS with your workspace’s IP address, SHARE with the name of a share and USER with one of your workspace users.',
    smb: {
      title: 'Samba (SMB) shares',
      intro:
        'Samba is the file sharing built into Windows and macOS. Create a share and give your users permissions in the Samba tab, then connect:',
      windowsTitle: 'Windows',
      windows:
        'Open File Explorer, right-click “This PC” and choose “Map network drive”. Pick a drive letter, enter the folder below, tick “Connect using different credentials” and sign in with your workspace user’s name and password.',
      macTitle: 'macOS',
      mac: 'In Finder choose Go → Connect to Server (⌘K), enter the address below and choose Connect. Sign in as a “Registered User” with your workspace user’s name and password.',
      linuxTitle: 'Linux',
      linux:
        'Install the cifs-utils package, then mount the share. To try it without mounting, smbclient lists and copies files.',
    },
    nfs: {
      title: 'NFS exports',
      intro:
        'NFS suits Linux servers that need the files as a local folder. In the NFS tab, create an export and allow your server’s IP address or network (for example a /24 range), with read-only or read/write access. Then, on the server:',
      fstab: 'To mount it at every start, add this line to /etc/fstab:',
    },
    ftp: {
      title: 'FTP and SFTP',
      intro:
        'Use SFTP whenever you can: it is encrypted and works through most firewalls. FTP is there for older devices such as scanners and cameras; it uses explicit TLS (FTPS) when the client supports it.',
      clients:
        'In FileZilla, WinSCP or Cyberduck, create a new site with protocol SFTP, host ADDRESS, port 22 and your workspace user’s name and password. For FTP, choose FTP with “explicit TLS”, port 21. From a terminal:',
      permissions:
        'Each user’s access (read/write or read only) is set in the FTP tab and applies to both FTP and SFTP.',
    },
    vpn: {
      title: 'VPN (OpenVPN)',
      intro:
        'The VPN puts your computer inside your workspace’s private network, so shares can be reached safely from anywhere. In the VPN tab, add a VPN user and download its profile (a .ovpn file). Each person should have their own profile.',
      desktop:
        'Windows and macOS: install OpenVPN Connect, choose “Import profile”, select the .ovpn file and connect. Phones and tablets: open the .ovpn file with the OpenVPN Connect app.',
      linux: 'Linux: import the profile into NetworkManager, or start it from a terminal:',
      revoke:
        'If a laptop is lost, delete or disable that VPN user: its profile stops working at once, and active sessions are disconnected.',
    },
    backups: {
      title: 'How backups work',
      automatic:
        'Automatic backups: we back up every workspace every day and keep each backup for 7 days. You do not need to set anything up; they protect you against mistakes and hardware failures.',
      ownTitle: 'Your own schedules',
      own: 'In the Backups tab you can add your own schedules for the folders that matter most: Samba shares, users’ home folders or NFS exports. Choose how often a backup runs and how many full and incremental backups to keep. The presets are:',
      presetDaily: 'Daily at 2:00',
      presetWeekly: 'Weekly on Sunday at 2:00',
      presetMonthly: 'Monthly on the 1st at 2:00',
      restore:
        'The history shows every backup with its type (full or incremental), status, size and number of files. You can browse a backup and restore single files or whole folders, run a schedule now, or pause and resume it.',
      subusers:
        'If someone else looks after your backups, create a subuser for them: a limited account that can only reach the backup functions, with optional two-factor authentication.',
    },
  },
  privacy: {
    title: 'Privacy policy',
    lead: 'What personal data Debesis keeps, why, for how long, and what you can ask of us.',
    sections: {
      controller: {
        title: 'Who we are',
        body: 'Debesis (UAB „Debesis“, Vilnius, Lithuania) is the controller of the personal data described here. You can reach us through the contact page or by email to our support address.',
      },
      data: {
        title: 'What we keep',
        body: 'Your account details (name, email address, country, and company details for business accounts), your billing information and invoices, sign-in and management history (time, action and IP address), and messages you send us. We do not read the files stored in your workspace.',
      },
      purposes: {
        title: 'Why we keep it',
        body: 'To provide the service you ordered, to bill for it as the law requires, to keep your account secure (for example by detecting unusual sign-ins), and to answer your questions.',
      },
      cookies: {
        title: 'Cookies and analytics',
        body: 'Necessary browser storage keeps you signed in, protects forms against forgery and remembers your language, theme and cookie choice. Only if you choose “Accept all” do we also count page views and a few clicks, such as on our calls to action, to improve the site. These counts hold no name, no account and no IP address, and are kept on our own servers. You can change your choice at any time with “Cookie settings” at the bottom of every page.',
      },
      retention: {
        title: 'How long we keep it',
        body: 'Account data for as long as your account exists; invoices for 10 years, as Lithuanian accounting law requires. Contact messages for {{contactMonths}} months, so that we can follow up on them, and analytics counts for {{analyticsMonths}} months; older ones are deleted automatically.',
      },
      rights: {
        title: 'Your rights',
        body: 'You may ask to see, correct or delete your data, to receive it in a portable form, or to object to its use. You may also complain to the State Data Protection Inspectorate of Lithuania (vdai.lrv.lt).',
      },
      processors: {
        title: 'Who else sees it',
        body: 'Our card payment provider processes your payment details; we never see or keep your full card number. We do not sell personal data and do not share it for advertising.',
      },
    },
  },
  terms: {
    title: 'Terms of service',
    lead: 'The agreement between you and Debesis when you order and use a workspace.',
    sections: {
      service: {
        title: 'The service',
        body: 'Debesis provides hosted storage and network access (a workspace) of the size, number of users and features of the plan you choose. The workspace is ready after payment, usually within a minute.',
      },
      account: {
        title: 'Your account',
        body: 'You are responsible for keeping your password and your workspace users’ passwords safe, and for what is done with your account. A personal account can be converted to a business account; the conversion cannot be undone.',
      },
      payment: {
        title: 'Payment and renewal',
        body: 'Prices are shown before you pay and include VAT where it applies. You pay in advance for the billing period you choose; longer periods are discounted. Upgrades are charged for the rest of the current period; a downgrade gives no credit back if you upgrade again later.',
      },
      expiry: {
        title: 'Expiry and deletion',
        body: 'An unpaid or expired service is suspended and then quarantined. During quarantine your data is kept and you can extend the service; after the date shown in the dashboard the service is terminated and its data deleted.',
      },
      use: {
        title: 'Acceptable use',
        body: 'Do not use the service for anything illegal, to store or spread malware, to attack other systems or to infringe others’ rights. We may suspend a service that endangers other customers or our network, and will tell you why.',
      },
      availability: {
        title: 'Your data and availability',
        body: 'We look after the servers and the network your workspace runs on. We are not liable for data you delete or overwrite yourself: keep your own copy of data you cannot afford to lose.',
      },
      backups: {
        title: 'Backups',
        body: 'We keep automatic daily backups for 7 days. We are not liable for data you delete yourself after the backups that held it have expired; keep your own schedules for data you must keep longer.',
      },
      law: {
        title: 'Law and disputes',
        body: 'These terms are governed by the law of the Republic of Lithuania. We try to solve every problem together first; please contact us before starting a dispute.',
      },
    },
  },
  solutions: {
    whatYouGet: 'What you get',
    goodFor: 'Good for',
    ctaTitle: 'Ready to start?',
    ctaBody: 'Choose a plan and your workspace is usually ready within a minute.',
    secureAccess: {
      title: 'Secure access',
      lead: 'Reach your company’s files from home, the office or the road, through your own encrypted VPN.',
      features: {
        vpn: 'An OpenVPN server of your own, with a profile for each person',
        revoke: 'Disable a lost laptop’s access in one click; its sessions end at once',
        sessions: 'See who is connected right now and how much traffic they used',
        log: 'Every sign-in and change recorded in the activity log',
        ldap: 'Users and groups kept in one directory (LDAP) for all services',
      },
      useCases: {
        remote: 'Teams that work from home part of the week',
        field: 'Staff who travel and need files on the road',
        contractors: 'Giving a contractor access for a few weeks only',
      },
    },
    teamDrive: {
      title: 'Team drive',
      lead: 'One shared drive for the whole team, with the permissions you decide, that works like a local folder.',
      features: {
        samba: 'Samba shares that open in Windows Explorer and macOS Finder',
        permissions: 'Read, write and admin permissions per user and per group',
        nfsFtp: 'The same files over NFS for servers and SFTP for apps',
        links: 'Share links with expiry, password and download limits',
        portal: 'A portal where each user changes their own password',
        log: 'Every change to users, groups and shares recorded in the activity log',
      },
      useCases: {
        office: 'Offices replacing an old file server or NAS',
        agencies: 'Design and engineering teams with large files',
        accounting: 'Accounting firms keeping client folders apart',
      },
    },
    businessStorage: {
      title: 'Business storage',
      lead: 'Storage that grows with your business, from 3 GB to 2 TB in the standard plans and drives of up to 16 TB.',
      features: {
        sizes: 'Plans from Starter (3 GB) to BIG ONE (2 TB), with extra storage on demand',
        backups: 'Automatic daily backups kept for 7 days, plus your own schedules',
        dedicatedIp: 'A dedicated IP address from the MINI plan up',
        overview: 'Usage and service state at a glance in the dashboard',
        invoices: 'Invoices with your company and VAT details for every payment',
      },
      useCases: {
        archive: 'Keeping project archives and documents for years',
        secondCopy: 'A second, safe copy of your own servers’ data',
        growing: 'Companies that expect their data to grow',
      },
    },
  },
};

export type PublicMessages = typeof publicEn;
