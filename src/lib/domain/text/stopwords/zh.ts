/**
 * Chinese stop words for keyword extraction, matched against Intl.Segmenter words (so entries are words as the
 * segmenter emits them: 我们, 什么, 已经…). The index keeps them; only keyword extraction drops them.
 *
 * What is here: pronouns and demonstratives, structural/aspect/modal particles (的 了 着 过 吗 呢 吧 啊), prepositions
 * and conjunctions, degree and frequency adverbs, question words (什么 怎么 为什么 哪 谁 几 多少), modal verbs, light
 * verbs that 001 lists as noise (用, 写) and their kin (做 说 看 去 来 弄 搞), classifiers, chat fillers (好的 谢谢 请问),
 * and relative time words (今天 昨天 上周 去年…), which `time-expressions.ts` resolves instead.
 *
 * What is deliberately NOT here: content verbs and nouns, including preference verbs (喜欢, 讨厌, 偏好, 爱) — 001
 * expects "我喜欢用 Python 写代码" → Python, 代码, 喜欢. Single-character content words (猫, 书, 茶) are kept as keywords
 * (a query "我的猫叫什么" must find something) but they are the first dropped when `max` trims (see keywords.ts).
 *
 * A word made of a stop word plus an aspect particle (去了, 用过, 说着) is a stop word too: keywords.ts strips the
 * particle before looking it up, so those forms need not be listed.
 */
export const ZH_STOP_WORDS: readonly string[] = [
  // pronouns, demonstratives
  '我', '你', '您', '他', '她', '它', '我们', '你们', '他们', '她们', '它们', '咱', '咱们', '大家', '自己', '人家', '别人',
  '这', '那', '这个', '那个', '这些', '那些', '这里', '那里', '这儿', '那儿', '这边', '那边', '这样', '那样', '这么',
  '那么', '这种', '那种', '此', '其', '其他', '其它', '某', '某些', '各', '各种', '每', '每个',
  // particles
  '的', '地', '得', '了', '着', '过', '吗', '呢', '吧', '啊', '呀', '哦', '噢', '嗯', '哈', '哈哈', '嘛', '啦', '哇',
  '喔', '么', '咯', '呗', '诶', '欸', '哎', '嗨', '之', '所',
  // prepositions, conjunctions
  '在', '从', '对', '对于', '关于', '和', '与', '跟', '同', '及', '以及', '或', '或者', '还是', '而', '而且', '并',
  '并且', '但', '但是', '可是', '不过', '然而', '因为', '所以', '因此', '如果', '要是', '假如', '虽然', '尽管', '即使',
  '就', '才', '都', '也', '还', '又', '再', '把', '被', '给', '让', '向', '往', '为', '为了', '于', '比', '等', '等等',
  '然后', '接着', '于是', '否则', '以', '以便', '由', '由于', '通过', '根据', '按照', '除了', '连', '像',
  // adverbs of degree, frequency, scope
  '很', '非常', '太', '最', '更', '比较', '挺', '真', '真的', '特别', '十分', '有点', '有些', '一些', '一点', '一下',
  '只', '只是', '就是', '已经', '正在', '一直', '一起', '总是', '经常', '常常', '通常', '也许', '大概', '可能', '好像',
  '其实', '当然', '确实', '一定', '肯定', '还有', '另外', '而已', '罢了', '不', '没', '没有', '别', '不要', '不是',
  // question words
  '什么', '怎么', '怎样', '怎么样', '为什么', '为何', '哪', '哪里', '哪儿', '哪个', '哪些', '哪种', '谁', '几', '多少',
  '如何', '是否', '是不是', '有没有', '能不能', '会不会', '要不要', '可不可以', '啥', '咋',
  // copula, modal and light verbs
  '是', '有', '会', '能', '能够', '可以', '要', '想', '想要', '需要', '应该', '应当', '必须', '得到', '用', '使用', '写',
  '做', '弄', '搞', '说', '讲', '看', '看看', '去', '来', '到', '使', '叫', '帮', '帮忙', '请', '觉得', '认为', '感觉',
  '知道', '记得', '告诉', '提到', '说过', '聊', '聊聊', '问', '成', '变', '变成', '开始', '继续', '进行',
  // classifiers, numbers, positions
  '个', '些', '种', '次', '件', '位', '们', '一', '一个', '两', '两个', '几个', '上', '下', '中', '里', '内', '外',
  '前', '后', '边', '方面', '时', '时候', '时间', '地方', '东西', '事', '事情',
  // chat fillers
  '好', '好的', '对的', '行', '可以的', '谢谢', '谢谢你', '感谢', '请问', '你好', '您好', '嗯嗯', '哈喽', '没事', '不用',
  // relative time (resolved by time-expressions.ts instead)
  '今天', '昨天', '明天', '前天', '后天', '大前天', '现在', '刚才', '刚刚', '以前', '之前', '以后', '之后', '最近',
  '当时', '那时', '那时候', '后来', '上次', '这次', '下次', '上周', '本周', '这周', '下周', '上个', '这个月', '上个月',
  '下个月', '去年', '今年', '明年', '前年', '早上', '上午', '中午', '下午', '晚上', '今晚', '昨晚', '年', '月', '日',
  '天', '周', '号', '星期', '礼拜',
];
