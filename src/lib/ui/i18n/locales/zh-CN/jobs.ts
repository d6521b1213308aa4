import type { Messages } from '../../types';
import type { jobs as en } from '../en/jobs';

export const jobs: Messages<typeof en> = {
  name: {
    embeddings: '语义召回：为对话和记忆生成向量',
    maintenance: '数据库维护',
    'import-follow-up': '从导入的对话中学习',
  },
  step: {
    embeddings: '正在为对话和记忆生成向量',
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
