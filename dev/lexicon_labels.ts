/**
 * Category and severity of each built-in lexicon entry (input of dev/build_lexicon.ts): the first
 * rule of the entry's language whose pattern matches the bare entry gives its label,
 * "<category> <severity>[ <kind>]" (categories and kinds: lib/abuse/detector.ts). Entries no rule
 * matches are "profanity 2"; languages without rules here carry that default throughout.
 * Severities: 1 mild (intensifiers, mild swearing), 2 moderate, 3 strong, 4 severe (slurs,
 * threats, incitement to self-harm).
 */

/** Label rules per language: [pattern over the bare lower-case entry, label]. */
export const LABEL_RULES: Record<string, [RegExp, string][]> = {
  en: [
    [
      /^(fucking|fuckin|fking|fkin|effing|frigging|friggin|freaking|motherfucking)$/,
      "profanity 3 intensifies",
    ],
    [
      /nig(g|$|let|ra|ga)|nicca|fag|dyke|tranny|shemale|chink|chingchong|gook|spic|kike|wetback|beaner|coon|abeed|boonga|arabush|jigaboo|raghead|towelhead|paki|wop|dago|kraut|honkey|honky|pikey|wigg|negro|darkie|golliwog|zipperhead|spook|retard|^tard|spastic|spaz|mong$|untermensch/,
      "slur 4",
    ],
    [/rape|pedo|paedo|incest|molest|bestiality|zoophil|necrophil/, "sexual 3"],
    [
      /bitch|cunt|whore|slut|skank|bastard|asshole|arsehole|dickhead|douche|fucker|wanker|tosser|twat|prick|jackass|dumbass|dipshit|shithead|cocksucker|knobhead|bellend|scumbag|cuck|^hoe|^hos?$|gaywad|white trash|motherfucker|fuckface|shitface|asswipe|cumdump|cumbucket/,
      "insult 3",
    ],
    [/fuck|^cunt|wtf|stfu/, "profanity 3"],
    [
      /porn|sex|cum|jizz|dildo|blowjob|handjob|rimjob|anal|anus|orgasm|masturb|jerk|jack off|wank|boob|tit|nipple|vagina|pussy|clit|penis|cock|dick|schlong|erect|boner|horny|nude|naked|milf|bdsm|fetish|gangbang|threesome|orgy|hentai|ejacul|semen|sperm|genital|vulva|plug|strap|fist|throat|camgirl|hooker|prostitut|smut|xxx|nsfw|ecchi|yaoi|shota|futanari|bukkake|creampie|squirt|felch|pegging|rimming|fingering|tushy|poon|quim|pubes|muff|cunnilingus|fellatio|scat|shower|bang|busty|juggs|pecker|grope|spunk|skeet|butt|bbw|guro|sadism|sodomy|fecal|humping/,
      "sexual 2",
    ],
    [
      /^(damn|god damn|goddamn|hell|crap|crappy|bloody|bugger|bollocks|arse|turd|suck|sucks|piss|pissed|poop|fart|butt)$/,
      "profanity 1",
    ],
    [/nazi|swastika|hitler/, "slur 3"],
  ],
  ko: [
    [
      /^(존나|졸라|존 나|존ㄴ나|jonna|졵나|존내|졸나|존니|존잘|존잼|존예|존맛|존멋|존버|존똑|존웃|존좋|존싫|존귘|존낙|졸맛|졸멋|졸싫|졸예|졸웃|졸잼|졸좋|ㅈ\.ㄴ)$/,
      "intensifier 1",
    ],
    [
      /짱깨|짱개|쪽바리|깜둥|흑형|똥남아|조선족|한남충|김치녀|된장녀|한녀|틀딱|홍어|전라디언|쪽빠리|왜놈|뙤놈|섬숭이|게이새|똥꼬충|애자|장애새|병신년|베충|일베충|메갈|도태남/,
      "slur 4",
    ],
    [/강간|윤간|몰카|근친|로리|성폭/, "sexual 3"],
    [
      /섹|보지|자지|딸딸이|야동|포르노|자위|창녀|걸레|사까시|빠구리|후장|에로|변태|은꼴|거유|노모|직촬|스와핑|보징어|보슬|보픈카|허벌|풀발|야애니|하드코어|딸치|fuck|꼬추|고추|젖|불알/,
      "sexual 2",
    ],
    [
      /씨발|시발|씨팔|씨빨|씹|좆|ㅅㅂ|ㅆㅂ|ㅅ\.ㅂ|ㅆ1ㅂ|tlqkf|wlfkf|지랄|ㅈㄹ|염병|옘병|ㅄ|엠창|엄창|느금|니미|니애미|애미|애비|니에미/,
      "profanity 3",
    ],
    [
      /새끼|새기|새꺄|ㅅㄲ|ㅅ끼|개새|병신|븅신|벙신|ㅂㅅ|년|놈|미친|또라이|도라이|찐따|등신|머저리|멍청|멍충|쓰레기|버러지|개같|개소리|닥쳐|꺼져|뒤져|뒈져|죽일|처죽|쳐죽|육갑|호로|후레|쌍놈|잡놈|개자식|종간나|기레기|찌질|대가리|대갈|머가리|빡대가리|개돼지|정신병/,
      "insult 3",
    ],
  ],
};

/** The label of an entry (markers stripped) of a language. */
export function labelOf(lang: string, entry: string): string {
  const bare = entry.replace(/^~/, "").replace(/^[*|]|[*|]$/g, "").toLowerCase();
  for (const [pattern, label] of LABEL_RULES[lang] ?? []) {
    if (pattern.test(bare)) return label;
  }
  return "profanity 2";
}
