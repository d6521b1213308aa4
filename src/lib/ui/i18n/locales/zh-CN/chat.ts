import type { Messages } from '../../types';
import type { chat as en } from '../en/chat';

export const chat: Messages<typeof en> = {
  title: '对话',
  sessions: {
    heading: '会话',
    new: '新建会话',
    untitled: '新会话',
    empty: '还没有会话。在下方开始第一段对话。',
    starredOnly: '只看收藏',
    star: '收藏',
    unstar: '取消收藏',
    rename: '重命名',
    renameLabel: '会话名称',
    delete: '删除',
    deleteConfirm: '删除此会话及其全部消息？从中学到的记忆会保留。',
    deleted: '会话已删除。',
    turns: '{{count}} 轮',
  },
  composer: {
    label: '消息',
    placeholder: '输入消息…（Enter 发送，Shift+Enter 换行）',
    send: '发送',
    stop: '停止',
    hint: 'Enter 发送 · Shift+Enter 换行 · Esc 停止',
  },
  message: {
    you: '你',
    assistant: '助手',
    copy: '复制',
    copied: '已复制',
    retry: '重试',
    star: '收藏消息',
    unstar: '取消收藏消息',
    stopped: '已停止',
    failed: '未完成',
    memoryUsed: '使用的记忆（{{count}}）',
    memoryUsedNone: '这条回复没有使用记忆。',
    why: '为什么这样回复？（上下文）',
    thinking: '正在整理记忆…',
    streaming: '正在回复…',
    queued: '已保存在本设备上，等待写入数据库。',
  },
  noModel: {
    title: '回复需要模型',
    body: '尚未配置模型，所以没有回复。你的消息仍会被保存、记住并摘要。在设置中配置模型（例如本地 Ollama）即可获得回复。',
    link: '打开模型设置',
  },
  remembered: '已记住：{{content}}',
  rememberedUndone: '已撤销这条记忆。',
  empty: {
    title: '开始对话',
    body: '你写下的一切都只留在本设备上。Engram 会记住你说过的偏好和事实，并在需要时回想起之前的对话。',
  },
  errors: {
    reply: '回复失败：{{message}}',
  },
};
