import { hasHan, normaliseText } from './text-norm';

/**
 * Small bilingual lexicons. They make keys language-independent for common objects ("咖啡" and
 * "coffee" both become `preference.food.coffee`) and tell places from employers. Anything not listed
 * still works: it keeps its own slug, so only cross-language matching is lost.
 */

export interface LexiconEntry {
  id: string;
  domain: 'food' | 'programming' | 'tool' | 'music' | 'sport' | 'hobby';
  terms: readonly string[];
}

export const OBJECTS: readonly LexiconEntry[] = [
  { id: 'coffee', domain: 'food', terms: ['coffee', '咖啡', 'espresso', '拿铁', 'latte'] },
  { id: 'milk-tea', domain: 'food', terms: ['milk tea', 'bubble tea', '奶茶'] },
  { id: 'tea', domain: 'food', terms: ['tea', 'green tea', '茶', '绿茶', '红茶', '喝茶'] },
  { id: 'beer', domain: 'food', terms: ['beer', '啤酒'] },
  { id: 'wine', domain: 'food', terms: ['wine', 'red wine', '红酒', '葡萄酒'] },
  { id: 'spicy', domain: 'food', terms: ['spicy food', 'spicy', '辣', '辣的', '吃辣', '辣椒'] },
  { id: 'sweets', domain: 'food', terms: ['sweets', 'desserts', 'dessert', '甜食', '甜点', '甜的'] },
  { id: 'cilantro', domain: 'food', terms: ['cilantro', 'coriander', '香菜'] },
  { id: 'hotpot', domain: 'food', terms: ['hot pot', 'hotpot', '火锅'] },
  { id: 'sushi', domain: 'food', terms: ['sushi', '寿司'] },
  { id: 'seafood', domain: 'food', terms: ['seafood', '海鲜'] },
  { id: 'peanut', domain: 'food', terms: ['peanuts', 'peanut', '花生'] },
  { id: 'meat', domain: 'food', terms: ['meat', '肉'] },
  { id: 'python', domain: 'programming', terms: ['python'] },
  { id: 'typescript', domain: 'programming', terms: ['typescript', 'ts'] },
  { id: 'javascript', domain: 'programming', terms: ['javascript', 'js'] },
  { id: 'rust', domain: 'programming', terms: ['rust'] },
  { id: 'golang', domain: 'programming', terms: ['golang'] },
  { id: 'java', domain: 'programming', terms: ['java'] },
  { id: 'cpp', domain: 'programming', terms: ['c++', 'cpp'] },
  { id: 'vim', domain: 'tool', terms: ['vim', 'neovim'] },
  { id: 'emacs', domain: 'tool', terms: ['emacs'] },
  { id: 'vscode', domain: 'tool', terms: ['vs code', 'vscode'] },
  { id: 'jazz', domain: 'music', terms: ['jazz', '爵士', '爵士乐'] },
  { id: 'rock', domain: 'music', terms: ['rock music', 'rock', '摇滚', '摇滚乐'] },
  { id: 'classical', domain: 'music', terms: ['classical music', '古典音乐', '古典乐'] },
  { id: 'running', domain: 'sport', terms: ['running', 'jogging', '跑步', '慢跑'] },
  { id: 'climbing', domain: 'sport', terms: ['rock climbing', 'climbing', 'bouldering', '攀岩'] },
  { id: 'hiking', domain: 'sport', terms: ['hiking', '徒步', '爬山'] },
  { id: 'swimming', domain: 'sport', terms: ['swimming', '游泳'] },
  { id: 'basketball', domain: 'sport', terms: ['basketball', '篮球', '打篮球'] },
  { id: 'football', domain: 'sport', terms: ['football', 'soccer', '足球', '踢足球'] },
  { id: 'reading', domain: 'hobby', terms: ['reading', 'books', '看书', '读书', '阅读'] },
  { id: 'movies', domain: 'hobby', terms: ['movies', 'films', '电影', '看电影'] },
  { id: 'games', domain: 'hobby', terms: ['video games', 'games', 'gaming', '游戏', '打游戏', '玩游戏'] },
];

const PLACES_ZH = [
  '北京', '上海', '广州', '深圳', '杭州', '成都', '重庆', '武汉', '南京', '西安', '天津', '苏州', '长沙', '郑州',
  '青岛', '厦门', '大连', '沈阳', '哈尔滨', '昆明', '香港', '澳门', '台北', '四川', '广东', '湖南', '湖北',
  '河南', '河北', '山东', '山西', '江苏', '浙江', '福建', '江西', '安徽', '云南', '贵州', '东北', '新疆', '西藏',
  '内蒙古', '美国', '英国', '日本', '加拿大', '德国', '法国', '澳大利亚', '新加坡', '纽约', '伦敦', '东京', '巴黎',
  '柏林', '国外', '海外', '老家', '农村', '乡下', '城里',
];
const PLACES_EN = [
  'london', 'paris', 'berlin', 'tokyo', 'new york', 'san francisco', 'seattle', 'boston', 'chicago', 'toronto',
  'vancouver', 'sydney', 'melbourne', 'singapore', 'beijing', 'shanghai', 'shenzhen', 'hong kong', 'munich',
  'amsterdam', 'dublin', 'china', 'the us', 'the usa', 'the uk', 'canada', 'germany', 'japan', 'france',
  'australia', 'india', 'england', 'california', 'texas',
];

