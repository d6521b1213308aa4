import { describe, expect, it } from 'vitest';
import { claimKey, claimsOf, claimsOfText, contradiction, parseClaimKey } from './claims';

describe('what a rule claims (zh/en lexicon, or a learned rule’s basis)', () => {
  it.each([
    ['偏好长句', 'sentence-length:long@*/*'],
    ['动作场景偏好短句、快节奏', 'sentence-length:short@action/*'],
    ['所有角色对白不使用感叹号', 'exclamation:avoid@dialogue/*'],
    ['可以用感叹号加强语气', 'exclamation:welcome@*/*'],
    ['avoid exclamation marks in dialogue', 'exclamation:avoid@dialogue/*'],
    ['严格第一人称叙述', 'person:first@*/*'],
    ['使用第三人称全知', 'person:third@*/*'],
    ['偏好华丽辞藻', 'ornate:ornate@*/*'],
    ['偏好简洁风格', 'ornate:plain@*/*'],
    ['润色时偏好比原文更短的结果', 'length:shorter@*/polish'],
    ['prefers longer results when polishing', 'length:longer@*/polish'],
    ['太啰嗦了，不要这么长', 'length:shorter@*/*'],
  ])('%s → %s', (text, key) => {
    expect(claimsOfText(text).map(claimKey)).toEqual([key]);
  });

  it('claims nothing it cannot read', () => {
    expect(claimsOfText('主角的名字叫阿明')).toEqual([]);
  });

  it('a learned rule claims its basis, not its words', () => {
    const claims = claimsOf({ rule: 'anything at all', source: 'learned', basis: [{ pattern: 'scene.dialogue.register', pole: 'colloquial' }] });
    expect(claims.map(claimKey)).toEqual(['register:colloquial@dialogue/*']);
    expect(parseClaimKey('register:colloquial@dialogue/*')).toEqual(claims[0]);
  });
});

describe('direct contradictions', () => {
  const user = (t: string) => claimsOfText(t);
  it('finds "prefers longer" against "prefers shorter", also when one is qualified', () => {
    expect(contradiction(user('偏好长句'), user('偏好短句'), { bothLearned: false })).not.toBeNull();
    expect(contradiction(user('偏好长句'), user('动作场景偏好短句'), { bothLearned: false })).not.toBeNull();
    expect(contradiction(user('偏好长句'), user('偏好长句'), { bothLearned: false })).toBeNull();
  });

  it('different scenes do not contradict; nested learned rules are exceptions, crossing ones conflict', () => {
    expect(contradiction(user('对白偏好长句'), user('动作场景偏好短句'), { bothLearned: false })).toBeNull();
    expect(contradiction(user('偏好长句'), user('动作场景偏好短句'), { bothLearned: true })).toBeNull();
    expect(contradiction(user('润色偏好长句'), user('动作场景偏好短句'), { bothLearned: true })).not.toBeNull();
    expect(contradiction(user('动作场景偏好长句'), user('动作场景偏好短句'), { bothLearned: true })).not.toBeNull();
  });
});
