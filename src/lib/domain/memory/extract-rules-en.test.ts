import { describe } from 'vitest';
import { runExtractCases, type ExtractCase } from './extract-testing';

const like = { stance: 'like' };
const dislike = { stance: 'dislike' };
const pasted = `Here is the log you asked for. ${'The service restarted and the queue drained without errors. '.repeat(40)}I like coffee.`;

const CASES: readonly ExtractCase[] = [
  // ── stated preferences ─────────────────────────────────────────────────────
  { text: 'I prefer tea over coffee', expect: [{ key: 'preference.food.tea', category: 'preference', value: like }] },
  { text: 'As I said before: I prefer tea.', expect: [{ key: 'preference.food.tea', value: like }] },
  {
    text: "I don't like coffee anymore, I switched to tea",
    expect: [
      { key: 'preference.food.coffee', value: dislike, retracts: true },
      { key: 'preference.food.tea', value: like },
    ],
  },
  { text: 'I hate cilantro', expect: [{ key: 'preference.food.cilantro', value: dislike }] },
  {
    text: 'I love hiking and swimming',
    expect: [
      { key: 'preference.sport.hiking', value: like },
      { key: 'preference.sport.swimming', value: like },
    ],
  },
  { text: 'I like to code in Python', expect: [{ key: 'preference.programming.python', value: like }] },
  { text: "Btw, I'm a big fan of jazz", expect: [{ key: 'preference.music.jazz', value: like }] },
  { text: "I'm not a fan of horror movies", expect: [{ key: 'preference.topic.horror-movies', value: dislike }] },
  { text: "I'm into bouldering", expect: [{ key: 'preference.sport.climbing', value: like }] },
  { text: "I've switched to Vim", expect: [{ key: 'preference.tool.vim', value: like }] },
  { text: 'I quit smoking', expect: [{ key: 'preference.topic.smoking', value: dislike, retracts: true }] },
  { text: 'I really enjoy long walks, especially in autumn', expect: [{ key: 'preference.topic.long-walks', value: like }] },
  { text: 'My favorite color is green', expect: [{ key: 'preference.favorite.color', value: { object: 'green' } }] },
  { text: 'I usually write in the mornings', expect: [{ key: 'pattern.habit.write-in-the-mornings', category: 'pattern' }] },
  // ── who the user is ─────────────────────────────────────────────────────────
  {
    text: 'My name is Sam and I work at Google',
    expect: [
      { key: 'fact.name', category: 'fact', value: { name: 'Sam' } },
      { key: 'fact.employer', value: { employer: 'Google' } },
    ],
  },
  { text: 'call me Alex', expect: [{ key: 'fact.name', value: { name: 'Alex' } }] },
  { text: 'Please call me Dr. Lee', expect: [{ key: 'fact.name', value: { name: 'Dr. Lee' } }] },
  { text: 'I prefer to be called Max', expect: [{ key: 'fact.name', value: { name: 'Max' } }] },
  { text: 'Everyone calls me Bobby', expect: [{ key: 'fact.name', value: { name: 'Bobby' } }] },
  { text: 'Could you call me Sam from now on?', expect: [{ key: 'fact.name', value: { name: 'Sam' } }] },
  {
    text: "I'm a software engineer at Google",
    expect: [
      { key: 'fact.occupation', value: { occupation: 'software engineer' } },
      { key: 'fact.employer', value: { employer: 'Google' } },
    ],
  },
  { text: 'I work as a nurse', expect: [{ key: 'fact.occupation', value: { occupation: 'nurse' } }] },
  { text: 'I work in marketing', expect: [{ key: 'fact.industry', value: { industry: 'marketing' } }] },
  { text: 'I live in Berlin', expect: [{ key: 'fact.location', value: { location: 'Berlin' } }] },
  { text: "I've just moved to Lisbon", expect: [{ key: 'fact.location', value: { location: 'Lisbon' } }] },
  { text: "I'm from Canada", expect: [{ key: 'fact.hometown', value: { place: 'Canada' } }] },
  { text: "I'm 34 years old", expect: [{ key: 'fact.age', value: { age: 34 } }] },
  { text: 'My native language is Spanish', expect: [{ key: 'fact.native_language', value: { language: 'es' } }] },
  { text: "I'm allergic to peanuts", expect: [{ key: 'fact.allergy.peanut', value: { allergen: 'peanuts' } }] },
  { text: "I'm vegetarian", expect: [{ key: 'fact.diet', value: { diet: 'vegetarian' } }] },
  { text: 'I no longer work at Acme', expect: [{ key: 'fact.employer', value: null, retracts: true }] },
  // ── how to answer ───────────────────────────────────────────────────────────
  { text: 'From now on, please answer in Chinese', expect: [{ key: 'preference.reply.language', value: { language: 'zh' } }] },
  { text: 'Please always reply in English', expect: [{ key: 'preference.reply.language', value: { language: 'en' } }] },
  { text: 'From now on, keep your answers short', expect: [{ key: 'preference.reply.length', value: { length: 'concise' } }] },
  { text: 'I prefer detailed explanations', expect: [{ key: 'preference.reply.length', value: { length: 'detailed' } }] },
  { text: "Please don't use emojis", expect: [{ key: 'preference.reply.emoji', value: { emoji: false } }] },
  {
    text: 'Always include type annotations in code examples',
    expect: [{ key: 'preference.instruction.include-type-annotations-in-code-example', value: { instruction: 'include type annotations in code examples' } }],
  },
  // ── must NOT be stored ──────────────────────────────────────────────────────
  { text: 'Do you like coffee?', why: 'question', expect: [] },
  { text: "What's my name?", why: 'question', expect: [] },
  { text: 'Can you tell me what I like?', why: 'question', expect: [] },
  { text: 'If I liked coffee, which brand would you recommend?', why: 'hypothetical', expect: [] },
  { text: "Let's say my name is Bob", why: 'hypothetical', expect: [] },
  { text: 'Suppose I live in Paris, how far is London?', why: 'hypothetical', expect: [] },
  { text: 'If it rains, I like to stay home', why: 'hypothetical', expect: [] },
  { text: 'My friend likes coffee.', why: 'third person', expect: [] },
  { text: 'My wife and I love hiking.', why: 'third person', expect: [] },
  { text: 'She thinks I like jazz', why: 'quoting others', expect: [] },
  { text: 'He said "I like coffee".', why: 'quoting others', expect: [] },
  { text: 'The user prefers short answers.', why: 'third person (pasted prompt)', expect: [] },
  { text: 'I might like sushi', why: 'hedged', expect: [] },
  { text: 'I think I prefer tea, not sure', why: 'hedged', expect: [] },
  { text: "I don't work at Google", why: 'negated fact', expect: [] },
  { text: 'My name is not important', why: 'negated fact', expect: [] },
  { text: "I'm not allergic to anything", why: 'negated fact', expect: [] },
  { text: 'I worked at Google for two years', why: 'past', expect: [] },
  { text: 'I used to love jazz', why: 'past', expect: [] },
  { text: "I'd like a coffee, please", why: 'a request, not a preference', expect: [] },
  { text: 'I like your answer', why: 'about the chat', expect: [] },
  { text: 'I like it', why: 'about the chat', expect: [] },
  { text: 'I love how you explained it', why: 'about the chat', expect: [] },
  { text: 'Never mind', why: 'not an instruction', expect: [] },
  { text: 'I work at night', why: 'not an employer', expect: [] },
  { text: "Call me when you're done", why: 'not a name', expect: [] },
  { text: "I'm a bit tired", why: 'not an occupation', expect: [] },
  { text: 'I live in the moment', why: 'not a place', expect: [] },
  { text: 'Please answer in English.', why: 'one-off request', expect: [] },
  { text: 'Assistant: I prefer concise answers.', why: "the assistant's words", expect: [] },
  { text: '> I like coffee', why: 'quoted reply', expect: [] },
  { text: 'The system prompt says: I prefer concise answers', why: 'the system prompt', expect: [] },
  { text: 'The system prompt says I prefer concise answers', why: 'the system prompt', expect: [] },
  { text: 'Your instructions say: call me Sam.', why: 'the instructions', expect: [] },
  { text: 'My friend said: I love coffee.', why: 'reported speech', expect: [] },
  { text: 'He told me, I work at Google.', why: 'reported speech', expect: [] },
  { text: 'According to my doctor, I am allergic to peanuts.', why: 'reported speech', expect: [] },
  { text: 'I like the second one.', why: 'points into the conversation', expect: [] },
  { text: 'const name = "call me Sam";', why: 'code', expect: [] },
  { text: 'Check `my name is Bob` in the fixture', why: 'code', expect: [] },
  { text: pasted, why: 'very long text', expect: [] },
];

describe('extractCandidates: English rules', () => {
  runExtractCases(CASES, 'en');
});
