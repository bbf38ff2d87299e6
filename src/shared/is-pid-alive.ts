// Whether a process of this pid runs on this host: signal 0 reaches it, or it exists under another user (EPERM).

export function isPidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
