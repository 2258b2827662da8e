"""Embedding a query the way another system's agent embeds it.

One concept a module: :mod:`.recipe` (openclaw-amem's model, pooling and weights
file), :mod:`.model_files` (where the files already are), :mod:`.onnx_embedder` (the
model run as Transformers.js runs it), :mod:`.pooling`, :mod:`.remote_spec` and
:mod:`.remote` (the mem0 plugin's embedder over HTTP), :mod:`.query_vectors` (the
query cache, and giving up a query no longer wanted), :mod:`.report` (how exact a
collection's searches are). :mod:`amem_tui.engine.embedders` picks one per collection.
"""
