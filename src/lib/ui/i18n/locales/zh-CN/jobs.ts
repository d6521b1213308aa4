import type { Messages } from '../../types';
import type { jobs as en } from '../en/jobs';

export const jobs: Messages<typeof en> = {
  name: {
    maintenance: '数据库维护',
    'import-follow-up': '从导入的对话中学习',
  },
  step: {
    start: '正在开始…',
    optimize: '正在优化数据库',
    'fts-merge': '正在合并搜索索引',
    integrity: '正在检查完整性',
    done: '已完成',
    failed: '失败',
    'import-follow-up': '从导入的对话中学习',
  },
  trigger: {
    idle: '空闲时',
    periodic: '定时',
    demand: '手动',
    startup: '启动时',
  },
  status: {
    ok: '正常',
    failed: '失败',
  },
};
