/**
 * Text-detection projects: key, secret, the built-in lexicon switch, the studio's forbidden and
 * allowed words, masking settings.
 */
import type { Services } from "../services.ts";
import { DomainError } from "../errors.ts";
import { requireGame } from "../tenancy.ts";
import { compileDetector, type Detector } from "../abuse/detector.ts";
import { resolveLanguage } from "../abuse/languages.ts";
import {
  cachedDetector,
  installDetector,
  moderationState,
  openSecret,
  randomAlnum,
  sealSecret,
} from "./state.ts";

/** Limits on word lists (admin input). */
export const MAX_WORDS = 50_000;
/** Longest accepted word. */
export const MAX_WORD_LENGTH = 100;

/** Settings for a new project. */
export interface ProjectInput {
  name: string;
  /** The game the project belongs to (the console lists a game's projects). */
  gameIndex?: number;
  forbiddenWords?: string[];
  allowWords?: string[];
  /** Apply the built-in lexicons of the supported languages (default true). */
  builtinLexicon?: boolean;
  /** The languages whose built-in lexicons apply (default: all 16). */
  builtinLanguages?: string[];
  /** The lowest severity (1..4) that counts as forbidden (default 1: every match). */
  minSeverity?: number;
  /** Whether intensifiers (존나 좋아, fucking great) count as forbidden (default false). */
  countIntensifiers?: boolean;
  masking: { enabled: boolean; char?: string };
}

/** A project as request handling needs it. */
export interface LoadedProject {
  projectKey: string;
  secret: string;
  masking: boolean;
  maskChar: string;
  version: number;
  detector: Detector;
}

/** Supported language codes, resolved ("zh-Hant" -> "zh-tw") and without duplicates. */
function canonicalLanguages(codes: string[]): string[] {
  return [...new Set(codes.map((c) => resolveLanguage(c)).filter((l) => l !== null))];
}

function cleanWords(words: string[]): string[] {
  return [...new Set(words.map((w) => w.trim()).filter((w) => w.length > 0))];
}

/** Creates a project and returns its key and secret (32 characters, an AES-256 key). */
export async function createProject(
  services: Services,
  input: ProjectInput,
): Promise<{ projectKey: string; secretKey: string }> {
  if (input.gameIndex !== undefined) await requireGame(services.db, input.gameIndex);
  const projectKey = randomAlnum(20);
  const secretKey = randomAlnum(32);
  await services.db.query(
    `insert into tads_projects
       (project_key, name, secret_sealed, forbidden_words, allow_words, masking_enabled, mask_char,
        builtin_lexicon, builtin_languages, game_index, min_severity, count_intensifiers)
     values ($1, $2, $3, $4::jsonb, $5::jsonb, $6, $7, $8, $9::jsonb, $10, $11, $12)`,
    [
      projectKey,
      input.name,
      await sealSecret(services, projectKey, secretKey),
      cleanWords(input.forbiddenWords ?? []),
      cleanWords(input.allowWords ?? []),
      input.masking.enabled,
      input.masking.char ?? "*",
      input.builtinLexicon ?? true,
      input.builtinLanguages ? canonicalLanguages(input.builtinLanguages) : null,
      input.gameIndex ?? null,
      input.minSeverity ?? 1,
      input.countIntensifiers ?? false,
    ],
  );
  return { projectKey, secretKey };
}

/**
 * Replaces a project's word lists (allowWords and the built-in switch kept when omitted) and
 * compiles their detector here, so requests of this instance use the new lists at once; other
 * instances switch once they have compiled it (see cachedDetector).
 */
export async function updateProjectWords(
  services: Services,
  projectKey: string,
  lists: {
    forbiddenWords: string[];
    allowWords?: string[];
    builtinLexicon?: boolean;
    builtinLanguages?: string[] | null;
    minSeverity?: number;
    countIntensifiers?: boolean;
  },
  options: { actor?: string; gameIndex?: number } = {},
): Promise<
  {
    projectKey: string;
    version: number;
    forbiddenWords: number;
    allowWords: number;
    builtinLexicon: boolean;
    builtinLanguages: string[] | null;
    minSeverity: number;
    countIntensifiers: boolean;
  }
