#!/usr/bin/env python3
"""Embeds the first 1,000 queries of a quality benchmark (JSONL with a "query" field) with the local
all-MiniLM-L6-v2 folder, for the real-data row of the ANN benchmark:
  ann-real-queries.py [QUERIES.jsonl] [OUT.npy]   (defaults: /tmp/quality/queries.jsonl real-queries.npy)
then  VECTORS=/tmp/quality/corpus_st.npy QUERIES=real-queries.npy scripts/bench/ann.sh 22163
"""
import json, os, sys
import numpy as np
from sentence_transformers import SentenceTransformer

src = sys.argv[1] if len(sys.argv) > 1 else "/tmp/quality/queries.jsonl"
out = sys.argv[2] if len(sys.argv) > 2 else "real-queries.npy"
qs = [json.loads(l)["query"] for l in open(src)][:1000]
m = SentenceTransformer(os.path.expanduser("~/.cache/hush/models/all-MiniLM-L6-v2"), device="cpu")
E = m.encode(qs, batch_size=64, normalize_embeddings=True, convert_to_numpy=True).astype(np.float32)
np.save(out, E)
print(E.shape)
