# Put first on PYTHONPATH by the bench_peers_skip test: `import torch` finds this module and
# fails, as on a machine without python3-torch, so bench/peers.py must skip PyTorch.
raise ImportError("no torch here (tests/data/peers_no_torch)")
