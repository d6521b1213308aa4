import type { shell as en } from '../en/shell';
import type { Messages } from '../../types';

export const shell: Messages<typeof en> = {
  confirm: {
    deleteConversation: '删除这个对话？',
    deleteProject: '删除这个项目？',
    deleteChapter: '删除这一章？',
    deleteFile: '删除这个文件？',
    deleteMemory: '删除这条记忆？',
    discardChanges: '放弃所做的修改？',
    discardWrite: '放弃这项修改？',
    discard: '放弃',
    reloadNow: '现在重新加载？',
    reload: '重新加载',
    typeToConfirm: '输入“{{word}}”以确认',
  },
  erase: {
    title: '清除本设备上的全部数据',
    intro: '删除 Engram 在此浏览器中保存的一切，使它回到第一次打开时的样子：',
    what: {
      conversations: '所有对话及其摘要',
      memories: '所有记忆、用户画像、写作偏好及其历史',
      projects: '所有项目、章节，以及人物、世界观与风格文件',
      settings: '你的设置：记忆设置、语言、主题——以及模型设置（除非选择保留）',
    },
    backupFirst: '此操作无法撤销。如果以后可能还需要，请先导出备份。',
    open: '清除全部数据…',
    erasing: '正在清除…',
    confirmTitle: '清除本设备上的全部数据？',
    confirmBody: 'Engram 在此浏览器中保存的所有对话、记忆、项目和设置都将被永久删除。已打开的 Engram 窗口会重新开始。',
    confirm: '全部清除',
    word: '清除',
    keepModel: '保留我的模型设置（服务器、模型与密钥）',
    failed: '没有清除任何内容：{{reason}}',
  },
  notices: {
    more_one: '还有 {{count}} 条',
    more_other: '还有 {{count}} 条',
    dismissAll: '关闭全部提示',
  },
  units: {
    memories_one: '{{count}} 条记忆',
    memories_other: '{{count}} 条记忆',
    historyEntries_one: '{{count}} 条历史记录',
    historyEntries_other: '{{count}} 条历史记录',
    profileLines_one: '{{count}} 行画像',
    profileLines_other: '{{count}} 行画像',
    profileVersions_one: '{{count}} 个画像版本',
    profileVersions_other: '{{count}} 个画像版本',
  },
};
