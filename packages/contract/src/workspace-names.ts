// The name rule of workspace users, groups, shares, VPN users and backup clients, in a module of
// its own so the contract's node-side files can share it without importing each other.

/**
 * Names of workspace users, groups and shares (service-management §5): letters, numbers, hyphens
 * and underscores. They become Unix and Samba names, so they also start with a letter, are at
 * most 32 characters and are compared in lower case (Unix names are case-sensitive, Samba's are
 * not: "Alice" and "alice" would be one Samba user).
 */
export const WORKSPACE_NAME_PATTERN = /^[a-z][a-z0-9_-]{0,31}$/;
