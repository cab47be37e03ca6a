#!/usr/bin/env python3
"""Writes tests/st/selu_forward_atk.json: aclnnSelu cases in the form of ops-nn's real ATK files
(integer ids, "name": "aclnn.selu", api_type and standard keys, inputs with type, required,
backward, align_32B and outlier_values null; range_values either [lo, hi] or
{"name": "nd", "mean": [lo, hi], "std": [lo, hi]}), for `selugrad st`. The shapes (rank 1 to 6)
and dtypes (fp16, fp32, bf16) are of that form; the sizes are kept to a CI budget. Then cases
as ops-nn's atk_aclnnSelu.json also has them: "name": "torch.selu" beside "aclnn_name":
"aclnnSelu", api_type "function_selu", range_values of one special value (["nan"], ["inf"],
["-inf"]: every element that value), and int8 inputs, constant ([v, v]) or uniform.

Usage: scripts/gen_st_selu_atk.py [OUT.json]   (default: tests/st/selu_forward_atk.json)
"""
import json
import random
import sys

SHAPES = [
    [1], [7], [32], [257], [4096], [65535], [262144],
    [4, 2], [16, 33], [128, 1024], [3, 5, 7], [8, 16, 64], [2, 3, 4, 5], [16, 8, 8, 32],
    [2, 2, 3, 3, 4], [4, 4, 4, 8, 16], [1, 2, 1, 3, 1, 5], [2, 3, 2, 3, 2, 3], [256, 1024],
]
RANGES = [[-1, 1], [-5, 5], [-100, 100], [-0.001, 0.001], [-20, 2],
          {"name": "nd", "mean": [-1, 1], "std": [0.5, 2]},
          {"name": "nd", "mean": [-3, 0], "std": [1, 3]}]


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "tests/st/selu_forward_atk.json"
    cases = []
    for i, (shape, dtype) in enumerate(
            (s, d) for s in SHAPES for d in ("fp16", "fp32", "bf16")):
        rng = RANGES[i % len(RANGES)]
        standard = ({"acc": {"single_bm": {"type": "high_performance"}}, "perf": "not_key"}
                    if i % 2 else {"acc": "single_bm", "perf": "not_key"})
        cases.append({
            "id": i,
            "name": "aclnn.selu",
            "api_type": "function",
            "standard": standard,
            "inputs": [{
                "name": "x", "type": "tensor", "required": True, "backward": False,
                "dtype": dtype, "shape": shape, "range_values": rng,
                "align_32B": None, "outlier_values": None,
            }],
            "outputs": [{"name": "out", "type": "tensor", "dtype": dtype, "shape": shape}],
        })
    def torch_form(dtype, shape, rng, backward):
        return {
            "id": len(cases),
            "name": "torch.selu",
            "aclnn_name": "aclnnSelu",
            "api_type": "function_selu",
            "standard": {"acc": "single_bm", "perf": "not_key"},
            "inputs": [{
                "name": "x", "type": "tensor", "required": True, "dtype": dtype, "shape": shape,
                "range_values": rng, "backward": backward, "align_32B": None,
                "outlier_values": None,
            }],
        }

    for k, (dtype, special) in enumerate(
            (d, v) for v in ("nan", "inf", "-inf") for d in ("fp16", "fp32", "bf16")):
        shape = [[7], [16, 257], [15, 1, 19]][k % 3]
        cases.append(torch_form(dtype, shape, [special], True))
    for shape, rng in (([128], [59, 59]), ([128], [127, 127]), ([128], [-128, -128]),
                       ([128], [-1, -1]), ([128], [0, 0]), ([2, 3, 4], [-128, -1]),
                       ([65536], [-128, 127])):
        cases.append(torch_form("int8", shape, rng, False))
    with open(out, "w") as f:
        json.dump(cases, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
