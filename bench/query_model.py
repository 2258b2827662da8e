"""A query embedded by a bge-m3-sized model against MiniLM, side by side.

openclaw-amem's default model is Xenova/bge-m3 (XLM-RoBERTa large: 24 layers, hidden
size 1024, 16 heads, a 250,002-token vocabulary; fp32 weights of 2.2 GB kept in
``onnx/model.onnx_data``). amem-tui embeds an openclaw-amem query with the agent's own
model, so the time a typed query waits for its vector is that model's. This builds a
model of bge-m3's shape with random weights (nothing is downloaded; the ``onnx``
package writes the graph here, ``pip install onnx``: it is no dependency of amem-tui),
lays it out as openclaw-amem keeps its models (``<dir>/Xenova/bge-m3/``) beside the
packaged all-MiniLM-L6-v2 (``<dir>/Xenova/all-MiniLM-L6-v2/``), and embeds the same
queries through the engine (``view.embed_query``, each query new so no cache answers),
alternating the two models round by round. It prints each model's load time and
query p50, and the ratios (the load is the first query's time: loading is left to the
first embedding, which an app does on a worker thread).

Both use the packaged MiniLM tokenizer: its ids fit bge-m3's vocabulary, and the time
measured is the model's (a query's tokenization is a small part of either).

Usage: python bench/query_model.py [--queries 40] [--rounds 3] [--layers 24]
       [--hidden 1024] [--vocab 250002] [--dir DIR]
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from amem_tui.engine.embed import _default_cache_dir, prepare_offline_model

BGE_M3 = "Xenova/bge-m3"
MINILM = "Xenova/all-MiniLM-L6-v2"
TOKEN_FILES = ("tokenizer.json", "tokenizer_config.json")


def build_model(path: Path, layers: int, hidden: int, vocab: int, positions: int = 8194) -> None:
    """An encoder of XLM-RoBERTa's shape with random weights, saved at ``path`` with its
    weights in ``<path>_data`` (as Transformers.js' fp32 files of large models are)."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    rng = np.random.default_rng(0)
    heads, ffn = hidden // 64, hidden * 4
    weights: list[onnx.TensorProto] = []
    nodes: list[onnx.NodeProto] = []

    def weight(name: str, *shape: int, scale: float = 0.02) -> str:
        data = rng.standard_normal(shape, dtype=np.float32) * np.float32(scale)
        weights.append(numpy_helper.from_array(data, name))
        return name

    def const(name: str, value: object, dtype: type = np.int64) -> str:
        weights.append(numpy_helper.from_array(np.asarray(value, dtype=dtype), name))
        return name

    def node(op: str, inputs: list[str], output: str, **attrs: object) -> str:
        nodes.append(helper.make_node(op, inputs, [output], **attrs))
        return output

    def norm(x: str, name: str) -> str:
        ones = const(f"{name}.g", np.ones(hidden), np.float32)
        zeros = const(f"{name}.b", np.zeros(hidden), np.float32)
        return node("LayerNormalization", [x, ones, zeros], f"{name}.out", axis=-1)

    def linear(x: str, name: str, fan_in: int, fan_out: int) -> str:
        product = node("MatMul", [x, weight(f"{name}.w", fan_in, fan_out)], f"{name}.mm")
        return node("Add", [product, const(f"{name}.bias", np.zeros(fan_out), np.float32)], name)

    # Embeddings: words and positions (positions sliced to the query's length).
    words = node("Gather", [weight("word_embeddings", vocab, hidden), "input_ids"], "words")
    shape = node("Shape", ["input_ids"], "ids_shape")
    length = node("Gather", [shape, const("one", [1])], "length")
    sliced = node(
        "Slice", [weight("positions", positions, hidden), const("zero", [0]), length], "pos"
    )
    x = norm(node("Add", [words, sliced], "embedded"), "embeddings.norm")
    # The attention mask as an additive bias over keys: 0 where attended, -1e4 elsewhere.
    mask = node("Cast", ["attention_mask"], "mask_f", to=TensorProto.FLOAT)
    inverted = node("Sub", [const("f_one", 1.0, np.float32), mask], "mask_inv")
    bias = node("Mul", [inverted, const("neg", -10000.0, np.float32)], "mask_bias")
    bias = node("Unsqueeze", [bias, const("axes_12", [1, 2])], "mask_bias4")
    split_heads = const("split_heads", [0, 0, heads, 64])
    merge_heads = const("merge_heads", [0, 0, hidden])
    scale = const("scale", 1.0 / 8.0, np.float32)
    for i in range(layers):
        p = f"layer{i}"
        q, k, v = (
            node(
                "Transpose",
                [
                    node(
                        "Reshape", [linear(x, f"{p}.{n}", hidden, hidden), split_heads], f"{p}.{n}4"
                    )
                ],
                f"{p}.{n}t",
                perm=[0, 2, 3, 1] if n == "k" else [0, 2, 1, 3],
            )
            for n in ("q", "k", "v")
        )
        scores = node("Mul", [node("MatMul", [q, k], f"{p}.qk"), scale], f"{p}.scaled")
        probs = node("Softmax", [node("Add", [scores, bias], f"{p}.masked")], f"{p}.p", axis=-1)
        context = node(
            "Transpose", [node("MatMul", [probs, v], f"{p}.ctx")], f"{p}.ctxt", perm=[0, 2, 1, 3]
        )
        merged = node("Reshape", [context, merge_heads], f"{p}.merged")
        attended = linear(merged, f"{p}.o", hidden, hidden)
        x = norm(node("Add", [x, attended], f"{p}.res1"), f"{p}.norm1")
        up = linear(x, f"{p}.up", hidden, ffn)
        # GELU as BERT computes it: x * (1 + erf(x / sqrt(2))) / 2.
        erf = node(
            "Erf", [node("Mul", [up, const(f"{p}.r2", 2**-0.5, np.float32)], f"{p}.s")], f"{p}.erf"
        )
        gelu = node(
            "Mul",
            [
                node(
                    "Mul",
                    [up, node("Add", [erf, const(f"{p}.one", 1.0, np.float32)], f"{p}.e1")],
                    f"{p}.ue",
                ),
                const(f"{p}.half", 0.5, np.float32),
            ],
            f"{p}.gelu",
        )
        down = linear(gelu, f"{p}.down", ffn, hidden)
        x = norm(node("Add", [x, down], f"{p}.res2"), f"{p}.norm2")
    nodes.append(helper.make_node("Identity", [x], ["last_hidden_state"]))
    graph = helper.make_graph(
        nodes,
        "xlm-roberta-shaped",
        [
            helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["batch", "sequence"]),
            helper.make_tensor_value_info(
                "attention_mask", TensorProto.INT64, ["batch", "sequence"]
            ),
        ],
        [
            helper.make_tensor_value_info(
                "last_hidden_state", TensorProto.FLOAT, ["batch", "sequence", hidden]
            )
        ],
        initializer=weights,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.save_model(
        model,
        str(path),
        save_as_external_data=True,
        all_tensors_to_one_file=True,
        location=path.name + "_data",
        size_threshold=1024,
    )


def lay_out(root: Path, model: str, tokenizer: Path, config: dict[str, object]) -> Path:
    """``<root>/<model>/`` with the packaged tokenizer files and ``config``."""
    folder = root.joinpath(*model.split("/"))
    (folder / "onnx").mkdir(parents=True, exist_ok=True)
    for name in TOKEN_FILES:
        shutil.copyfile(tokenizer / name, folder / name)
    (folder / "config.json").write_text(json.dumps(config))
    return folder


def engine_for(root: Path, model: str, dim: int):  # type: ignore[no-untyped-def]
    """An engine over an openclaw-amem collection made by ``model``, its files in ``root``."""
    from qdrant_client import models as qm

    from amem_tui.engine.engine import MemoryEngine
    from amem_tui.engine.settings import EngineSettings
    from amem_tui.engine.store.qdrant import QdrantStore

    store = QdrantStore(path=":memory:")
    store.client.create_collection(
        "amem_notes",
        vectors_config=qm.VectorParams(size=dim, distance=qm.Distance.COSINE),
        metadata={"embedding_model": model},
    )
    return MemoryEngine(EngineSettings(amem_model_dir=root), store=store)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--layers", type=int, default=24)
    parser.add_argument("--hidden", type=int, default=1024)
    parser.add_argument("--vocab", type=int, default=250002)
    parser.add_argument("--dir", type=Path, help="where to build the models (default: a temp dir)")
    args = parser.parse_args()
    root = args.dir or Path(tempfile.mkdtemp(prefix="query-model-"))
    packaged = prepare_offline_model(_default_cache_dir())
    minilm = lay_out(root, MINILM, packaged, json.loads((packaged / "config.json").read_text()))
    target = minilm / "onnx" / "model.onnx"
    if not target.exists():
        target.symlink_to((packaged / "model.onnx").resolve())
    big = lay_out(root, BGE_M3, packaged, {"model_type": "xlm-roberta", "hidden_size": args.hidden})
    weights = big / "onnx" / "model.onnx"
    if not weights.exists():
        begun = time.perf_counter()
        build_model(weights, args.layers, args.hidden, args.vocab)
        size = (big / "onnx" / "model.onnx_data").stat().st_size / 1e9
        took = time.perf_counter() - begun
        print(f"built {BGE_M3}'s shape: {size:.2f} GB of weights in {took:.0f} s")
    import onnxruntime  # noqa: F401  (imported before either model's load is timed)
    import tokenizers  # noqa: F401

    engines = {MINILM: engine_for(root, MINILM, 384), BGE_M3: engine_for(root, BGE_M3, args.hidden)}
    loads: dict[str, float] = {}
    for name, engine in engines.items():
        embedding = engine.query_embedding()
        assert embedding.verdict == "exact", embedding.reason
        begun = time.perf_counter()  # the first query loads the model (a worker's job)
        assert engine.agent("main").embed_query("warm up") is not None
        loads[name] = time.perf_counter() - begun
    times: dict[str, list[float]] = {name: [] for name in engines}
    for round_ in range(args.rounds):
        for name, engine in engines.items():
            view = engine.agent("main")
            for i in range(args.queries):
                query = f"what did we decide about the deploy freeze, round {round_} query {i}"
                begun = time.perf_counter()
                vector = view.embed_query(query)
                times[name].append(time.perf_counter() - begun)
                assert vector is not None
    print(
        f"a query's vector through the engine: {args.queries} queries x {args.rounds} rounds, "
        f"alternated; {BGE_M3}'s shape: {args.layers} layers, hidden {args.hidden}, "
        f"vocabulary {args.vocab}"
    )
    p50 = {name: statistics.median(values) for name, values in times.items()}
    for name in engines:
        print(f"  {name:26s} load {loads[name]:6.2f} s   query p50 {p50[name] * 1000:7.1f} ms")
    query, load = p50[BGE_M3] / p50[MINILM], loads[BGE_M3] / loads[MINILM]
    print(f"  {BGE_M3} / {MINILM}: query {query:.1f}x, load {load:.1f}x")
    for engine in engines.values():
        engine.close()
    if args.dir is None:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
