/**
 * The words of a Markdown export, in the app's two languages (the engine has no UI i18n; the caller
 * passes its locale). The conversation-log reader (logs.ts) accepts both sets of role names, so an
 * exported conversation can be imported again with `--from logs`.
 */
export type MarkdownLocale = 'en' | 'zh-CN';

export const MARKDOWN_LABELS = {
  en: {
    user: 'User',
    assistant: 'Assistant',
    untitled: 'Untitled conversation',
    conversation: 'Conversation',
    started: 'Started',
    messages: 'Messages',
    exported: 'Exported from Engram',
    projectMemory: 'project memory',
    allMemory: 'Engram memory',
    memories: 'Long-term memories',
    profile: 'User profile',
    rules: 'Writing preferences',
    files: 'Setting files',
    conversations: 'Conversations',
    summaries: 'Summaries',
    confidence: 'confidence',
    turns: 'turns',
    confirmed: 'confirmed',
    none: 'None.',
  },
  'zh-CN': {
    user: '用户',
    assistant: '助手',
    untitled: '未命名对话',
    conversation: '对话',
    started: '开始于',
    messages: '消息数',
    exported: '导出自 Engram',
    projectMemory: '项目记忆',
    allMemory: 'Engram 记忆',
    memories: '长期记忆',
    profile: '用户画像',
    rules: '写作偏好',
    files: '设定文件',
    conversations: '对话',
    summaries: '摘要',
    confidence: '置信度',
    turns: '轮',
    confirmed: '已确认',
    none: '无。',
  },
} as const satisfies Record<MarkdownLocale, Record<string, string>>;

/** Speaker names a conversation log may use, per role (case-insensitive; any language Engram speaks). */
export const SPEAKERS = {
  user: ['user', 'human', 'me', 'you', 'q', '用户', '我', '提问'],
  assistant: ['assistant', 'ai', 'bot', 'model', 'gpt', 'chatgpt', 'claude', 'a', '助手', '回答', 'ai助手'],
} as const;
