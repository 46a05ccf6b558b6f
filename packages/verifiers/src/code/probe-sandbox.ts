import { execFile } from 'node:child_process';

export interface SandboxSupport {
  /** `unshare -rnpf --kill-child` works: fresh user, network and PID namespaces for each run. */
  namespaces: boolean;
  /** `/bin/sh -c 'ulimit -v N'` works: an address-space limit for each run. */
  ulimit: boolean;
}

const probes = new Map<string, Promise<SandboxSupport>>();

function succeeds(file: string, args: string[]): Promise<boolean> {
  return new Promise((resolve) => {
    execFile(file, args, { timeout: 10_000, env: { PATH: process.env.PATH ?? '/usr/bin:/bin' } }, (error) =>
      resolve(!error),
    );
  });
}

/**
 * Which OS-level protections this machine offers, probed once per node binary and cached: unprivileged user
 * namespaces are often disabled (containers, hardened kernels), and Windows has neither.
 */
export function probeSandbox(nodePath: string): Promise<SandboxSupport> {
  let probe = probes.get(nodePath);
  if (!probe) {
    probe =
      process.platform === 'linux'
        ? Promise.all([
            succeeds('unshare', ['-rnpf', '--kill-child', nodePath, '-e', '0']),
            succeeds('/bin/sh', ['-c', 'ulimit -v 4194304']),
          ]).then(([namespaces, ulimit]) => ({ namespaces, ulimit }))
        : Promise.resolve({ namespaces: false, ulimit: process.platform !== 'win32' });
    probes.set(nodePath, probe);
  }
  return probe;
}
