// What other modules may read of a workspace's users and groups (LDAP, Samba, NFS, FTP, the
// Linux-user portal, monitoring), on the handle they give: their transaction or the database.
import type { Db } from '../../db/database.ts';
import { createDirectoryQueries } from './directory.queries.ts';

export function createDirectoryReader(db: Db) {
  const queries = createDirectoryQueries(db);
  return {
    usersNamed: (serviceId: string, names: string[]) => queries.usersNamed(serviceId, names),
    /** Every user of the service, by name. */
    listUsers: (serviceId: string) => queries.listUsers(serviceId),
    /** One user by name (names are lower case: the name rule) or by id, with its password hashes. */
    findUser: (serviceId: string, name: string) => queries.findUser(serviceId, name.toLowerCase()),
    findUserById: (serviceId: string, id: string) => queries.findUserById(serviceId, id),
    findAccountUser: (accountId: string, id: string) => queries.findAccountUser(accountId, id),
    /** The groups a user is in, its primary group first. */
    async groupsOf(serviceId: string, userId: string): Promise<string[]> {
      const [memberships, groups] = [
        await queries.membershipsOfUser(userId),
        await queries.listGroups(serviceId),
      ];
      return memberships
        .toSorted((a, b) => Number(b.primary) - Number(a.primary))
        .flatMap((member) => groups.find((group) => group.id === member.groupId)?.name ?? []);
    },
    groupsNamed: (serviceId: string, names: string[]) => queries.groupsNamed(serviceId, names),
    /** The service's users by name: id, name, active (LDAP's flags name them). */
    users: async (serviceId: string) =>
      (await queries.listUsers(serviceId)).map(({ id, name, active }) => ({ id, name, active })),
    /** How many of the service's users are active (the plan-change fit check). */
    countActiveUsers: (serviceId: string) => queries.countActiveUsers(serviceId),
    /** Names of the service's users and groups by id. */
    async names(serviceId: string): Promise<{ users: Map<string, string>; groups: Map<string, string> }> {
      const [users, groups] = [await queries.listUsers(serviceId), await queries.listGroups(serviceId)];
      return {
        users: new Map(users.map((user) => [user.id, user.name])),
        groups: new Map(groups.map((group) => [group.id, group.name])),
      };
    },
  };
}
export type DirectoryReader = ReturnType<typeof createDirectoryReader>;
