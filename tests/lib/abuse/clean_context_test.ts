/**
 * Words that read as something else in context: name-like entries inside a capitalised name,
 * entries inside capitalised surnames and place names, whole-word entries inside hyphenated
 * compounds, and phrase frames whose words between frame and target must qualify the insult.
 * Each clean reading has its abusive counterpart beside it.
 */
import assert from "node:assert/strict";
import { compileDetector, parseLabel } from "../../../lib/abuse/detector.ts";
import { LEXICON } from "../../../lib/abuse/lexicon_data.ts";

const builtin = compileDetector({ forbiddenWords: [], builtin: true });
const flagged = (text: string, lang = "en") => builtin.detect(text, { lang }).forbidden;
const mask = (text: string, lang = "en") => builtin.detect(text, { lang }).masked;

/** Asserts that each text is flagged (or not) by the built-in lexicon, English given. */
function expectFlagged(expected: boolean, texts: string[]) {
  for (const text of texts) assert.equal(flagged(text), expected, text);
}

Deno.test("name-like entries: labelled in the lexicon, read as names beside a capitalised name", () => {
  const en = LEXICON.en;
  assert.equal(en.labels[en.forbidden.indexOf("dick")], "sexual 2 word name");
  assert.equal(parseLabel("sexual 2 word name").name, true);
  assert.equal(parseLabel("sexual 2 word variant").name, false);
  assert.throws(() => parseLabel("sexual 2 word nickname"), /bad lexicon label/);
  expectFlagged(false, [
    "Dick Whittington became mayor of London",
    "Senator Dick Durbin spoke first",
    "the comic strip by Chester Gould, Dick Tracy, ran for decades",
    "novels by Philip J. Dick and others", // an initial before the name
    "Mr. Dick Wolf produced the show",
    "ask Mr. Dick about the key", // a title with its full stop is the only name beside it
    "we ate at Dick's Diner on Main Street",
    "Grandpa Dick turned ninety",
  ]);
  // Not a name: lower case, capitals throughout, no capitalised name beside it, or the words
  // beside it are function words, insult words or matches.
  expectFlagged(true, [
    "you dick",
    "what a dick, Tom",
    "DICK DURBIN",
    "such a Dick",
    "Suck My Dick",
    "Big Dick Energy",
    "Dick Head",
    "Hey Dick",
    "Stupid Dick",
    "Dick.", // alone
    "I met Tom. Dick was late", // a full stop after a word longer than a title ends the sentence
  ]);
  // Beside a definite match the name still counts, as a context-only entry does.
  assert.equal(mask("Dick Durbin is a cunt"), "**** Durbin is a ****");
});

Deno.test("entries inside capitalised surnames and place names", () => {
  expectFlagged(false, [
    "Danny Shittu headed the equaliser",
    "coach Leonid Slutsky praised the fans",
    "the Wankhede Stadium in Mumbai",
    "fans of Slutsky sang all night", // mid-sentence capital
    "Professor Shittu, the chemist, retired",
  ]);
  expectFlagged(true, [
    "you Shithead", // addressed
    "what a Shitface",
    "he is a Shithead",
    "Shithead!", // the text's first word, no name beside it
    "shithead slutsky", // lower case
    "SLUTSKY", // capitals throughout
    "Motherfucker Jones", // an entry matches the whole word
    "ok Fuckface",
    "Stupid Wankers", // the rest is an inflection
  ]);
});

Deno.test("whole-word entries inside hyphenated compounds", () => {
  expectFlagged(false, [
    "a tit-for-tat row over tariffs",
    "shares bought cum-div on Monday",
    "the Dick-Whittington pantomime",
    "more tit-bits of gossip",
  ]);
  // Entries that match inside words, compounds that are entries themselves, hyphens between
  // single letters and mask hyphens still count.
  expectFlagged(true, [
    "you dick-head",
    "dumb-ass move",
    "shit-head",
    "ass-hole",
    "cock-sucker",
    "f-u-c-k",
    "d-i-c-k",
    "b-tch",
    "bitch-ass",
  ]);
  // A compound beside a definite match counts with it.
  assert.equal(mask("fuck these tit-bits"), "**** these ***-bits");
});

Deno.test("phrase frames: words between frame and target must qualify the insult", () => {
  expectFlagged(false, [
    "you meet clowns at the circus",
    "you are reading about failure",
    "you are watching a joke show",
    "you are not a failure",
    "u feed pigs at dawn",
    "they are selling old rats for the lab", // "selling" is no qualifier
  ]);
  expectFlagged(true, [
    "you are a complete idiot",
    "you are a total fucking moron", // a match between frame and target qualifies too
    "you tiny worm",
    "you are nothing but garbage",
    "you - idiot - stop feeding", // punctuation is no word
    "u r such a clueless clown",
    "you stupid pig",
  ]);
  assert.equal(mask("you are a complete idiot"), "you are a complete *****");
});

Deno.test("phrase targets said to someone: after a comma that ends the sentence", () => {
  expectFlagged(true, ["nice try, idiot", "go away, loser!", "whatever, clown. bye"]);
  assert.equal(mask("nice try, idiot"), "nice try, *****");
  expectFlagged(false, [
    "I asked around, nobody knew",
    "we met the clowns, they were fun",
    "idiot", // a target alone
    "the idiot box, again", // before the comma, not after it
  ]);
});

Deno.test("context readings apply to the built-in lexicon, not to the studio's own words", () => {
  const studio = compileDetector({ forbiddenWords: ["dick", "noob"] });
  assert.equal(studio.detect("Dick Whittington").forbidden, true);
  assert.equal(studio.detect("a noob-friendly map").forbidden, true);
});