/** A known place, or a Chinese name ending in an administrative suffix (市/省/县/区/州/镇/村). */
export function isPlace(text: string): boolean {
  const norm = normaliseText(text);
  if (PLACES_ZH.includes(norm) || PLACES_EN.includes(norm)) return true;
  return hasHan(norm) && /^\p{Script=Han}{1,8}(市|省|县|区|州|镇|村)$/u.test(norm);
}

export const LANGUAGES: readonly { code: string; en: string; zh: string; terms: readonly string[] }[] = [
  { code: 'zh', en: 'Chinese', zh: '中文', terms: ['chinese', 'mandarin', '中文', '汉语', '普通话', '国语'] },
  { code: 'en', en: 'English', zh: '英文', terms: ['english', '英文', '英语'] },
  { code: 'ja', en: 'Japanese', zh: '日语', terms: ['japanese', '日语', '日文'] },
  { code: 'ko', en: 'Korean', zh: '韩语', terms: ['korean', '韩语', '韩文'] },
  { code: 'fr', en: 'French', zh: '法语', terms: ['french', '法语', '法文'] },
  { code: 'de', en: 'German', zh: '德语', terms: ['german', '德语', '德文'] },
  { code: 'es', en: 'Spanish', zh: '西班牙语', terms: ['spanish', '西班牙语'] },
  { code: 'yue', en: 'Cantonese', zh: '粤语', terms: ['cantonese', '粤语', '广东话'] },
];

export function languageCode(text: string): string | null {
  const norm = normaliseText(text);
  return LANGUAGES.find((l) => l.terms.includes(norm))?.code ?? null;
}

export function languageName(code: string, lang: 'zh' | 'en'): string {
  const entry = LANGUAGES.find((l) => l.code === code);
  return entry ? entry[lang] : code;
}

/** Subjects of "my favourite X is Y" / "我最喜欢的X是Y", so both languages share a key. */
export const FAVORITE_SUBJECTS: readonly { id: string; terms: readonly string[] }[] = [
  { id: 'color', terms: ['color', 'colour', '颜色'] },
  { id: 'food', terms: ['food', 'dish', '食物', '菜', '美食'] },
  { id: 'drink', terms: ['drink', 'beverage', '饮料', '饮品'] },
  { id: 'movie', terms: ['movie', 'film', '电影'] },
  { id: 'book', terms: ['book', 'novel', '书', '小说'] },
  { id: 'song', terms: ['song', '歌', '歌曲'] },
  { id: 'band', terms: ['band', 'singer', 'artist', '乐队', '歌手'] },
  { id: 'sport', terms: ['sport', '运动'] },
  { id: 'animal', terms: ['animal', 'pet', '动物', '宠物'] },
  { id: 'season', terms: ['season', '季节'] },
  { id: 'city', terms: ['city', '城市'] },
  { id: 'programming-language', terms: ['programming language', 'language', '编程语言', '语言'] },
];

export function favoriteSubjectId(subject: string): string | null {
  const norm = normaliseText(subject);
  return FAVORITE_SUBJECTS.find((s) => s.terms.includes(norm))?.id ?? null;
}

/** Heads of English job titles ("a senior backend developer" ends in one of these). */
export const PROFESSIONS_EN = [
  'engineer', 'developer', 'programmer', 'designer', 'teacher', 'professor', 'doctor', 'nurse', 'lawyer',
  'student', 'writer', 'novelist', 'journalist', 'accountant', 'manager', 'scientist', 'researcher', 'analyst',
  'architect', 'consultant', 'chef', 'pharmacist', 'translator', 'editor', 'artist', 'photographer',
  'musician', 'dentist', 'therapist', 'freelancer', 'entrepreneur', 'founder', 'intern', 'marketer', 'pilot',
];

/** Endings of Chinese job titles (程序员, 设计师, 产品经理, 研究生, 自由职业者 …). */
export const PROFESSION_SUFFIX_ZH = /(师|员|生|家|者|工|经理|总监|医生|老师|教授|律师|护士|会计|记者|警察|司机|主播|博主|编辑|老板|店主|作者|实习生)$/u;

/** Domains whose terms are names of things one uses: "用 Python 写代码" is about Python. */
const CONTAINED_DOMAINS: readonly LexiconEntry['domain'][] = ['programming', 'tool'];

/**
 * The lexicon entry an object names: an exact term, or for languages and tools the longest term it
 * contains in a short phrase ("to code in Python" → python). Other objects must match exactly, so
 * "horror movies" is not "movies" and "奶茶" is not "茶".
 */
export function lookupObject(object: string): LexiconEntry | null {
  const norm = normaliseText(object);
  let best: { entry: LexiconEntry; len: number } | null = null;
  for (const entry of OBJECTS) {
    for (const term of entry.terms) {
      if (norm === term) return entry;
      if (!CONTAINED_DOMAINS.includes(entry.domain) || Array.from(norm).length > 24 || !containsTerm(norm, term)) continue;
      if (!best || term.length > best.len) best = { entry, len: term.length };
    }
  }
  return best?.entry ?? null;
}

function containsTerm(text: string, term: string): boolean {
  if (hasHan(term)) return text.includes(term);
  const escaped = term.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');
  return new RegExp(`(^|[^\\p{L}\\p{N}])${escaped}($|[^\\p{L}\\p{N}+#])`, 'u').test(text);
}

/** The object's words in both languages, so an English query finds a Chinese memory and vice versa. */
export function lexiconTags(entry: LexiconEntry): string[] {
  const en = entry.terms.find((t) => !hasHan(t));
  const zh = entry.terms.find((t) => hasHan(t));
  return [entry.domain, ...(en ? [en] : []), ...(zh ? [zh] : [])];
}
