/**
 * Reference data of the push spec: language codes, the continent table of country codes, and
 * the mapping of English country names to codes (through Intl.DisplayNames).
 */

/** Language codes a notification may be keyed by. */
export const PUSH_LANGUAGES = [
  "ko",
  "zh-hans",
  "zh-hant",
  "en",
  "ja",
  "ar",
  "fr",
  "de",
  "es",
  "pt",
  "th",
  "it",
  "ru",
  "id",
  "vi",
  "tr",
] as const;

/** One language code. */
export type PushLanguage = (typeof PUSH_LANGUAGES)[number];

/** The spec's continent table: continent name -> country codes. */
export const CONTINENTS: Record<string, readonly string[]> = {
  Africa: words(
    "AO BF BI BJ BW CD CF CG CI CM CV DJ DZ EG EH ER ET GA GH GM GN GQ GW IO KE KM LR LS LY MA MG ML MR MU MW MZ NA NE NG RE RW SC SD SH SL SN SO SS ST SZ TD TF TG TN TZ UG YT ZA ZM ZW",
  ),
  Americas: words(
    "AG AI AR AW BB BL BM BO BQ BR BS BZ CA CL CO CR CU CW DM DO EC FK GD GF GL GP GS GT GY HN HT JM KN KY LC MF MQ MS MX NI PA PE PM PR PY SR SV SX TC TT UM US UY VC VE VG VI",
  ),
  Asia: words(
    "AE AF AM AZ BD BH BN BT CN GE HK ID IL IN IQ IR JO JP KG KH KP KR KW KZ LA LB LK MM MN MO MV MY NP OM PH PK PS QA SA SG SY TH TJ TL TM TR TW UZ VN YE",
  ),
  Europe: words(
    "AD AL AT AX BA BE BG BY CH CY CZ DE DK EE ES FI FO FR GB GG GI GR HR HU IE IM IS IT JE LI LT LU LV MC MD ME MK MT NL NO PL PT RO RS RU SE SI SJ SK SM UA VA",
  ),
  Oceania: words(
    "AS AU CC CK CX FJ FM GU KI MH MP NC NF NR NU NZ PF PG PN PW SB TK TO TV VU WF WS",
  ),
  Polar: words("AQ"),
};

function words(list: string): readonly string[] {
  return list.split(" ");
}

/** Every country code of the continent table. */
export const PUSH_COUNTRIES: ReadonlySet<string> = new Set(Object.values(CONTINENTS).flat());

const continentByLowerName = new Map(Object.keys(CONTINENTS).map((n) => [n.toLowerCase(), n]));

/** The canonical continent name for a name given in any letter case, or null. */
export function continentName(name: string): string | null {
  return continentByLowerName.get(name.trim().toLowerCase()) ?? null;
}

let codeByName: Map<string, string> | undefined;

function normaliseName(name: string): string {
  return name.normalize("NFD").replace(/[\u0300-\u036f]/g, "").replace(/[^a-z0-9]/gi, "")
    .toLowerCase();
}

/** Built lazily: English display names of every table country (plus a few common variants). */
function countryNames(): Map<string, string> {
  if (codeByName) return codeByName;
  const names = new Intl.DisplayNames(["en"], { type: "region" });
  const map = new Map<string, string>();
  for (const code of PUSH_COUNTRIES) {
    const name = names.of(code);
    if (name && name !== code) map.set(normaliseName(name), code);
  }
  const variants: Record<string, string> = {
    "United States of America": "US",
    USA: "US",
    "United Kingdom of Great Britain and Northern Ireland": "GB",
    "Great Britain": "GB",
    "Korea, Republic of": "KR",
    Korea: "KR",
    "Republic of Korea": "KR",
    "Russian Federation": "RU",
    "Viet Nam": "VN",
    Turkey: "TR",
    "Czech Republic": "CZ",
    "Ivory Coast": "CI",
    Macau: "MO",
    Swaziland: "SZ",
    Burma: "MM",
  };
  for (const [name, code] of Object.entries(variants)) map.set(normaliseName(name), code);
  codeByName = map;
  return map;
}

/** Resolves a country code (any case) or English country name to a table code, or null. */
export function countryCode(value: string): string | null {
  const trimmed = value.trim();
  if (/^[A-Za-z]{2}$/.test(trimmed)) {
    const code = trimmed.toUpperCase();
    return PUSH_COUNTRIES.has(code) ? code : null;
  }
  return countryNames().get(normaliseName(trimmed)) ?? null;
}

/** Maps a device language tag (BCP 47, any case) to a spec language code, or null. */
export function pushLanguageOf(tag: string | null | undefined): PushLanguage | null {
  if (!tag) return null;
  const lower = tag.trim().toLowerCase().replace(/_/g, "-");
  if ((PUSH_LANGUAGES as readonly string[]).includes(lower)) return lower as PushLanguage;
  const [primary, ...rest] = lower.split("-");
  if (primary === "zh") {
    if (rest.includes("hant") || rest.some((r) => ["tw", "hk", "mo"].includes(r))) return "zh-hant";
    return "zh-hans";
  }
  return (PUSH_LANGUAGES as readonly string[]).includes(primary) ? primary as PushLanguage : null;
}
