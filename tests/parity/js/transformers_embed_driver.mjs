// Embeds texts with @huggingface/transformers (the version package-lock.json pins) as
// amem-core embeds a query: a feature-extraction pipeline over the model, with the
// pooling amem picked and normalize: true, the dtype passed only when one is set.
// Models are read from a local folder only (env.localModelPath); nothing is
// downloaded (env.allowRemoteModels = false).
//
//   node transformers_embed_driver.mjs SCRIPT.json ANSWER.json
//
// SCRIPT: {"model_dir": "...", "runs": [{"model", "pooling", "dtype"?, "texts": [...]}]}
// Output: {"backend": "...", "runs": [{"model", "dtype", "vectors": [[...], ...]}]}

import { readFileSync, writeFileSync } from "node:fs";

import { env, pipeline } from "@huggingface/transformers";

const script = JSON.parse(readFileSync(process.argv[2], "utf8"));
env.localModelPath = script.model_dir;
env.allowLocalModels = true;
env.allowRemoteModels = false;
env.useBrowserCache = false;

const runs = [];
for (const run of script.runs) {
  const extractor = await pipeline("feature-extraction", run.model, {
    ...(run.dtype ? { dtype: run.dtype } : {}),
  });
  const vectors = [];
  for (const text of run.texts) {
    const output = await extractor(text, { pooling: run.pooling, normalize: true });
    vectors.push(Array.from(output.data));
  }
  await extractor.dispose();
  runs.push({ model: run.model, dtype: run.dtype ?? null, vectors });
}
writeFileSync(process.argv[3], JSON.stringify({ backend: "onnxruntime-node", runs }));
