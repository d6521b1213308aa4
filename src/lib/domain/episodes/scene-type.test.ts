import { describe, expect, it } from 'vitest';
import { classifyScene, type SceneType } from './scene-type';

const CASES: [SceneType, string, string][] = [
  ['action', 'zh 打斗', '他一拳砸向对方的脸。对方侧身闪开，反手拔出短刀。刀锋划过他的手臂，血溅了出来。他咬牙扑上去，两人滚倒在地。'],
  ['action', 'zh 追逐', '她冲出巷口。身后的脚步越来越近！她翻过铁栅栏，狂奔。子弹击中墙面，碎石乱飞。'],
  ['action', 'en fight', 'He swung the sword at her head. She ducked, lunged forward and struck his wrist. The blade fell. He grabbed her arm and slammed her into the wall.'],
  ['action', 'en chase', 'They ran. The dogs were close! Mara leapt the fence and dashed into the trees. A shot hit the bark beside her.'],
  ['dialogue', 'zh 对白', '“你到底去哪儿了？”母亲问道。\n“就在图书馆。”他低声说。\n“图书馆十点就关门了。”\n“我……我在外面坐了一会儿。”'],
  ['dialogue', 'zh 引号', '「明天还来吗？」\n「看情况吧。」她笑道，「如果你请我喝茶的话。」'],
  ['dialogue', 'en dialogue', '"Where were you?" his mother asked.\n"At the library," he said.\n"The library closes at ten."\n"I sat outside for a while," he muttered.'],
  ['description', 'zh 描写', '清晨的阳光穿过薄雾，淡淡地铺在河面上。远处的山峦仿佛浸在水墨里，岸边的柳树静静垂着，空气里有青草和泥土的香气。'],
  ['description', 'en description', 'Morning light drifted through the mist and lay softly on the river. The distant mountains were pale blue, the willows hung quiet over the water, and the air smelled of wet grass.'],
  ['introspection', 'zh 内心独白', '我不知道自己为什么要答应他。也许是害怕一个人吧？心里总有个念头在问：难道这就是我想要的生活吗？我后悔了，却又说不清后悔什么。'],
  ['introspection', 'en inner monologue', 'I wondered why I had said yes. Maybe I was afraid of being alone? Perhaps I only wished he would stay. I thought about it all night and still did not know my own mind.'],
  ['exposition', 'zh 背景交代', '三百年前，北方诸部建立了统一的王国。据说开国的君主定下律法，规定每个家族都须向王庭进贡。这一制度延续了整个时代，人们至今仍称之为“盟约时代”。'],
  ['exposition', 'en exposition', 'Three centuries ago the northern clans founded a single kingdom. The first king established a law that every family must pay tribute, and people still call that era the Age of the Pact because the law shaped the whole realm.'],
  ['narration', 'zh 平铺叙述', '第二天他去了学校，上了两节课，中午在食堂吃了饭，下午回家做作业。'],
  ['narration', 'empty', ''],
];

describe('003 sceneType classifier (heuristic, zh and en)', () => {
  it.each(CASES)('%s ← %s', (expected, _label, text) => {
    const got = classifyScene(text);
    expect(got.sceneType, JSON.stringify(got.scores)).toBe(expected);
  });

  it('a winner says by how much it leads; the fallback has confidence 0', () => {
    const fight = classifyScene(CASES[0]?.[2] ?? '');
    expect(fight.confidence).toBeGreaterThan(0);
    expect(fight.scores.action).toBeGreaterThan(fight.scores.description);
    expect(classifyScene('他走了。').confidence).toBe(0);
  });

  it('words inside quotation marks do not count as the scene’s own cues', () => {
    // The characters talk about a fight; the scene is their conversation.
    const talk = '“昨晚他一拳打断了对方的鼻子，还拔出了刀。”她说。\n“后来呢？”我问道。\n“后来警察来了。”';
    expect(classifyScene(talk).sceneType).toBe('dialogue');
  });
});
