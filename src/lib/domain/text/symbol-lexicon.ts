/**
 * Word lists for symbol extraction (002 REQ-LTM-006). Data only; the rules that use them are in symbol-rules.ts.
 * All lookups are exact (case-sensitive) unless the list says otherwise.
 */

/** Camel/Pascal-cased names of products, brands and people that are not code (checked case-insensitively). */
export const NOT_CODE_NAMES: ReadonlySet<string> = new Set(
  [
    'JavaScript', 'TypeScript', 'CoffeeScript', 'ActionScript', 'GitHub', 'GitLab', 'BitBucket', 'YouTube', 'PowerPoint',
    'PowerShell', 'PowerBI', 'LinkedIn', 'PayPal', 'WhatsApp', 'WeChat', 'TikTok', 'PlayStation', 'MacBook', 'iPhone',
    'iPad', 'iPod', 'iCloud', 'iTunes', 'iMac', 'iOS', 'macOS', 'watchOS', 'tvOS', 'iPadOS', 'visionOS', 'AirPods', 'AirDrop',
    'FaceTime', 'OpenAI', 'ChatGPT', 'DeepSeek', 'PyTorch', 'TensorFlow', 'NumPy', 'SciPy', 'FastAPI', 'GraphQL',
    'PostgreSQL', 'MySQL', 'SQLite', 'MongoDB', 'MariaDB', 'NoSQL', 'DynamoDB', 'CouchDB', 'IndexedDB', 'WebAssembly',
    'WebGL', 'WebGPU', 'WebRTC', 'JetBrains', 'IntelliJ', 'PyCharm', 'WebStorm', 'VSCode', 'NeoVim', 'DevOps', 'GitOps',
    'eBay', 'McDonald', 'McDonalds', 'SpaceX', 'FedEx', 'BlackBerry', 'DreamWorks', 'SoundCloud', 'DropBox', 'OneDrive',
    'OneNote', 'SharePoint', 'WordPress', 'HubSpot', 'MailChimp', 'QuickBooks', 'FreeBSD', 'OpenBSD', 'NetBSD',
    'LibreOffice', 'OpenOffice', 'VirtualBox', 'LaTeX', 'BibTeX', 'NodeJS', 'VueJS', 'ReactJS', 'NextJS', 'jQuery',
    'SvelteKit', 'TailwindCSS', 'PhD', 'PhDs', 'GoPro', 'HuffPost', 'BuzzFeed', 'TripAdvisor', 'AirBnB', 'DoorDash',
    'SnapChat', 'KitKat', 'LeetCode', 'HackerRank', 'StackOverflow', 'MediaWiki', 'OpenStreetMap', 'GeoGebra', 'InDesign',
    'AutoCAD', 'SolidWorks', 'QuickTime', 'WinRAR', 'WinZip', 'MySpace', 'FaceBook', 'LiveJournal', 'DuckDuckGo',
    'ProtonMail', 'CloudFlare', 'DigitalOcean', 'HomePod', 'AppleTV', 'GoDaddy', 'SketchUp', 'ZBrush', 'CorelDRAW',
    'mRNA', 'tRNA', 'pH', 'eSIM', 'eSports', 'eBook', 'eBooks', 'YouGov', 'TEDx', 'LGBTQ', 'LGBTQIA', 'CrossFit',
    'SoulCycle', 'NordVPN', 'ExpressVPN', 'HelloFresh', 'WeightWatchers', 'iPhones', 'iPads', 'MacBooks',
  ].map((n) => n.toLowerCase()),
);

/** First humps that make a two-hump capitalised word a surname (McGee, MacArthur, DiCaprio, LeBron, VanDyke). */
export const SURNAME_PREFIXES: ReadonlySet<string> = new Set(['Mc', 'Mac', 'Di', 'De', 'Da', 'Du', 'La', 'Le', 'Van', 'Von', 'St', 'O']);

