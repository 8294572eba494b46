/**
 * A list change never compiles a detector inside a detection request: the instance that saves
 * the lists compiles them there (and uses them at once); an instance that learns of a newer
 * version from the database keeps answering with the detector it has while the new one is
 * compiled after the response.
 */
import assert from "node:assert/strict";
import { testEnv } from "../../harness.ts";
import {
  createProject,
  loadProject,
  updateProjectWords,
} from "../../../lib/moderation/projects.ts";

Deno.test("detector: saved lists apply at once here; a newer version from elsewhere swaps in after the response", async () => {
  const { services } = await testEnv();
  const { projectKey } = await createProject(services, {
    name: "rebuild",
    forbiddenWords: ["applesauce"],
    masking: { enabled: true },
  });
  const first = await loadProject(services, projectKey);
  assert.equal(first!.detector.detect("some applesauce").forbidden, true);

  // Saved through this instance: compiled by the save, used by the next request.
  await updateProjectWords(services, projectKey, { forbiddenWords: ["bananabread"] });
  const saved = await loadProject(services, projectKey);
  assert.equal(saved!.detector.detect("bananabread please").forbidden, true);
  assert.equal(saved!.detector.detect("some applesauce").forbidden, false);

  // Changed by another instance (straight in the database): the old detector keeps serving...
  await services.db.query(
    `update tads_projects set forbidden_words = '["cherrypie"]'::jsonb, version = version + 1
      where project_key = $1`,
    [projectKey],
  );
  const during = await loadProject(services, projectKey);
  assert.equal(during!.detector.detect("bananabread please").forbidden, true);
  assert.equal(during!.detector.detect("cherrypie please").forbidden, false);
  // ...until the background compile has finished.
  await services.idle();
  const after = await loadProject(services, projectKey);
  assert.equal(after!.detector.detect("cherrypie please").forbidden, true);
  assert.equal(after!.detector.detect("bananabread please").forbidden, false);
});
