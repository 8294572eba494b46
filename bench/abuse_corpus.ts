/** Deterministic word lists and chat-like texts for the abuse benchmarks (no data files). */

const SCRIPTS: string[][] = [
  "abcdefghijklmnopqrstuvwxyz".split(""),
  Array.from("가나다라마바사아자차카타파하시발병신개새끼놈년미친좆까"),
  Array.from("あいうえおかきくけこさしすせそたちつてとなにぬねのばかやろう"),
  Array.from("操你妈的傻逼王八蛋狗屎滚开笨蛋垃圾死全家"),
  Array.from("กขคงจฉชซญดตถทนบปผพฟมยรลวสหอฮควย"),
  Array.from("абвгдежзийклмнопрстуфхцчшщыэюя"),
];

/** A small seeded PRNG so every run measures the same data. */
export function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** `count` distinct forbidden words across the scripts, 3 to 7 characters long. */
export function forbiddenWords(count: number, seed = 7): string[] {
  const rnd = prng(seed);
  const words = new Set<string>(["fuck", "shit", "bitch", "시발", "병신", "操你妈", "ばか", "ควย"]);
  while (words.size < count) {
    const script = SCRIPTS[Math.floor(rnd() * SCRIPTS.length)];
    const len = 3 + Math.floor(rnd() * 5);
    let w = "";
    for (let i = 0; i < len; i++) w += script[Math.floor(rnd() * script.length)];
    words.add(w);
  }
  return [...words];
}

const FILLER = [
  "hello team lets go raid tonight",
  "안녕하세요 오늘 같이 던전 가실 분",
  "今日はいい天気ですね一緒に遊ぼう",
  "我们今天晚上一起打副本吧",
  "สวัสดีครับวันนี้เล่นเกมกันไหม",
  "привет как дела пойдем в рейд",
  "hola amigos vamos a jugar",
  "f.u.c.k this sh1t 시 발 ばか",
];

/** `count` texts of exactly `length` UTF-16 units mixing the scripts (some with insults). */
export function chatTexts(count: number, length = 100, seed = 11): string[] {
  const rnd = prng(seed);
  const texts: string[] = [];
  for (let i = 0; i < count; i++) {
    let t = "";
    while (t.length < length) t += FILLER[Math.floor(rnd() * FILLER.length)] + " ";
    texts.push(t.slice(0, length));
  }
  return texts;
}
