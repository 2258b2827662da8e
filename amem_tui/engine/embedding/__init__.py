"""Embedding a query the way another system's agent embeds it.

One concept a module: ``recipe`` (openclaw-amem's model, pooling and weights
file), ``model_files`` (where the files already are), ``onnx_embedder`` (the
model run as Transformers.js runs it), ``pooling``, ``remote_spec`` and
``remote`` (the mem0 plugin's embedder over HTTP), ``query_vectors`` (the
query cache, and giving up a query no longer wanted), ``report`` (how exact a
collection's searches are). ``amem_tui.engine.embedders`` picks one per collection.
"""
