/**
 * English stop words for keyword extraction (not for the index: the index keeps every word so phrases still match).
 *
 * What is here: articles, pronouns and possessives, auxiliaries and modals (with their contractions), prepositions,
 * conjunctions, question words, quantifiers, fillers of chat ("hi", "thanks", "ok"), light verbs that carry no topic
 * (do, get, make, use, want, need, think, know, say) and relative time words (today, ago, week), because time is
 * resolved by `time-expressions.ts`, not matched as text.
 *
 * What is deliberately NOT here: verbs and nouns of preference and content (like, love, prefer, hate, enjoy, write,
 * read, play, code, work). 001's scenario needs "喜欢" (like) as a keyword; "like" is kept for the same reason.
 *
 * Entries are lowercase; apostrophes are ASCII (the matcher folds ’ to ').
 */
export const EN_STOP_WORDS: readonly string[] = [
  // articles, determiners, quantifiers
  'a', 'an', 'the', 'this', 'that', 'these', 'those', 'some', 'any', 'each', 'every', 'all', 'both', 'either',
  'neither', 'no', 'none', 'one', 'ones', 'other', 'others', 'another', 'such', 'same', 'own', 'more', 'most',
  'less', 'least', 'much', 'many', 'few', 'several', 'lot', 'lots', 'bit', 'enough', 'only', 'just', 'even',
  // pronouns and possessives
  'i', 'me', 'my', 'mine', 'myself', 'we', 'us', 'our', 'ours', 'ourselves', 'you', 'your', 'yours', 'yourself',
  'yourselves', 'he', 'him', 'his', 'himself', 'she', 'her', 'hers', 'herself', 'it', 'its', 'itself', 'they',
  'them', 'their', 'theirs', 'themselves', 'someone', 'somebody', 'something', 'anyone', 'anybody', 'anything',
  'everyone', 'everybody', 'everything', 'nothing', 'nobody', 'thing', 'things', 'stuff', 'u', 'ur', 'ya',
  // auxiliaries, modals, copula
  'am', 'is', 'are', 'was', 'were', 'be', 'been', 'being', 'do', 'does', 'did', 'doing', 'done', 'have', 'has',
  'had', 'having', 'will', 'would', 'shall', 'should', 'can', 'could', 'may', 'might', 'must', 'ought',
  // contractions
  "i'm", "i've", "i'd", "i'll", "you're", "you've", "you'd", "you'll", "he's", "he'd", "he'll", "she's", "she'd",
  "she'll", "it's", "it'd", "it'll", "we're", "we've", "we'd", "we'll", "they're", "they've", "they'd", "they'll",
  "that's", "there's", "here's", "what's", "who's", "where's", "when's", "why's", "how's", "let's", "isn't",
  "aren't", "wasn't", "weren't", "don't", "doesn't", "didn't", "haven't", "hasn't", "hadn't", "won't", "wouldn't",
  "shan't", "shouldn't", "can't", "cannot", "couldn't", "mustn't", "mightn't", "needn't", "ain't", "gonna",
  'wanna', 'gotta', 'im', 'ive', 'dont', 'doesnt', 'didnt', 'cant', 'wont', 'isnt', 'thats',
  // prepositions
  'about', 'above', 'across', 'after', 'against', 'along', 'among', 'around', 'as', 'at', 'before', 'behind',
  'below', 'beside', 'besides', 'between', 'beyond', 'by', 'down', 'during', 'except', 'for', 'from', 'in',
  'inside', 'into', 'near', 'of', 'off', 'on', 'onto', 'out', 'outside', 'over', 'per', 'since', 'through',
  'throughout', 'till', 'to', 'toward', 'towards', 'under', 'until', 'up', 'upon', 'via', 'with', 'within',
  'without',
  // conjunctions, connectives
  'and', 'or', 'but', 'nor', 'so', 'yet', 'if', 'then', 'than', 'because', 'though', 'although',
  'while', 'whereas', 'unless', 'whether', 'also', 'too', 'however', 'therefore', 'thus', 'anyway',
  'instead', 'else', 'otherwise',
  // question words and relatives
  'what', 'which', 'who', 'whom', 'whose', 'when', 'where', 'why', 'how', 'whatever', 'whoever', 'whenever',
  'wherever', 'there', 'here',
  // adverbs and fillers without topic
  'not', 'very', 'really', 'quite', 'rather', 'pretty', 'still', 'already', 'again', 'always', 'never', 'ever',
  'often', 'sometimes', 'usually', 'maybe', 'perhaps', 'probably', 'actually', 'basically', 'literally',
  'almost', 'well', 'oh', 'ah', 'uh', 'um', 'hmm', 'hey', 'hi', 'hello', 'yes', 'yeah', 'yep', 'nope',
  'ok', 'okay', 'sure', 'please', 'thanks', 'thank', 'thx', 'lol', 'wow', 'etc', 'eg', 'ie', 'vs',
  // light verbs (the topic is in their object, not in them)
  'get', 'gets', 'got', 'gotten', 'getting', 'make', 'makes', 'made', 'making', 'go', 'goes', 'went', 'gone',
  'going', 'come', 'comes', 'came', 'coming', 'take', 'takes', 'took', 'taken', 'use', 'uses', 'used', 'using',
  'say', 'says', 'said', 'tell', 'tells', 'told', 'know', 'knows', 'knew', 'known', 'think', 'thinks', 'thought',
  'want', 'wants', 'wanted', 'need', 'needs', 'needed', 'let', 'lets', 'put', 'keep', 'keeps', 'kept', 'seem',
  'seems', 'seemed', 'try', 'tries', 'tried', 'give', 'gives', 'gave', 'given', 'see', 'sees', 'saw', 'seen',
  'mean', 'means', 'meant', 'remember', 'recall', 'mentioned', 'mention', 'talk', 'talked', 'ask', 'asked',
  // relative time (resolved by time-expressions.ts instead)
  'now', 'today', 'tonight', 'yesterday', 'tomorrow', 'ago', 'last', 'next', 'previous', 'recent', 'recently',
  'earlier', 'later', 'soon', 'once', 'day', 'days', 'week', 'weeks', 'month', 'months', 'year', 'years', 'time',
  'times', 'moment',
  // web noise in pasted text
  'http', 'https', 'www',
];
