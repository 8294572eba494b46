/** The shape of a migration (a leaf module shared by the runner and the list). */

/** A named migration and its SQL text. */
export interface Migration {
  name: string;
  sql: string;
}
