// Public share links (service-management §3 "Public share link", §7 "Share links", §9 expiry
// choices; docs/features/share-links.md): a link anyone may open without an account, to one file or
// folder of a workspace's storage.
//
// Owner routes, base /api/v1/shares/{serviceId}:
//   GET, POST shares                      list / create (201)
//   DELETE shares/{id}                    the link and its access log go (204)
//   POST shares/{id}/revoke               it stops working at once (its downloads in flight too)
//   GET shares/{id}/access-logs           who tried it, when, and what they got
//   GET storage?path                      beyond the spec: one folder of the storage, to pick a
//                                         custom path from (never typed as a host path)
//
// Public routes, base /api/v1/public/shares/{token} (no sign-in; the web page is /s/{token}):
//   GET ?path                             what is shared (a folder's entries; `path` inside it)
//   POST unlock                           the link's password: a grant cookie for this link
//   GET, HEAD download?path&inline        the file (Range, If-Range), or a folder as a zip
//
// A link's token has 256 random bits; the API keeps its SHA-256 (to find it) and a copy
// encrypted with a key of the server's (to show the owner the URL again), never the token itself.
import { z } from 'zod';
import { text } from '../../strings.ts';
import { workspaceServiceParamsSchema } from '../users/directory.ts';
import {
  STORAGE_LISTING_MAX,
  sharedSubPathSchema,
  storageEntrySchema,
  storagePathProblem,
  storagePathSchema,
} from './share-links-node.ts';

/** What a link shares: a Samba share, an NFS export, or a file or folder of the storage. */
export const SHARE_LINK_TYPES = ['samba', 'nfs', 'path'] as const;
export type ShareLinkType = (typeof SHARE_LINK_TYPES)[number];

/** The spec's expiry choices (§9). */
export const SHARE_LINK_EXPIRIES = ['1h', '24h', '7d', '30d', 'permanent'] as const;
export type ShareLinkExpiry = (typeof SHARE_LINK_EXPIRIES)[number];
export const SHARE_LINK_EXPIRY_SECONDS: Record<ShareLinkExpiry, number | null> = {
  '1h': 3600,
  '24h': 86_400,
  '7d': 7 * 86_400,
  '30d': 30 * 86_400,
  permanent: null,
};

export const SHARE_LINK_STATES = ['active', 'revoked', 'expired'] as const;
export type ShareLinkState = (typeof SHARE_LINK_STATES)[number];

/**
 * What a visitor's attempt got, as the access log records it. `served`: a download sent to its
 * end (the only result the download limit counts, and only when it reached the file's last byte);
 * `incomplete`: cut before its end; `viewed`: the link's page was opened; `unlocked`: the right
 * password. The rest are refusals, each with its own page.
 */
export const SHARE_LINK_ACCESS_RESULTS = [
  'viewed',
  'unlocked',
  'served',
  'incomplete',
  'wrong_password',
  'ip_refused',
  'expired',
  'revoked',
  'over_limit',
  'rate_limited',
  'not_found',
] as const;
export type ShareLinkAccessResult = (typeof SHARE_LINK_ACCESS_RESULTS)[number];

export const SHARE_LINK_PASSWORD_MIN = 8;
export const SHARE_LINK_PASSWORD_MAX = 128;
export const SHARE_LINK_DOWNLOAD_LIMIT_MAX = 1_000_000;
/** IP rules per list (allow, deny). */
export const SHARE_LINK_IP_RULES_MAX = 100;
/** Links per service. */
export const SHARE_LINKS_PER_SERVICE = 500;
/** Access-log entries kept per link; older ones are dropped as new ones come. */
export const SHARE_LINK_ACCESS_LOG_KEPT = 10_000;

const IPV4 = z.ipv4();
const IPV6 = z.ipv6();
const CIDRV4 = z.cidrv4();
const CIDRV6 = z.cidrv6();

/** An IPv6 address as a 128-bit number (z.ipv6 checked it already). */
function ipv6Value(address: string): bigint {
  const [head = '', tail] = address.split('::');
  const groups = (part: string) => (part === '' ? [] : part.split(':'));
  const expand = (part: string[]) =>
    part.flatMap((group) => {
      if (!group.includes('.')) return [group];
      // An IPv4 tail (::ffff:192.0.2.1) is two groups.
      const [a = 0, b = 0, c = 0, d = 0] = group.split('.').map(Number);
      return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
    });
  const left = expand(groups(head));
  const right = tail === undefined ? [] : expand(groups(tail));
  const middle = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...middle, ...right].reduce((sum, group) => (sum << 16n) | BigInt(`0x${group}`), 0n);
}

