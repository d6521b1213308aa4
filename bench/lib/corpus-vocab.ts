/**
 * Vocabulary of the generated corpus: the kinds of things people paste and ask about in a coding-and-life chat,
 * in Chinese and English. Symbols are built from verb × noun so the symbol index sees thousands of distinct names.
 */
export const VERBS = ['get', 'set', 'parse', 'load', 'save', 'fetch', 'build', 'handle', 'validate', 'render', 'sync', 'compute', 'update', 'create', 'resolve', 'format'];
export const NOUNS = ['Config', 'User', 'Session', 'Order', 'Invoice', 'Token', 'Cache', 'Index', 'Report', 'Payment', 'Message', 'Profile', 'Upload', 'Schedule', 'Webhook', 'Query'];
export const CLASS_SUFFIXES = ['Service', 'Repository', 'Controller', 'Handler', 'Manager', 'Client', 'Store', 'Worker'];
export const FOLDERS = ['src/lib', 'src/routes', 'server/api', 'packages/core/src', 'app/models', 'internal/db'];
export const EXTENSIONS = ['ts', 'py', 'go', 'rs', 'js', 'svelte'];
export const ERRORS = ['TypeError', 'ECONNRESET', 'ETIMEDOUT', 'SQLITE_BUSY', 'ValidationError', 'NullPointerException', 'RangeError', 'QuotaExceededError'];
export const CONSTANTS = ['MAX_RETRIES', 'DEFAULT_TIMEOUT_MS', 'PAGE_SIZE', 'CACHE_TTL', 'BATCH_LIMIT', 'API_VERSION'];

export const TOPICS_EN = [
  'the database migration', 'the login timeout', 'rate limiting on the API', 'cache invalidation', 'the payment webhook',
  'flaky unit tests', 'the CSV export', 'search ranking', 'the Docker build', 'memory leaks in the worker',
  'offline sync', 'the release checklist', 'dark mode styles', 'time zones in reports', 'the onboarding flow',
];
export const TOPICS_ZH = [
  '数据库迁移', '登录超时', '接口限流', '缓存失效', '支付回调', '单元测试不稳定', '导出报表', '搜索排序', '镜像构建',
  '内存泄漏', '离线同步', '发布流程', '深色模式', '时区问题', '新用户引导',
];
export const LIFE_EN = [
  'I am moving to Berlin next month', 'my sister starts university in September', 'I run 5 km every morning',
  'we adopted a cat called Miso', 'I prefer tea over coffee', 'my laptop battery is dying', 'I am learning Japanese',
];
export const LIFE_ZH = [
  '我下个月要搬到杭州', '我妹妹九月上大学', '我每天早上跑五公里', '我们领养了一只叫年糕的猫', '我更喜欢喝茶',
  '我的笔记本电池快不行了', '最近在学日语', '周末打算去爬黄山',
];
export const FILLER_EN = [
  'That makes sense.', 'Let me check the logs first.', 'It only happens in production.', 'The staging build is fine.',
  'We changed this last sprint.', 'I will write a test for it.', 'Good idea, thanks.',
];
export const FILLER_ZH = ['明白了。', '我先看一下日志。', '只在生产环境出现。', '测试环境是好的。', '这个上个迭代改过。', '我补一个测试。', '好主意，谢谢。'];