/** Leading verbs that make a camelCase / snake_case name a function rather than a variable. */
export const VERB_PREFIXES: ReadonlySet<string> = new Set([
  'get', 'set', 'is', 'has', 'can', 'should', 'process', 'handle', 'validate', 'create', 'update', 'delete', 'remove',
  'add', 'insert', 'fetch', 'load', 'save', 'store', 'parse', 'build', 'render', 'compute', 'calc', 'calculate',
  'check', 'init', 'initialize', 'make', 'find', 'search', 'query', 'send', 'receive', 'read', 'write', 'run', 'exec',
  'execute', 'use', 'on', 'to', 'apply', 'format', 'convert', 'transform', 'filter', 'reduce', 'sort', 'merge', 'split',
  'join', 'open', 'close', 'start', 'stop', 'reset', 'clear', 'refresh', 'sync', 'emit', 'dispatch', 'register',
  'unregister', 'subscribe', 'unsubscribe', 'notify', 'resolve', 'reject', 'retry', 'schedule', 'generate', 'normalize',
  'serialize', 'deserialize', 'encode', 'decode', 'encrypt', 'decrypt', 'hash', 'sign', 'verify', 'login', 'logout',
  'authenticate', 'authorize', 'upload', 'download', 'import', 'export', 'install', 'connect', 'disconnect', 'submit',
  'cancel', 'enable', 'disable', 'show', 'hide', 'toggle', 'select', 'prepare', 'ensure', 'extract', 'collect', 'count',
  'print', 'log', 'test', 'assert', 'mock', 'wrap', 'unwrap', 'do', 'try', 'map', 'compare', 'copy', 'clone', 'push',
  'pop', 'post', 'put', 'patch', 'list', 'assign', 'match', 'replace', 'flush', 'drain', 'migrate', 'recall', 'summarize',
  'index', 'track', 'report', 'watch', 'listen', 'mount', 'unmount', 'bind', 'invoke', 'call', 'await', 'allocate',
  'release', 'acquire', 'lock', 'unlock', 'evict', 'expire', 'persist', 'restore', 'backup', 'compress', 'decompress',
]);

/** Methods and functions of standard libraries: called everywhere, never what a user asks about. */
export const BUILTIN_FUNCTIONS: ReadonlySet<string> = new Set([
  'log', 'warn', 'error', 'info', 'debug', 'trace', 'map', 'filter', 'reduce', 'forEach', 'push', 'pop', 'shift',
  'unshift', 'join', 'split', 'slice', 'splice', 'concat', 'then', 'catch', 'finally', 'toString', 'valueOf',
  'stringify', 'parse', 'keys', 'values', 'entries', 'assign', 'includes', 'indexOf', 'get', 'set', 'has', 'add',
  'delete', 'bind', 'call', 'apply', 'resolve', 'reject', 'all', 'race', 'require', 'print', 'len', 'append', 'format',
  'replace', 'trim', 'toLowerCase', 'toUpperCase', 'startsWith', 'endsWith', 'find', 'some', 'every', 'sort', 'reverse',
  'fill', 'from', 'of', 'isArray', 'now', 'floor', 'ceil', 'round', 'max', 'min', 'abs', 'random', 'setTimeout',
  'clearTimeout', 'setInterval', 'clearInterval', 'fetch', 'json', 'text', 'range', 'enumerate', 'zip', 'str', 'int',
  'float', 'dict', 'list', 'tuple', 'type', 'isinstance', 'super', 'main', 'exit', 'open', 'close', 'read', 'write',
  'next', 'iter', 'sum', 'sorted', 'input', 'println', 'printf', 'sprintf', 'fmt', 'expect', 'it', 'describe', 'test',
  'if', 'for', 'while', 'switch', 'return', 'function', 'typeof', 'await', 'new',
]);

/** Globals and receivers that are never the variable a user means (console.log → nothing). */
export const GLOBAL_OBJECTS: ReadonlySet<string> = new Set([
  'console', 'window', 'document', 'globalThis', 'self', 'this', 'super', 'Math', 'JSON', 'Object', 'Array', 'String',
  'Number', 'Boolean', 'Promise', 'Date', 'Reflect', 'Symbol', 'Intl', 'process', 'module', 'exports', 'require',
  'navigator', 'location', 'localStorage', 'sessionStorage', 'os', 'sys', 'np', 'pd', 'plt', 'fs', 'path', 'std',
  'cls', 'import', 'e', 'i', 'j', 'k', 'x', 'y', 'z', '_',
]);

/** Reserved words of common languages: never symbols, even in code blocks. */
export const KEYWORDS: ReadonlySet<string> = new Set([
  'return', 'if', 'else', 'elif', 'for', 'while', 'do', 'switch', 'case', 'break', 'continue', 'const', 'let', 'var',
  'function', 'class', 'interface', 'type', 'enum', 'struct', 'trait', 'impl', 'import', 'from', 'export', 'default',
  'new', 'this', 'self', 'true', 'false', 'null', 'undefined', 'None', 'True', 'False', 'def', 'fn', 'func', 'async',
  'await', 'try', 'catch', 'finally', 'throw', 'throws', 'raise', 'except', 'typeof', 'instanceof', 'in', 'of', 'and',
  'or', 'not', 'is', 'pass', 'lambda', 'yield', 'with', 'as', 'public', 'private', 'protected', 'static', 'void',
  'int', 'str', 'string', 'number', 'boolean', 'bool', 'any', 'unknown', 'never', 'object', 'float', 'double', 'char',
  'long', 'short', 'byte', 'extends', 'implements', 'package', 'use', 'mod', 'pub', 'mut', 'where', 'match', 'go',
  'defer', 'chan', 'select', 'readonly', 'declare', 'namespace', 'module', 'require', 'echo', 'then', 'fi', 'end',
  'begin', 'val', 'fun', 'override', 'abstract', 'final', 'delete', 'goto', 'nil', 'println',
]);

