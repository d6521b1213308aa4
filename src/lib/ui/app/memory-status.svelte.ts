/**
 * Whether the memory could be read for the latest context build (003 记忆系统降级策略: "读失败可降级但必须
 * 可见"). The chat and the Write page note each build's `memoryDegraded`; the layout shows a banner
 * while it is set, and the next build that reads the memory clears it.
 */
class MemoryStatus {
  degraded = $state(false);

  note(memoryDegraded: boolean): void {
    this.degraded = memoryDegraded;
  }
}

export const memoryStatus = new MemoryStatus();