> {
  const forbidden = cleanWords(lists.forbiddenWords);
  const allow = cleanWords(lists.allowWords ?? []);
  // With gameIndex, only a project of that game (its own or linked by a chat key) is changed.
  const rows = await services.db.query<
    {
      version: number;
      allow_count: number;
      builtin_lexicon: boolean;
      builtin_languages: string[] | null;
      allow_words: string[];
      mask_char: string;
      min_severity: number;
      count_intensifiers: boolean;
    }
  >(
    `update tads_projects p set forbidden_words = $2::jsonb,
       allow_words = case when $4 then $3::jsonb else allow_words end,
       builtin_lexicon = coalesce($5::boolean, builtin_lexicon),
       builtin_languages = case when $6 then $7::jsonb else builtin_languages end,
       min_severity = coalesce($10::int, min_severity),
       count_intensifiers = coalesce($11::boolean, count_intensifiers),
       version = version + 1, updated_at = now(), updated_by = $8
     where project_key = $1 and ($9::int is null or p.game_index = $9 or exists (
       select 1 from chat_keys k where k.project_key = p.project_key and k.game_index = $9))
     returning version, jsonb_array_length(allow_words) as allow_count, builtin_lexicon,
       builtin_languages, allow_words, mask_char, min_severity, count_intensifiers`,
    [
      projectKey,
      forbidden,
      allow,
      lists.allowWords !== undefined,
      lists.builtinLexicon ?? null,
      lists.builtinLanguages !== undefined,
      lists.builtinLanguages ? canonicalLanguages(lists.builtinLanguages) : null,
      options.actor ?? "admin token",
      options.gameIndex ?? null,
      lists.minSeverity ?? null,
      lists.countIntensifiers ?? null,
    ],
  );
  if (rows.length === 0) {
    throw new DomainError("not_found", "PROJECT_NOT_FOUND", `project ${projectKey} not found`);
  }
  // The list change pays for the compile, so detection requests of this instance never do.
  installDetector(
    services,
    projectKey,
    rows[0].version,
    compileDetector({
      forbiddenWords: forbidden,
      allowWords: rows[0].allow_words,
      builtin: rows[0].builtin_lexicon,
      builtinLanguages: rows[0].builtin_languages,
      maskChar: rows[0].mask_char,
      minSeverity: rows[0].min_severity,
      countIntensifiers: rows[0].count_intensifiers,
    }),
  );
  return {
    projectKey,
    version: rows[0].version,
    forbiddenWords: forbidden.length,
    allowWords: rows[0].allow_count,
    builtinLexicon: rows[0].builtin_lexicon,
    builtinLanguages: rows[0].builtin_languages,
    minSeverity: rows[0].min_severity,
    countIntensifiers: rows[0].count_intensifiers,
  };
}

/** True when the project exists. */
export async function projectExists(services: Services, projectKey: string): Promise<boolean> {
  const rows = await services.db.query("select 1 from tads_projects where project_key = $1", [
    projectKey,
  ]);
  return rows.length > 0;
}

interface ProjectRow {
  project_key: string;
  secret_sealed: string;
  masking_enabled: boolean;
  mask_char: string;
  version: number;
}

/**
 * Loads a project with its compiled detector, or null when the key is unknown. The word lists
 * are read only when the cached detector is older than the project's version.
 */
export async function loadProject(
  services: Services,
  projectKey: string,
): Promise<LoadedProject | null> {
  const [row] = await services.db.query<ProjectRow>(
    `select project_key, secret_sealed, masking_enabled, mask_char, version
     from tads_projects where project_key = $1`,
    [projectKey],
  );
  if (!row) return null;
  const secret = await openSecret(services, row.project_key, row.secret_sealed);
  let lists = {
    forbiddenWords: [] as string[],
    allowWords: [] as string[],
    builtin: false,
    builtinLanguages: null as string[] | null,
    minSeverity: 1,
    countIntensifiers: false,
  };
  const cache = moderationState(services).detectors.get(projectKey);
  if (!cache || cache.version !== row.version) {
    const [words] = await services.db.query<
      {
        f: string[];
        a: string[];
        b: boolean;
        l: string[] | null;
        s: number;
        i: boolean;
        version: number;
      }
    >(
      `select forbidden_words as f, allow_words as a, builtin_lexicon as b,
         builtin_languages as l, min_severity as s, count_intensifiers as i, version
       from tads_projects where project_key = $1`,
      [projectKey],
    );
    lists = {
      forbiddenWords: words.f,
      allowWords: words.a,
      builtin: words.b,
      builtinLanguages: words.l,
      minSeverity: words.s,
      countIntensifiers: words.i,
    };
    row.version = words.version;
  }
  const detector = cachedDetector(services, projectKey, row.version, () => ({
    ...lists,
    maskChar: row.mask_char,
  }));
  return {
    projectKey,
    secret,
    masking: row.masking_enabled,
    maskChar: row.mask_char,
    version: row.version,
    detector,
  };
}

/** Issues a new secret for a project of the game (shown once); the old one stops working. */
export async function rotateProjectSecret(
  services: Services,
  key: { gameIndex: number; projectKey: string },
): Promise<{ projectKey: string; secretKey: string }> {
  const secretKey = randomAlnum(32);
  const rows = await services.db.query(
    `update tads_projects p set secret_sealed = $3
      where project_key = $1 and (p.game_index = $2 or exists (
        select 1 from chat_keys k where k.project_key = p.project_key and k.game_index = $2))
      returning 1`,
    [key.projectKey, key.gameIndex, await sealSecret(services, key.projectKey, secretKey)],
  );
  if (rows.length === 0) {
    throw new DomainError(
      "not_found",
      "PROJECT_NOT_FOUND",
      `project ${key.projectKey} is not a project of game ${key.gameIndex}`,
    );
  }
  return { projectKey: key.projectKey, secretKey };
}
