/**
 * Admin reads of moderation settings: a game's chat keys and text-detection projects (never a
 * secret), a project's word lists with who changed them and when, and a detection test that
 * shows what a text matches where.
 */
import type { Services } from "../services.ts";
import type { Sql } from "../db/port.ts";
import { notFound } from "../errors.ts";
import { requireGame } from "../tenancy.ts";
import { loadProject } from "../moderation/projects.ts";
import { contentSpamRule } from "../abuse/spam.ts";
import { iso, keysetPage, type Page, type PageRequest } from "./page.ts";
import type { MatchInfo } from "../abuse/detector.ts";

/** A chat game key as the admin API shows it. */
export interface ChatKeyView {
  gameKey: string;
  gameIndex: number;
  projectKey: string | null;
  createdAt: string;
}

/** Lists a game's chat keys, newest first. */
export async function listChatKeys(
  db: Sql,
  gameIndex: number,
  q: PageRequest,
): Promise<Page<ChatKeyView>> {
  return await keysetPage(db, {
    select: "game_key, game_index, project_key, created_at",
    from: "chat_keys",
    where: "game_index = $1",
    params: [gameIndex],
    order: { time: "created_at", key: "game_key" },
    page: q,
    gameIndex,
    map: (r: {
      game_key: string;
      game_index: number;
      project_key: string | null;
      created_at: Date;
    }) => ({
      gameKey: r.game_key,
      gameIndex: r.game_index,
      projectKey: r.project_key,
      createdAt: iso(r.created_at)!,
    }),
  });
}

/** A project in the list. */
export interface ProjectSummary {
  projectKey: string;
  name: string;
  gameIndex: number | null;
  masking: { enabled: boolean; char: string };
  /** Whether the built-in lexicons apply, and of which languages (null = all). */
  builtinLexicon: boolean;
  builtinLanguages: string[] | null;
  /** The lowest severity that counts as forbidden, and whether intensifiers count. */
  minSeverity: number;
  countIntensifiers: boolean;
  version: number;
  forbiddenWords: number;
  allowWords: number;
  updatedAt: string;
  updatedBy: string | null;
  createdAt: string;
}

/** A project with its word lists. */
export interface ProjectView extends Omit<ProjectSummary, "forbiddenWords" | "allowWords"> {
  forbiddenWords: string[];
  allowWords: string[];
}

type ProjectRow = {
  project_key: string;
  name: string;
  game_index: number | null;
  masking_enabled: boolean;
  mask_char: string;
  builtin_lexicon: boolean;
  builtin_languages: string[] | null;
  min_severity: number;
  count_intensifiers: boolean;
  version: number;
  f: string[] | number;
  a: string[] | number;
  updated_at: Date;
  updated_by: string | null;
  created_at: Date;
};

// A project belongs to a game when it was created for it or a chat key of the game links it.
const OF_GAME = `(p.game_index = $1 or exists (select 1 from chat_keys k
    where k.project_key = p.project_key and k.game_index = $1))`;

function projectBase(r: ProjectRow) {
  return {
    projectKey: r.project_key,
    name: r.name,
    gameIndex: r.game_index,
    masking: { enabled: r.masking_enabled, char: r.mask_char },
    builtinLexicon: r.builtin_lexicon,
    builtinLanguages: r.builtin_languages,
    minSeverity: r.min_severity,
    countIntensifiers: r.count_intensifiers,
    version: r.version,
    updatedAt: iso(r.updated_at)!,
    updatedBy: r.updated_by,
    createdAt: iso(r.created_at)!,
  };
}

/** Lists a game's projects, newest first (word counts, not the words). */
export async function listProjects(
  db: Sql,
  gameIndex: number,
  q: PageRequest,
): Promise<Page<ProjectSummary>> {
  return await keysetPage(db, {
    select: `project_key, name, game_index, masking_enabled, mask_char, builtin_lexicon,
        builtin_languages, min_severity, count_intensifiers, version, jsonb_array_length(forbidden_words) as f,
        jsonb_array_length(allow_words) as a, updated_at, updated_by, created_at`,
    from: "tads_projects p",
    where: OF_GAME,
    params: [gameIndex],
    order: { time: "created_at", key: "project_key" },
    page: q,
    gameIndex,
    map: (r: ProjectRow) => ({
      ...projectBase(r),
      forbiddenWords: Number(r.f),
      allowWords: Number(r.a),
    }),
  });
}

/** One project of the game with its word lists, or not_found. */
export async function getProjectOfGame(
  db: Sql,
  gameIndex: number,
  projectKey: string,
): Promise<ProjectView> {
  await requireGame(db, gameIndex);
  const [row] = await db.query<ProjectRow>(
    `select project_key, name, game_index, masking_enabled, mask_char, builtin_lexicon, builtin_languages, min_severity, count_intensifiers, version,
        forbidden_words as f, allow_words as a, updated_at, updated_by, created_at
       from tads_projects p where ${OF_GAME} and project_key = $2`,
    [gameIndex, projectKey],
  );
  if (!row) {
    throw notFound(
      `project ${projectKey} is not a project of game ${gameIndex}`,
      "PROJECT_NOT_FOUND",
    );
  }
  return {
    ...projectBase(row),
    forbiddenWords: row.f as string[],
    allowWords: row.a as string[],
  };
}

/** One matched stretch of a tested text (code point offsets, end exclusive). */
export interface MatchSpan {
  start: number;
  end: number;
  text: string;
}

/** What a detection test found. */
export interface DetectionTest {
  projectKey: string;
  version: number;
  forbidden: boolean;
  words: string[];
  /** Category and severity of each word in `words`. */
  labels: MatchInfo[];
  masked: string;
  matches: MatchSpan[];
  /** The content spam rule the text breaks, if any (the repeat rule needs traffic, not a test). */
  spam: string | null;
}

/**
 * Runs a text through a project's current lists, exactly as text detection would, and reports
 * the matched words, the masked text and where in the text each match is.
 */
export async function testDetection(
  services: Services,
  key: { gameIndex: number; projectKey: string; text: string; lang?: string },
): Promise<DetectionTest> {
  await getProjectOfGame(services.db, key.gameIndex, key.projectKey);
  const project = await loadProject(services, key.projectKey);
  if (!project) throw notFound(`project ${key.projectKey} not found`, "PROJECT_NOT_FOUND");
  const found = project.detector.detect(key.text, { lang: key.lang ?? null });
  return {
    projectKey: key.projectKey,
    version: project.version,
    forbidden: found.forbidden,
    words: found.words,
    labels: found.matches,
    masked: found.masked,
    matches: matchSpans(key.text, found.masked, project.maskChar),
    spam: contentSpamRule(key.text),
  };
}

/** The stretches where the masked text replaced characters of the original. */
export function matchSpans(original: string, masked: string, maskChar: string): MatchSpan[] {
  const a = Array.from(original);
  const b = Array.from(masked);
  const spans: MatchSpan[] = [];
  let start = -1;
  for (let i = 0; i <= a.length; i++) {
    const hit = i < a.length && b[i] === maskChar && a[i] !== maskChar;
    if (hit && start < 0) start = i;
    if (!hit && start >= 0) {
      spans.push({ start, end: i, text: a.slice(start, i).join("") });
      start = -1;
    }
  }
  return spans;
}
