import type { storage as en } from '../en/storage';
import type { Messages } from '../../types';

export const storage: Messages<typeof en> = {
  readOnlyBanner: '本设备上留给 Engram 的存储空间已满，因此你的数据以只读方式打开。你可以查看和导出数据；腾出空间后会自动恢复保存。',
  openStorage: '存储设置',
  quota: {
    'read-only': '存储空间已满，Engram 以只读方式打开了你的数据，这次无法保存。请腾出一些空间（设置 → 存储）后重试。',
  },
  readOnly: {
    title: '只读：存储空间已满',
    help: 'Engram 启动时无法写入本设备。在有空间之前不会保存任何新内容；Engram 每隔几秒检查一次，一旦可以就恢复保存。',
  },
  uses: {
    title: '空间占用',
    show: '查看空间占用',
    refresh: '重新统计',
    counting: '正在统计…',
    browser: '在此浏览器中',
    database: '在数据库中',
    free: '空闲页（新写入会重复利用）',
    areas: {
      conversations: '对话、摘要及其搜索索引',
      memories: '记忆、用户画像和学到的偏好',
      writing: '项目、章节和上下文记录',
      app: 'Engram 自身的记录',
    },
    kinds: {
      fileSystem: '数据库文件',
      indexedDB: '设置、草稿和未保存的更改',
      caches: '应用本身（供离线使用）',
      serviceWorkerRegistrations: '离线支持',
      other: '其他',
    },
  },
  free: {
    title: '释放空间',
    help: '存储空间用尽时，Engram 会保留所有已保存的内容，并以提示拒绝新的写入。要腾出空间：先导出备份，删除不再需要的内容，然后立即释放空间。',
    exportLink: '导出备份',
    cleanupLink: '删除旧对话',
    reclaim: '立即释放空间',
    reclaiming: '正在释放空间…',
    reclaimed: '已向设备归还 {{size}}。',
    nothingToReclaim: '没有更多可归还的空间；请先删除一些数据。',
    busy: '暂时无法归还全部空间，请稍后重试。',
  },
};
