/**
 * The README's worked examples, run as written: the shell (openssl) chat encryption, the
 * JavaScript text encryption and the complete push campaign body are extracted from README.md
 * (the fenced block after each `<!-- readme-test: name -->` marker) and their output sent to the
 * service, which must accept it.
 */
import assert from "node:assert/strict";
import { admin, callJson, seedTenant } from "./harness.ts";
import { encryptEcb } from "../lib/crypto/aes_ecb.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const readme = await Deno.readTextFile(`${ROOT}README.md`);

function snippet(name: string): string {
  const at = readme.indexOf(`<!-- readme-test: ${name} -->`);
  assert.ok(at >= 0, `README has the ${name} example`);
  const m = /```\w*\n([\s\S]*?)\n```/.exec(readme.slice(at));
  assert.ok(m, `a fenced block follows the ${name} marker`);
  return m[1];
}

async function run(cmd: string, args: string[], env: Record<string, string>) {
  const out = await new Deno.Command(cmd, {
    args,
    env: { PATH: Deno.env.get("PATH") ?? "", ...env },
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.ok(out.success, new TextDecoder().decode(out.stderr));
  return new TextDecoder().decode(out.stdout).trim();
}

Deno.test("README: the openssl chat example produces a batch the service accepts", async () => {
  const t = await seedTenant("readme chat");
  const keys = await admin("POST", `/admin/v1/games/${t.gameIndex}/chat-keys`, {});
  assert.equal(keys.status, 201, JSON.stringify(keys.body));
  const body = await run("bash", ["-euc", snippet("chat-encrypt-sh")], {
    SECRET: keys.body.secretKey,
    GAME_KEY: keys.body.gameKey,
  });
  const r = await callJson("POST", "/chat/api/v1/send-chat-log", { json: JSON.parse(body) });
  assert.deepEqual(r.body, { result: { result_code: "200", result_msg: "success" } });
  const logs = await admin("GET", `/admin/v1/games/${t.gameIndex}/chat-logs`);
  assert.equal(logs.body.items[0].chatMsg, "hello there");
});

Deno.test("README: the JavaScript text example produces a batch the service accepts", async () => {
  const project = await admin("POST", "/admin/v1/tads/projects", {
    name: "readme words",
    forbiddenWords: ["badword"],
    masking: { enabled: true },
  });
  assert.equal(project.status, 201, JSON.stringify(project.body));
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/encrypt.mjs`, snippet("text-encrypt-js"));
    const body = await run("node", [`${dir}/encrypt.mjs`], {
      SECRET: project.body.secretKey,
      PROJECT_KEY: project.body.projectKey,
    });
    const r = await callJson("POST", "/cads2/send-text-data", { json: JSON.parse(body) });
    assert.equal(r.body.result.result_code, "200", JSON.stringify(r.body));
    assert.equal(r.body.result.result_array[0].tads_result.spam_yn, "1");
    assert.equal(r.body.result.result_array[0].text_result.text, "gg, meet me at cheapgold.com");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("README: a wrong plaintext gets a result naming the field", async () => {
  const t = await seedTenant("readme wrong");
  const keys = await admin("POST", `/admin/v1/games/${t.gameIndex}/chat-keys`, {});
  const wrong = JSON.stringify({ time_stamp: "2026-05-01T12:00:00+09:00", text: "hello" });
  const chat = await callJson("POST", "/chat/api/v1/send-chat-log", {
    json: {
      game_key: keys.body.gameKey,
      chat_log: {
        chat_count: 1,
        msg_array: [{
          time_stamp: "2026-05-01T12:00:00+09:00",
          msg: encryptEcb(wrong, keys.body.secretKey),
        }],
      },
    },
  });
  assert.equal(chat.body.result.result_code, "500");
  assert.equal(chat.body.result.result_msg, "msg_array[0].msg.room_num is required");

  const project = await admin("POST", "/admin/v1/tads/projects", {
    name: "readme wrong words",
    forbiddenWords: ["x"],
    masking: { enabled: false },
  });
  const text = await callJson("POST", "/cads2/send-text-data", {
    json: {
      project_key: project.body.projectKey,
      text_log: {
        text_count: 1,
        text_array: [{
          time_stamp: "2026-05-01T12:00:00Z",
          text_info: encryptEcb(JSON.stringify({ text: "hi" }), project.body.secretKey),
        }],
      },
    },
  });
  assert.equal(text.body.result.result_code, "500");
  assert.equal(text.body.result.result_text, "Incorrect request");
  assert.equal(text.body.result.result_reason, "text_array[0].text_info.user_id is required");
});

Deno.test("README: the complete push campaign body is accepted", async () => {
  const t = await seedTenant("readme push");
  const { apiKey } = await t.apiKey(["push"]);
  const body = JSON.parse(snippet("push-campaign"));
  body.game.gameindex = t.gameIndex;
  body.game.apps[0].appid = t.appid;
  const r = await callJson("POST", "/push/campaigns", {
    json: body,
    headers: { authorization: `Bearer ${apiKey}` },
  });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  assert.equal(r.body.status, 1);
  assert.ok(Object.keys(r.body.tasks).length > 0);
});

Deno.test("README: every npx command that fetches a package runs without a prompt (-y)", () => {
  // npx asks before installing a package that is not in node_modules; a script gets
  // "npx canceled due to missing packages". Deno comes from npm, so its launcher needs -y.
  const prompting = readme.split("\n").filter((line) => /npx (?!-y )deno@/.test(line));
  assert.deepEqual(prompting, []);
  assert.match(readme, /npx -y deno@2\.9\.6 task dev/);
});
