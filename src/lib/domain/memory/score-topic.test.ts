import { describe, expect, it } from 'vitest';
import { focusedTopicKeywords } from './score-topic';

const memory = (content: string, tags: string[] = []) => ({ content, key: '', tags });

describe('focusedTopicKeywords', () => {
  // Twenty memories: 喜欢 and 开心 in most of them, 蛋糕 in one, 爷爷 in three.
  const memories = [
    memory('爷爷教Lisa做蛋糕，Lisa很开心', ['其他类', '开心']),
    memory('爷爷奶奶带Lisa种花', ['喜好类', '开心']),
    memory('爷爷送给Lisa一本书', ['其他类', '开心']),
    ...Array.from({ length: 17 }, (_, i) => memory(`Lisa喜欢第${i}个游戏`, ['喜好类', '开心'])),
  ];
  it.each([
    { share: 0.05, want: ['蛋糕'] }, // at most 2 of 20
    { share: 0.1, want: ['蛋糕', '爷爷'] }, // at most 3
    { share: 1, want: ['喜欢', '开心', '蛋糕', '爷爷'] },
  ])('keeps the topic words at most $share of the candidates hold: $want', ({ share, want }) => {
    expect(focusedTopicKeywords(['喜欢', '开心', '蛋糕', '爷爷'], memories, share)).toEqual(want);
  });

  it('keeps every word when there is nothing to compare', () => {
    expect(focusedTopicKeywords(['蛋糕'], [], 0.1)).toEqual(['蛋糕']);
  });

  it('keeps the word that singles out one of a few memories', () => {
    expect(focusedTopicKeywords(['Kubernetes'], [memory('Kubernetes 集群用 helm 部署'), memory('部署前要先跑完测试')], 0.1)).toEqual(['Kubernetes']);
  });
});
