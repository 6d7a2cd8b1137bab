// Numbers written in English words ("twelve", "twenty-five", "one hundred and five", "twice"), for operators
// that must keep a number a text states in words as well as in digits (a limit said "no more than twelve
// tool calls" stays 12). Digits are `extractNumbers`'s; this reads only words.

// Maps, not object literals: a word such as "constructor" must not read Object.prototype's members.
const units: ReadonlyMap<string, number> = new Map(
  Object.entries({
    zero: 0,
    one: 1,
    two: 2,
    three: 3,
    four: 4,
    five: 5,
    six: 6,
    seven: 7,
    eight: 8,
    nine: 9,
    ten: 10,
    eleven: 11,
    twelve: 12,
    thirteen: 13,
    fourteen: 14,
    fifteen: 15,
    sixteen: 16,
    seventeen: 17,
    eighteen: 18,
    nineteen: 19,
  }),
);
const tens: ReadonlyMap<string, number> = new Map(
  Object.entries({
    twenty: 20,
    thirty: 30,
    forty: 40,
    fifty: 50,
    sixty: 60,
    seventy: 70,
    eighty: 80,
    ninety: 90,
  }),
);
const scales: ReadonlyMap<string, number> = new Map([
  ['hundred', 100],
  ['thousand', 1_000],
  ['million', 1_000_000],
]);
/** Counts of times: "retry twice" states 2. */
const times: ReadonlyMap<string, number> = new Map([
  ['once', 1],
  ['twice', 2],
  ['thrice', 3],
]);

/**
 * The numbers a text writes in English words, as canonical strings in the order they end: each run of number
 * words is one number ("twenty-five", "one hundred and five", "two thousand", "a hundred"), and "once",
 * "twice" and "thrice" count. "and" joins a run only between number words.
 *
 * @example
 * numbersInWords('No more than twelve calls; retry twice, at most one hundred and five characters.')
 * // ['12', '2', '105']
 */
export function numbersInWords(text: string): string[] {
  const found: string[] = [];
  const words = text.toLowerCase().match(/[a-z]+/g) ?? [];
  // The run being read: the finished thousands (`total`) and the group below a thousand (`group`).
  let total = 0;
  let group = 0;
  let inRun = false;
  const end = () => {
    if (inRun) found.push(String(total + group));
    total = 0;
    group = 0;
    inRun = false;
  };
  words.forEach((word, index) => {
    const unit = units.get(word) ?? tens.get(word);
    if (unit !== undefined) {
      // "twenty five" continues a run; "five twenty" (two numbers side by side) starts another.
      if (inRun && group % 100 !== 0 && !(group % 10 === 0 && group % 100 >= 20 && unit < 10)) end();
      group += unit;
      inRun = true;
    } else if (scales.has(word) && (inRun || words[index - 1] === 'a')) {
      // "a hundred" is one hundred.
      inRun = true;
      const scale = scales.get(word) as number;
      if (scale === 100) group = (group || 1) * 100;
      else {
        total += (group || 1) * scale;
        group = 0;
      }
    } else if (
      word === 'and' &&
      inRun &&
      (units.has(words[index + 1] ?? '') || tens.has(words[index + 1] ?? ''))
    ) {
      // "one hundred and five": the run goes on.
    } else {
      end();
      const count = times.get(word);
      if (count !== undefined) found.push(String(count));
    }
  });
  end();
  return found;
}
