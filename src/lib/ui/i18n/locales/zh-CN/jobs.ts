import type { Messages } from '../../types';
import type { jobs as en } from '../en/jobs';

export const jobs: Messages<typeof en> = {
  name: {
    embeddings: '语义召回：为对话和记忆生成向量',
    maintenance: '数据库维护',
    lifecycle: '记忆清理：衰减、压缩、淘汰',
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
    'lifecycle-decay': '正在重算记忆衰减',
    'lifecycle-compress': '正在压缩已衰减的情景记忆',
    'lifecycle-purge': '正在删除过期记忆',
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