/**
 * Why `rule` cannot be an IP rule (a field code), or undefined when it can: an IPv4 or IPv6
 * address, or a network of either (`192.168.1.0/24`, `2001:db8::/32`) with no host bits set.
 */
export function ipRuleProblem(rule: string): 'share_ip_rule_invalid' | 'share_ip_rule_host_bits' | undefined {
  if (IPV4.safeParse(rule).success || IPV6.safeParse(rule).success) return undefined;
  const [address = '', length = ''] = rule.split('/');
  if (!/^\d{1,3}$/.test(length) || (length.length > 1 && length.startsWith('0')))
    return 'share_ip_rule_invalid';
  if (CIDRV4.safeParse(rule).success) {
    const value = address.split('.').reduce((sum, part) => sum * 256 + Number(part), 0);
    return value % 2 ** (32 - Number(length)) === 0 ? undefined : 'share_ip_rule_host_bits';
  }
  if (CIDRV6.safeParse(rule).success && IPV6.safeParse(address).success) {
    const hostBits = 128n - BigInt(length);
    return ipv6Value(address) % (1n << hostBits) === 0n ? undefined : 'share_ip_rule_host_bits';
  }
  return 'share_ip_rule_invalid';
}

export const ipRuleSchema = text()
  .trim()
  .max(64, 'share_ip_rule_invalid')
  .superRefine((rule, context) => {
    const problem = ipRuleProblem(rule);
    if (problem) context.addIssue({ code: 'custom', message: problem });
  });

const ipRulesSchema = z.array(ipRuleSchema).max(SHARE_LINK_IP_RULES_MAX, 'share_ip_rules_too_many');

export const createShareLinkRequestSchema = z
  .object({
    type: z.enum(SHARE_LINK_TYPES),
    /**
     * `samba`: the share's name; `nfs`: the export's path; `path`: a file or folder from the
     * storage's root (`home/alice/report.pdf`), picked with GET storage.
     */
    target: text().trim().min(1, 'required').max(1024),
    /** The owner's own name for it (shown in the list, never to visitors). */
    label: text().trim().max(100).optional(),
    expiry: z.enum(SHARE_LINK_EXPIRIES),
    /** Absent: anyone with the link may open it. */
    password: text()
      .min(SHARE_LINK_PASSWORD_MIN, 'password_too_short')
      .max(SHARE_LINK_PASSWORD_MAX, 'password_too_long')
      .optional(),
    /** Completed downloads allowed; absent or null: no limit. */
    download_limit: z
      .number({ error: 'not_integer' })
      .int('not_integer')
      .min(1, 'share_download_limit_invalid')
      .max(SHARE_LINK_DOWNLOAD_LIMIT_MAX, 'above_max')
      .nullable()
      .optional(),
    /** Addresses and networks that may open it; empty: any (but the deny list). */
    ip_allow: ipRulesSchema.default([]),
    /** Addresses and networks that may not, whatever the allow list says. */
    ip_deny: ipRulesSchema.default([]),
  })
  .superRefine((request, context) => {
    if (request.type !== 'path') return;
    const problem = storagePathProblem(request.target);
    if (problem) context.addIssue({ code: 'custom', path: ['target'], message: problem });
  });
export type CreateShareLinkRequest = z.input<typeof createShareLinkRequestSchema>;

export const shareLinkParamsSchema = workspaceServiceParamsSchema.extend({
  id: z.uuid({ error: 'invalid_format' }),
});

