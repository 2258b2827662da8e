// Runs the OpenClaw mem0 plugin (@mem0/openclaw-mem0, the version package-lock.json
// pins, with the mem0ai SDK it pins) outside OpenClaw, and reports what it answers.
//
// The plugin is registered with a small api of our own (tools and hooks kept in maps),
// exactly as OpenClaw would hand it its entry from openclaw.json; nothing of the
// plugin is re-implemented here. Writes go through its memory_add tool in skills mode
// (which stores facts with infer: false, no LLM); reads are its memory_search tool
// and its before_prompt_build hook (auto-recall), whose injected block is parsed back
// into memory ids.
//
//   node mem0_plugin_driver.mjs SCRIPT.json ANSWER.json   (the SDK logs on stdout)
//
// SCRIPT: {"entry": {...plugin config...}, "writes": [...], "reads": [...]}
//   write: {"user", "text", "session"?, "agentId"?, "userId"?, "longTerm"?, "category"?}
//   read:  {"name", "user", "entry"?: {overrides}, "session"?, "agentId"?, "userId"?,
//           "limit"?, "queries": [...], "recall"?: true}
// Output: {"writes": [{"text", "ok", "message"}], "reads": [{"name", "query",
//          "search": [{"id", "memory", "score"}], "recall_first": [ids] | null,
//          "recall_next": [ids] | null}], "outside": [urls refused]}

import { readFileSync, writeFileSync } from "node:fs";

const script = JSON.parse(readFileSync(process.argv[2], "utf8"));
const outside = [];
const log = [];

// Nothing but this machine is ever asked: telemetry is off (MEM0_TELEMETRY=false, set
// by the caller), and any other request fails here and is reported.
const realFetch = globalThis.fetch;
globalThis.fetch = async (input, init) => {
  const url = new URL(typeof input === "string" || input instanceof URL ? input : input.url);
  if (!["127.0.0.1", "localhost", "[::1]"].includes(url.hostname)) {
    outside.push(url.origin);
    throw new Error(`parity driver: no request leaves this machine (${url.origin})`);
  }
  return realFetch(input, init);
};

// Every memory a search returned, by its text: the recall block names memories by text.
const byText = new Map();
const oss = await import("mem0ai/oss");
const search = oss.Memory.prototype.search;
oss.Memory.prototype.search = async function (query, config) {
  const found = await search.call(this, query, config);
  for (const item of found?.results ?? []) {
    if (!byText.has(item.memory)) byText.set(item.memory, new Set());
    byText.get(item.memory).add(item.id);
  }
  return found;
};

const plugin = (await import("@mem0/openclaw-mem0")).default;

function register(entry) {
  const tools = new Map();
  const hooks = new Map();
  const api = {
    pluginConfig: entry,
    logger: {
      info: (m) => log.push(m),
      warn: (m) => log.push(m),
      error: (m) => log.push(m),
      debug: () => {},
    },
    resolvePath: (p) => p,
    registerTool: (tool) => tools.set(tool.name, tool),
    registerCli: () => {},
    registerService: () => {},
    on: (event, handler) => hooks.set(event, handler),
  };
  plugin.register(api);
  return { tools, hooks };
}

function merged(base, extra) {
  return { ...base, ...(extra ?? {}) };
}

async function setSession(instance, session) {
  // agent_end sets the session first thing in skills mode (and, unsuccessful, does no
  // more); in the default mode before_prompt_build sets it.
  if (session) await instance.hooks.get("agent_end")({ success: false, messages: [] }, { sessionKey: session });
}

function injectedIds(context) {
  if (!context) return [];
  const ids = [];
  for (const line of context.split("\n")) {
    if (!line.startsWith("- ")) continue;
    let text = line.slice(2);
    const pct = text.match(/^(.*) \(\d+%\)$/); // skills mode: "- text (95%)"
    if (pct && !byText.has(text)) text = pct[1];
    const found = byText.get(text);
    ids.push(found && found.size === 1 ? [...found][0] : `?${text}`);
  }
  return ids;
}

async function recall(instance, prompt, session) {
  const hook = instance.hooks.get("before_prompt_build");
  if (!hook) return null;
  const answer = await hook({ prompt }, session ? { sessionKey: session } : {});
  return injectedIds(answer?.prependContext);
}

const out = { writes: [], reads: [], outside, log };

// ---------------------------------------------------------------- writes
const writers = new Map();
for (const write of script.writes ?? []) {
  const user = write.user;
  if (!writers.has(user)) {
    // Skills mode: memory_add stores the facts it is given, with infer: false.
    writers.set(user, register(merged(script.entry, { userId: user, skills: {} })));
  }
  const writer = writers.get(user);
  await setSession(writer, write.session ?? "agent:main:parity-writes");
  const params = { text: write.text };
  for (const key of ["agentId", "userId", "longTerm", "category"]) {
    if (write[key] !== undefined) params[key] = write[key];
  }
  const answer = await writer.tools.get("memory_add").execute("parity", params);
  const text = answer.content?.[0]?.text ?? "";
  out.writes.push({ text: write.text, ok: !answer.details?.error, message: text });
}

// ----------------------------------------------------------------- reads
for (const read of script.reads ?? []) {
  const entry = merged(merged(script.entry, { userId: read.user }), read.entry);
  for (const query of read.queries) {
    // A fresh instance per query: its first prompt in the session is a first turn.
    const instance = register(entry);
    let recallFirst = null;
    let recallNext = null;
    if (read.recall) {
      recallFirst = await recall(instance, query, read.session);
      recallNext = await recall(instance, query, read.session);
    }
    // The tools act in the session the last prompt came from: one of this session's
    // (a prompt under 5 characters sets none, and the search would run as main).
    if (read.session) await recall(instance, "the session of this search", read.session);
    const params = { query };
    for (const key of ["agentId", "userId", "limit", "scope"]) {
      if (read[key] !== undefined) params[key] = read[key];
    }
    const answer = await instance.tools.get("memory_search").execute("parity", params);
    if (answer.details?.error) throw new Error(`memory_search failed: ${answer.details.error}`);
    const found = (answer.details?.memories ?? []).map((m) => ({ id: m.id, memory: m.memory, score: m.score }));
    out.reads.push({ name: read.name, query, search: found, recall_first: recallFirst, recall_next: recallNext });
  }
}

writeFileSync(process.argv[3], JSON.stringify(out));
process.exit(0);