/** Variable names common enough that 002 lists them (config, options, result): symbols in code or Chinese prose. */
export const COMMON_VARIABLES: ReadonlySet<string> = new Set([
  'config', 'cfg', 'options', 'opts', 'result', 'results', 'params', 'args', 'props', 'ctx', 'payload', 'response',
  'request', 'req', 'res', 'err', 'callback', 'cb', 'env', 'handler', 'logger', 'conn', 'headers', 'mutex', 'buffer',
]);

/** POSIX errno names that show up as error types in Node and C (ENOENT, ECONNREFUSED). */
export const ERRNO_NAMES: ReadonlySet<string> = new Set([
  'ENOENT', 'EACCES', 'EPERM', 'EEXIST', 'EISDIR', 'ENOTDIR', 'ENOTEMPTY', 'EMFILE', 'EPIPE', 'EBADF', 'EBUSY',
  'ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'ETIMEDOUT', 'EADDRINUSE', 'EADDRNOTAVAIL', 'EHOSTUNREACH',
  'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'ENOMEM', 'ENOSPC', 'EINVAL', 'EAGAIN', 'SIGSEGV', 'SIGKILL', 'SIGTERM',
]);

/** File extensions that make a bare `name.ext` a file (paths with a directory need none of these). */
export const FILE_EXTENSIONS: ReadonlySet<string> = new Set([
  'ts', 'tsx', 'mts', 'cts', 'js', 'jsx', 'mjs', 'cjs', 'json', 'jsonc', 'md', 'mdx', 'py', 'pyi', 'rs', 'go', 'java',
  'kt', 'kts', 'swift', 'c', 'h', 'cpp', 'hpp', 'cc', 'hh', 'cs', 'fs', 'rb', 'php', 'vue', 'svelte', 'astro', 'css',
  'scss', 'sass', 'less', 'html', 'htm', 'xml', 'svg', 'yml', 'yaml', 'toml', 'ini', 'cfg', 'conf', 'env', 'sql', 'sh',
  'bash', 'zsh', 'fish', 'ps1', 'bat', 'txt', 'csv', 'tsv', 'lock', 'log', 'gradle', 'dart', 'lua', 'r', 'jl', 'scala',
  'clj', 'ex', 'exs', 'erl', 'hs', 'ml', 'zig', 'nim', 'proto', 'graphql', 'gql', 'tf', 'wasm', 'ipynb', 'pdf', 'png',
  'jpg', 'jpeg', 'gif', 'webp', 'mp3', 'mp4', 'zip', 'gz', 'tar', 'db', 'sqlite', 'sqlite3', 'dockerfile', 'makefile',
]);

/** Extension-less file names that are files by convention. */
export const SPECIAL_FILES: ReadonlySet<string> = new Set([
  'Dockerfile', 'Makefile', 'Rakefile', 'Gemfile', 'Procfile', 'Jenkinsfile', 'Vagrantfile', 'Containerfile',
  '.gitignore', '.env', '.npmrc', '.editorconfig', '.prettierrc', '.eslintrc', '.babelrc', '.dockerignore',
]);

/** `name.js` that names a library or product in prose (Node.js), not a file (checked case-insensitively). */
export const JS_PRODUCTS: ReadonlySet<string> = new Set(
  ['node', 'vue', 'next', 'nuxt', 'three', 'chart', 'd3', 'express', 'react', 'angular', 'ember', 'backbone', 'p5',
   'moment', 'socket', 'deno', 'nest', 'alpine', 'solid', 'preact', 'anime', 'paper', 'fabric', 'pixi', 'phaser',
   'babylon', 'tensorflow', 'brain', 'ml5', 'mathjax', 'highlight', 'video', 'pdf', 'tone', 'matter', 'cannon'],
);

/** Top-level domains: `example.com` in prose is a site, not a member access. */
export const DOMAIN_SUFFIXES: ReadonlySet<string> = new Set([
  'com', 'org', 'net', 'io', 'ai', 'cn', 'dev', 'app', 'co', 'uk', 'edu', 'gov', 'me', 'info', 'xyz', 'tv', 'us', 'de',
  'jp', 'fr', 'ru', 'hk', 'tw', 'sg', 'au', 'ca', 'in', 'so', 'gg', 'ly',
]);