Deno.test("other senses of an entry, told by the words around it", () => {
  const en = LEXICON.en;
  assert.ok(en.senses?.tit.includes("blue _"));
  expectFlagged(false, [
    "a marsh tit and a willow tit at the feeder",
    "Great tit numbers fell after the cold winter",
    "it was tit for tat all season",
    "the cock crowed twice before dawn",
    "the weather cock points north",
    "a real cock and bull story",
    "the ass in the stable brayed all night", // a near word, three words on
    "spotted dick is on the menu",
    "the shares traded cum dividend",
    "she left summa cum laude",
    "the kitchen was spic and span",
    "go die in the lava, you respawn at the gate", // game talk
    "police say the rapist fled on foot", // crime news
  ]);
  // Without those words, or beside a definite match, the entry counts.
  expectFlagged(true, [
    "nice tits",
    "great tits lol", // "great _" tells the bird for the singular only
    "suck my cock",
    "you ass",
    "you dick",
    "cum on me",
    "go die",
    "go die, nobody will miss you",
    "dirty spic",
    "you rapist",
    "send porn",
    "incest lol",
    "fuck the weather cock", // beside a definite match
  ]);
  assert.equal(mask("fuck that blue tit"), "**** that blue ***");
});

Deno.test("place, brand and band names holding an entry, written with their capitals", () => {
  expectFlagged(false, [
    "we drove through Dildo on the way to St. John's",
    "Bitche is a town in Lorraine",
    "tickets for the Wankdorf are sold out",
    "a documentary about Pussy Riot",
    "Spic and Span cleans floors",
  ]);
  expectFlagged(true, [
    "dildo", // lower case
    "you Dildo", // addressed
    "Bitches", // a longer word
    "pussy riot lol",
    "DILDO", // capitals throughout are not the name's capitals
  ]);
});

Deno.test("names after a kinship word or title, and name pairs", () => {
  expectFlagged(false, [
    "my grandad Dick loved fishing",
    "ask cousin Dick for the keys",
    "Tom and Dick went up the hill",
    "Dick & Liz are coming too",
    "Mary Cocks won the baking prize", // surnames: cock, cocks
    "Tits Galore Brewery opened in Leeds", // a mild sexual word beside capitalised names
  ]);
  expectFlagged(true, [
    "my dick",
    "your Dick and balls", // "and" with no capitalised name
    "suck Dick and die",
    "big Cocks",
    "Nice Tits Sarah", // addressed: the word before is no name
    "send tits pics Tom",
  ]);
});

Deno.test("dehumanising targets used as verbs or modifiers are no insult", () => {
  expectFlagged(false, [
    "they are pig farmers from Iowa",
    "you are dog walkers, right?",
    "you rat them out every time",
    "you ape it perfectly",
  ]);
  expectFlagged(true, [
    "you are a trash player", // a person named by the insult
    "you are a pig",
    "they are animals",
    "you rat",
    "you are so stupid it hurts", // an adjective before "it"
  ]);
});

Deno.test("surnames after a particle or a given name, and names at a sentence's start", () => {
  expectFlagged(false, [
    "Quinton de Kock took five catches", // a lower-case particle before the surname
    "the keeper, Quinton de Kock, retired",
    "Federico Faggin designed the first microprocessor", // a given name before an inflected form
    "Shittu scored twice on Saturday", // at a sentence's start: an ending no word has
    "Slutsky's players thanked the fans",
    "Cock of the North returns next spring", // "of the" and a capitalised name
    "The Cocks won the derby", // a mild entry with a capital after "the"
    "we climbed the Wank above the town",
  ]);
  expectFlagged(true, [
    "you de Kock", // nothing but the particle before: no name beside it
    "Lazy Bitches", // a plural is no surname ending
    "Shitty team, as usual", // derivations and insult compounds at a sentence's start
    "Shitbag",
    "Fuckwit",
    "Shitt game", // a doubled last letter spells the entry
    "Bitchiness everywhere",
    "the Shit is hitting the fan", // profanity: "the" makes no name of it
    "The Bitch stole my loot", // severity 3
    "suck the cocks", // lower case
    "Cock of yours",
  ]);
});

Deno.test("other senses told by kinds of words around the entry: dogs, kitchen, crime news", () => {
  expectFlagged(false, [
    "our bitch is due to whelp next week",
    "the breeder kept three bitches for the kennel",
    "Faggots with onion gravy tonight",
    "she makes faggots for the church dinner",
    "he stepped outside for a fag",
    "I need a cigarette, got a fag?",
    "Police name the paedophile jailed yesterday",
    "the court heard from her rapist",
    "Teacher accused of incest appears in court", // offences named in legal news
    "New law on child pornography passes",
    "Date rape drug case reopened",
    "Online porn age checks become law",
    "he sharpened it with a bastard file",
    "the bastard wing of the falcon",
    "records of bastardy in the parish",
    "the trout's anal fin",
    "a vase of pussy willow",
    "she wore a boob tube",
    "the jackass penguin colony",
    "a cock robin on the fence",
    "go die at the start of the run so that the level resets", // a far word of game talk
    "kill yourself with the barrel and you respawn at the gate",
  ]);
  expectFlagged(true, [
    "you bitch",
    "shut up faggot",
    "fag",
    "you paedophile",
    "you rapist",
    "send porn",
    "incest lol",
    "you bastard",
    "go die",
    "kill yourself",
    "go die. The respawn timer is long anyway", // the game word in another sentence
  ]);
});
