# syntax=docker/dockerfile:1
# A storage node's agent in a container: the agent plus every program its drivers run inside the
# workspaces (docs/operations/storage-nodes.md). Built from the repository root:
#   docker build -f deploy/docker/agent.Dockerfile -t debesis/agent .
#
# RIGHTS. The agent must run as root with nearly the host's powers, because a workspace is a light
# container the agent makes itself:
#   - CAP_SYS_ADMIN: loop-mounting each workspace's ext4 image, `unshare -m` / `nsenter` into mount
#     and network namespaces, tmpfs and bind mounts inside them, `ip netns add`;
#   - CAP_NET_ADMIN: veth pairs, addresses, routes, policy rules and the per-interface forwarding
#     sysctls of the workspaces' links; OpenVPN's tun devices;
#   - CAP_SYS_PTRACE: reading /proc/<pid>/fd and /proc/<pid>/net of daemons that run under the
#     workspace users' uids (sessions, open files, listening sockets);
#   - CAP_MKNOD and the devices /dev/loop-control, /dev/loop* (block major 7) and /dev/net/tun:
#     loop devices are created on demand, after the container started;
#   - CAP_SYS_RESOURCE (optional): lets resize2fs grow a mounted image online; without it the agent
#     grows it offline, stopping the workspace's daemons for the moment it takes;
#   - the HOST's network namespace (`--network host`): a workspace's address is routed by the host
#     to the node end of its veth, which must therefore be created in the host's namespace;
#   - AGENT_DATA_DIR on a real file system (a volume or a host folder, not the overlay root, and not
#     under /srv, which the agent mounts over inside each workspace): sparse images live there.
# `--privileged` grants all of it (and /proc/sys read-write, which the forwarding sysctls need);
# the capability list is the narrower alternative (deploy/README.md, "The agent's rights").
#
# Stopping the container ends every workspace daemon with it (they live in its PID namespace and
# cgroup); the next start finds them gone and starts them again. To keep workspaces serving while
# the agent is restarted or upgraded, run it under systemd instead (deploy/systemd).

ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE} AS manifests
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
COPY apps/api/package.json apps/api/
COPY apps/agent/package.json apps/agent/
COPY apps/web/package.json apps/web/
COPY packages/contract/package.json packages/contract/
COPY packages/pricing/package.json packages/pricing/
COPY e2e/package.json e2e/

# tsx runs the agent's TypeScript, but only @debesis/api lists it as a dependency; installing that
# workspace's production tree is the way to get the lock file's exact tsx (at the cost of the API's
# libraries, unused here). Adding tsx to apps/agent/package.json would let this shrink to the agent.
FROM manifests AS deps
RUN npm ci --omit=dev --workspace @debesis/api --no-audit --no-fund && npm cache clean --force

FROM ${NODE_IMAGE} AS runtime
ARG DEBIAN_FRONTEND=noninteractive
# The programs the drivers drive, per workspace: smbd (samba, samba-common-bin: testparm, pdbedit,
# smbcontrol; samba-vfs-modules: full_audit for the shares' activity), storage images (e2fsprogs,
# util-linux and mount: losetup, nsenter, unshare, setpriv), networks (iproute2), VPN (openvpn,
# easy-rsa, openssl), NFS (nfs-ganesha, nfs-ganesha-vfs), FTP (pure-ftpd), SFTP (openssh-server:
# sshd's internal-sftp, ssh-keygen), LDAP (slapd), backups (restic, and rclone for the restic REST
# server the workspaces' backup clients push to). slapd is preseeded unconfigured: the agent runs
# one per workspace with its own configuration, never the host's. policy-rc.d keeps the packages'
# install scripts from starting host daemons in the build.
RUN printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d \
  && echo 'slapd slapd/no_configuration boolean true' | debconf-set-selections \
  && apt-get update \
  && apt-get install -y --no-install-recommends \
    ca-certificates \
    e2fsprogs \
    easy-rsa \
    iproute2 \
    mount \
    nfs-ganesha \
    nfs-ganesha-vfs \
    openssh-server \
    openssl \
    openvpn \
    pure-ftpd \
    rclone \
    restic \
    samba \
    samba-common-bin \
    samba-vfs-modules \
    slapd \
    util-linux \
  && rm -rf /var/lib/apt/lists/* \
  # Each workspace's sshd has its own host key in the workspace; keys made at build time would be
  # the same in every container made from this image.
  && rm -f /etc/ssh/ssh_host_*
WORKDIR /app
ENV NODE_ENV=production \
    AGENT_DATA_DIR=/var/lib/debesis-agent
COPY --from=deps /app/ ./
COPY tsconfig.base.json ./
COPY packages/contract/ packages/contract/
COPY apps/agent/ apps/agent/
RUN mkdir -p /var/lib/debesis-agent && chmod 0700 /var/lib/debesis-agent
VOLUME ["/var/lib/debesis-agent"]
# Root on purpose: see RIGHTS above.
USER root
# SIGTERM ends the pass in progress and the running backups (recorded as interrupted), then exits.
CMD ["node", "--import", "tsx", "apps/agent/src/main.ts"]