export const shareLinkSchema = z.object({
  id: text(),
  type: z.enum(SHARE_LINK_TYPES),
  target: text(),
  label: text().nullable(),
  /** A Samba share or NFS export is a folder; a custom path, what it was when the link was made. */
  item_type: z.enum(['file', 'folder']),
  /** The link to hand out; null when the server's key changed since (make a new link). */
  url: text().nullable(),
  expiry: z.enum(SHARE_LINK_EXPIRIES),
  /** Null: permanent. */
  expires_at: text().nullable(),
  has_password: z.boolean(),
  download_limit: z.number().int().nullable(),
  /** Completed downloads (the limit's count). */
  downloads: z.number().int(),
  ip_allow: z.array(text()),
  ip_deny: z.array(text()),
  state: z.enum(SHARE_LINK_STATES),
  /** Active, but its downloads are used up: visitors get the over-limit page. */
  limit_reached: z.boolean(),
  created_at: text(),
  revoked_at: text().nullable(),
  last_access_at: text().nullable(),
});
export type ShareLink = z.infer<typeof shareLinkSchema>;

export const shareLinksResponseSchema = z.object({ links: z.array(shareLinkSchema) });
export type ShareLinksResponse = z.infer<typeof shareLinksResponseSchema>;

export const shareLinkAccessLogQuerySchema = z.object({
  result: z.enum(SHARE_LINK_ACCESS_RESULTS).optional(),
  /** An address, or the start of one (`192.168.`). */
  ip: text().trim().max(64).optional(),
  skip: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type ShareLinkAccessLogQuery = z.input<typeof shareLinkAccessLogQuerySchema>;

export const shareLinkAccessEntrySchema = z.object({
  id: text(),
  at: text(),
  ip: text(),
  user_agent: text(),
  result: z.enum(SHARE_LINK_ACCESS_RESULTS),
  /** Bytes sent to the visitor (a download; 0 otherwise). */
  bytes_sent: z.number().int(),
  /** What inside the link was asked for ('' the link's item itself); null when nothing was. */
  path: text().nullable(),
});
export type ShareLinkAccessEntry = z.infer<typeof shareLinkAccessEntrySchema>;

export const shareLinkAccessLogResponseSchema = z.object({
  entries: z.array(shareLinkAccessEntrySchema),
  /** Entries matching the filters, for "Page X of Y (N total)". */
  total: z.number().int(),
});
export type ShareLinkAccessLogResponse = z.infer<typeof shareLinkAccessLogResponseSchema>;

export const storageBrowseQuerySchema = z.object({ path: storagePathSchema.default('') });
export const storageListingSchema = z.object({
  path: text(),
  entries: z.array(storageEntrySchema).max(STORAGE_LISTING_MAX),
  truncated: z.boolean(),
});
export type StorageListing = z.infer<typeof storageListingSchema>;

// ---- Public ----

/** A link's token as it appears in its URL (a wrong shape is simply not found). */
export const publicShareParamsSchema = z.object({ token: text().max(200) });
export const publicShareQuerySchema = z.object({ path: sharedSubPathSchema.default('') });
export const publicShareDownloadQuerySchema = publicShareQuerySchema.extend({
  /** `1`: shown in the browser (images, audio, video, PDF, plain text only); else an attachment. */
  inline: z.enum(['0', '1']).optional(),
});

/** What a visitor sees of a link they may open. */
export const publicShareSchema = z.object({
  /** The shared item's name (the file's or folder's own). */
  name: text(),
  item_type: z.enum(['file', 'folder']),
  /** Where in a shared folder this is ('' the folder itself). */
  path: text(),
  /** What `path` is: a file's bytes, or a folder with its entries. */
  type: z.enum(['file', 'folder']),
  size: z.number().int(),
  size_complete: z.boolean(),
  modified_at: text(),
  entries: z.array(storageEntrySchema).max(STORAGE_LISTING_MAX),
  truncated: z.boolean(),
  expires_at: text().nullable(),
  /** Completed downloads left under the link's limit; null: no limit. */
  downloads_left: z.number().int().nullable(),
  has_password: z.boolean(),
});
export type PublicShare = z.infer<typeof publicShareSchema>;

export const publicShareUnlockRequestSchema = z.object({
  password: text().min(1, 'required').max(SHARE_LINK_PASSWORD_MAX, 'password_too_long'),
});
export const publicShareUnlockResponseSchema = z.object({
  ok: z.literal(true),
  /** When the grant (a cookie for this link only) runs out: then the password is asked again. */
  expires_at: text(),
});

/** The public page's path of a link, and its API base (the download and unlock calls). */
export const SHARE_LINK_PAGE_PATH = '/s/';
export const PUBLIC_SHARES_API_PATH = '/api/v1/public/shares/';
