import { describe } from 'vitest';
import { runExtractCases, type ExtractCase } from './extract-testing';

const like = { stance: 'like' };
const dislike = { stance: 'dislike' };
const pasted = `这是我从网上复制的一篇文章。${'今天天气很好，我们去公园散步，看到很多人在跑步。'.repeat(90)}我喜欢咖啡。`;

const CASES: readonly ExtractCase[] = [
  // ── stated preferences ─────────────────────────────────────────────────────
  { text: '我喜欢喝咖啡', expect: [{ key: 'preference.food.coffee', category: 'preference', value: like }] },
  {
    text: '我现在不喜欢喝咖啡了，改喝茶',
    expect: [
      { key: 'preference.food.coffee', value: dislike, retracts: true },
      { key: 'preference.food.tea', value: like },
    ],
  },
  { text: '我讨厌香菜', expect: [{ key: 'preference.food.cilantro', value: dislike }] },
  { text: '我不吃辣', expect: [{ key: 'preference.food.spicy', value: dislike }] },
  { text: '我喜欢用 Python 写代码', expect: [{ key: 'preference.programming.python', value: like }] },
  {
    text: '其实我特别喜欢爬山和游泳',
    expect: [
      { key: 'preference.sport.hiking', value: like },
      { key: 'preference.sport.swimming', value: like },
    ],
  },
  { text: '我戒咖啡了', expect: [{ key: 'preference.food.coffee', value: dislike, retracts: true }] },
  { text: '比起咖啡我更喜欢茶', expect: [{ key: 'preference.food.tea', value: like }] },
  { text: '我最喜欢的颜色是蓝色', expect: [{ key: 'preference.favorite.color', value: { object: '蓝色' } }] },
  { text: '我对科幻小说很感兴趣', expect: [{ key: 'preference.topic.科幻小说', value: like }] },
  { text: '我说过，我喜欢喝咖啡', expect: [{ key: 'preference.food.coffee', value: like }] },
  { text: '我平时习惯晚上写作', expect: [{ key: 'pattern.habit.晚上写作', category: 'pattern', value: { habit: '晚上写作' } }] },
  // ── who the user is ─────────────────────────────────────────────────────────
  {
    text: '我叫张伟，是一名程序员，在腾讯工作。',
    expect: [
      { key: 'fact.name', category: 'fact', value: { name: '张伟' } },
      { key: 'fact.occupation', value: { occupation: '程序员' } },
      { key: 'fact.employer', value: { employer: '腾讯' } },
    ],
  },
  { text: '我的名字是李雷', expect: [{ key: 'fact.name', value: { name: '李雷' } }] },
  { text: '叫我小明就行', expect: [{ key: 'fact.name', value: { name: '小明' } }] },
  { text: '你可以叫我老王', expect: [{ key: 'fact.name', value: { name: '老王' } }] },
  { text: '你能叫我小明吗？', expect: [{ key: 'fact.name', value: { name: '小明' } }] },
  { text: '我是做前端的', expect: [{ key: 'fact.occupation', value: { occupation: '前端' } }] },
  {
    text: '我在字节跳动当产品经理',
    expect: [
      { key: 'fact.employer', value: { employer: '字节跳动' } },
      { key: 'fact.occupation', value: { occupation: '产品经理' } },
    ],
  },
  { text: '我从事金融行业', expect: [{ key: 'fact.industry', value: { industry: '金融' } }] },
  { text: '我住在杭州', expect: [{ key: 'fact.location', value: { location: '杭州' } }] },
  { text: '我住上海', expect: [{ key: 'fact.location', value: { location: '上海' } }] },
  { text: '我在北京工作', expect: [{ key: 'fact.work_location', value: { location: '北京' } }] },
  { text: '我搬到了深圳', expect: [{ key: 'fact.location', value: { location: '深圳' } }] },
  { text: '我是四川人', expect: [{ key: 'fact.hometown', value: { place: '四川' } }] },
  { text: '我今年二十八岁', expect: [{ key: 'fact.age', value: { age: 28 } }] },
  { text: '我的母语是粤语', expect: [{ key: 'fact.native_language', value: { language: 'yue' } }] },
  { text: '对了，我对花生过敏', expect: [{ key: 'fact.allergy.peanut', value: { allergen: '花生' } }] },
  { text: '我是素食者', expect: [{ key: 'fact.diet', value: { diet: 'vegetarian' } }] },
  { text: '我已经不在腾讯工作了', expect: [{ key: 'fact.employer', value: null, retracts: true }] },
  // ── how to answer ───────────────────────────────────────────────────────────
  { text: '以后请用中文回答', expect: [{ key: 'preference.reply.language', value: { language: 'zh' } }] },
  { text: '从现在开始，请用英文和我交流', expect: [{ key: 'preference.reply.language', value: { language: 'en' } }] },
  { text: '以后请回答简洁一点', expect: [{ key: 'preference.reply.length', value: { length: 'concise' } }] },
  { text: '以后回答详细一些，多举例子', expect: [{ key: 'preference.reply.length', value: { length: 'detailed' } }] },
  { text: '以后不要用表情符号', expect: [{ key: 'preference.reply.emoji', value: { emoji: false } }] },
  {
    text: '以后请先给结论再解释',
    expect: [{ key: 'preference.instruction.先给结论再解释', value: { instruction: '先给结论再解释' } }],
  },
  // ── must NOT be stored ──────────────────────────────────────────────────────
  { text: '你喜欢什么?', why: 'question', expect: [] },
  { text: '我喜欢什么来着？', why: 'question', expect: [] },
  { text: '我叫什么名字？', why: 'question', expect: [] },
  { text: '如果我喜欢猫，你会推荐什么品种？', why: 'hypothetical', expect: [] },
  { text: '假如我叫小明，你会怎么称呼我', why: 'hypothetical', expect: [] },
  { text: '要是我住在上海就好了', why: 'hypothetical', expect: [] },
  { text: '如果明天下雨，我喜欢待在家里', why: 'hypothetical', expect: [] },
  { text: '我朋友喜欢吃辣', why: 'third person', expect: [] },
  { text: '他说他喜欢咖啡', why: 'quoting others', expect: [] },
  { text: '我觉得他喜欢咖啡', why: 'third person', expect: [] },
  { text: '我可能喜欢爵士乐吧', why: 'hedged', expect: [] },
  { text: '我也不知道我喜不喜欢咖啡', why: 'hedged', expect: [] },
  { text: '我好像对花生过敏', why: 'hedged', expect: [] },
  { text: '我不在腾讯工作', why: 'negated fact', expect: [] },
  { text: '我不是程序员', why: 'negated fact', expect: [] },
  { text: '我叫了外卖', why: 'not a name', expect: [] },
  { text: '叫我起床', why: 'not a name', expect: [] },
  { text: '我喜欢你', why: 'about the chat', expect: [] },
  { text: '我不喜欢这个回答', why: 'about the chat', expect: [] },
  { text: '我在写代码', why: 'not a place', expect: [] },
  { text: '我住院了', why: 'not a place', expect: [] },
  { text: '我喜欢和你聊天', why: 'about the chat', expect: [] },
  { text: '以后别这样了', why: 'about the chat', expect: [] },
  { text: '请用英文回答这个问题', why: 'one-off request', expect: [] },
  { text: '以后我们再聊', why: 'not an instruction', expect: [] },
  { text: '助手：我喜欢简洁的回答', why: "the assistant's words", expect: [] },
  { text: '你之前说“我叫小明”', why: 'quoted words', expect: [] },
  { text: '他说：我叫小明', why: 'reported speech', expect: [] },
  { text: '我妈告诉我：我从小就不吃辣', why: 'reported speech', expect: [] },
  { text: '据他说，我住在上海', why: 'reported speech', expect: [] },
  { text: '系统提示说：我喜欢简洁的回答', why: 'the system prompt', expect: [] },
  { text: '系统提示词里写着我喜欢简洁的回答', why: 'the system prompt', expect: [] },
  { text: '我喜欢第二个', why: 'points into the conversation', expect: [] },
  { text: '我喜欢最后一个方案', why: 'points into the conversation', expect: [] },
  { text: '我喜欢上面那个', why: 'points into the conversation', expect: [] },
  { text: '我喜欢上了一个人', why: 'nobody in particular', expect: [] },
  { text: '我喜欢某个歌手', why: 'nobody in particular', expect: [] },
  { text: '```\n我喜欢咖啡\n```', why: 'code', expect: [] },
  { text: 'print("我叫小明")', why: 'code', expect: [] },
  { text: pasted, why: 'very long text', expect: [] },
];

describe('extractCandidates: Chinese rules', () => {
  runExtractCases(CASES, 'zh');
});
