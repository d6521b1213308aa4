/**
 * English irregular verbs (base, past, past participle): the index's porter stemmer joins regular forms
 * (researched, researching → research) but not felt/feel, bought/buy, won/win, wrote/written/write. A question asks
 * "What did Joanna write?" and the turn says "I wrote…"; recall searches all forms of such a verb (issue 8,
 * round 2). The list is the common irregular verbs of English grammars, not words picked from any data set; verbs
 * whose forms are all stop words (go/went, make/made, get/got …) are left out because they are never searched, and
 * so are verbs whose past forms are common words of their own (rose, spring, wound, bore, bound, lay).
 */
const IRREGULAR: readonly string[] = [
  'arise arose arisen', 'awake awoke awoken', 'beat beat beaten', 'become became become',
  'begin began begun', 'bend bent bent', 'bet bet bet', 'bite bit bitten', 'bleed bled bled',
  'blow blew blown', 'break broke broken', 'breed bred bred', 'bring brought brought', 'build built built',
  'burn burnt burnt', 'buy bought bought', 'catch caught caught', 'choose chose chosen', 'cling clung clung',
  'cost cost cost', 'creep crept crept', 'cut cut cut', 'deal dealt dealt', 'dig dug dug', 'draw drew drawn',
  'dream dreamt dreamt', 'drink drank drunk', 'drive drove driven', 'eat ate eaten', 'fall fell fallen',
  'feed fed fed', 'feel felt felt', 'fight fought fought', 'find found found', 'flee fled fled', 'fly flew flown',
  'forbid forbade forbidden', 'forget forgot forgotten', 'forgive forgave forgiven', 'freeze froze frozen',
  'grow grew grown', 'hang hung hung', 'hear heard heard', 'hide hid hidden', 'hit hit hit', 'hold held held',
  'hurt hurt hurt', 'kneel knelt knelt', 'lay laid laid', 'lead led led', 'lean leant leant', 'leap leapt leapt',
  'learn learnt learnt', 'leave left left', 'lend lent lent', 'light lit lit', 'lose lost lost',
  'meet met met', 'overcome overcame overcome', 'pay paid paid', 'prove proved proven', 'quit quit quit',
  'read read read', 'ride rode ridden', 'ring rang rung', 'run ran run', 'sell sold sold',
  'send sent sent', 'set set set', 'sew sewed sewn', 'shake shook shaken', 'shine shone shone', 'shoot shot shot',
  'show showed shown', 'shrink shrank shrunk', 'shut shut shut', 'sing sang sung', 'sink sank sunk', 'sit sat sat',
  'sleep slept slept', 'slide slid slid', 'speak spoke spoken', 'speed sped sped', 'spend spent spent',
  'spin spun spun', 'spread spread spread', 'stand stood stood', 'steal stole stolen',
  'stick stuck stuck', 'sting stung stung', 'stink stank stunk', 'strike struck struck', 'strive strove striven',
  'swear swore sworn', 'sweep swept swept', 'swim swam swum', 'swing swung swung', 'teach taught taught',
  'tear tore torn', 'throw threw thrown', 'understand understood understood', 'wake woke woken', 'wear wore worn',
  'weave wove woven', 'weep wept wept', 'win won won', 'write wrote written',
  'undergo underwent undergone', 'withdraw withdrew withdrawn', 'mislead misled misled',
  'overhear overheard overheard', 'rebuild rebuilt rebuilt', 'retell retold retold', 'rewrite rewrote rewritten',
  'upset upset upset', 'uphold upheld upheld',
];

let forms: Map<string, readonly string[]> | null = null;

function table(): Map<string, readonly string[]> {
  if (forms) return forms;
  forms = new Map();
  for (const row of IRREGULAR) {
    const all = [...new Set(row.split(' '))];
    for (const f of all) forms.set(f, [...new Set([...(forms.get(f) ?? []), ...all])]);
  }
  return forms;
}

/** The other forms of an irregular English verb (lower case), [] for any other word. */
export function verbForms(word: string): string[] {
  const w = word.toLowerCase();
  return (table().get(w) ?? []).filter((f) => f !== w);
}
