#!/usr/bin/env python3
"""Writes the system-test case files tests/st/*.json (ops-nn ATK format, docs/st-format.md).

Deterministic: re-running it rewrites the same files. Values are drawn by `selugrad st` itself
(seeded by each case's id), so the files hold only shapes, dtypes, ranges and outliers.
"""
import json
import os
import random

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "st")
FLOATS = ["fp32", "fp16", "bf16"]
ALL = FLOATS + ["int8", "int32", "uint8"]
DEFAULT_RANGE = {"fp32": [-2, 2], "fp16": [-2, 2], "bf16": [-2, 2], "int8": [-128, 127],
                 "int32": [-100000, 100000], "uint8": [0, 255]}
MAXV = {"fp32": 3.4028234663852886e38, "fp16": 65504.0, "bf16": 3.3895313892515355e38,
        "int8": 127, "int32": 2147483647, "uint8": 255}
MINV = {"fp32": -3.4028234663852886e38, "fp16": -65504.0, "bf16": -3.3895313892515355e38,
        "int8": -128, "int32": -2147483648, "uint8": 0}


def tensor(name, dtype, shape, rng, outliers=None):
    return {"name": name, "dtype": dtype, "shape": shape, "range_values": rng,
            "outlier_values": outliers or []}


def case(cid, dtype, shape, g_rng=None, o_rng=None, g_out=None, o_out=None):
    return {"id": cid, "aclnn_name": "aclnnSeluBackward",
            "inputs": [tensor("gradOutput", dtype, shape, g_rng or DEFAULT_RANGE[dtype], g_out),
                       tensor("result", dtype, shape, o_rng or DEFAULT_RANGE[dtype], o_out)]}


def dtypes_file():
    shapes = [[1], [16], [2, 16, 32, 16], [4, 2], [3, 5, 7], [128, 129], [1024], [8, 1, 8]]
    cases = []
    for dt in ALL:
        for k, s in enumerate(shapes):
            cases.append(case(f"selu_grad_dtype_{dt}_{k:02d}", dt, s))
        if dt in FLOATS:
            cases.append(case(f"selu_grad_dtype_{dt}_wide", dt, [4096], [-100, 100], [-100, 100]))
            cases.append(case(f"selu_grad_dtype_{dt}_neg", dt, [4096], [-1, 1], [-20, 0]))
            cases.append(case(f"selu_grad_dtype_{dt}_pos", dt, [4096], [-1, 1], [0, 20]))
    return cases


def ranks_file():
    cases = []
    dims = [3, 2, 4, 1, 5, 2, 3, 2, 2]
    for dt in ALL:
        for r in range(1, 10):
            cases.append(case(f"selu_grad_rank{r}_{dt}", dt, dims[:r]))
    return cases


def sizes_file():
    sizes = [1, 7, 8, 9, 15, 16, 17, 31, 32, 33, 255, 256, 257, 131073]
    cases = []
    for dt in ["fp32", "fp16", "bf16", "int8"]:
        for n in sizes:
            cases.append(case(f"selu_grad_size{n}_{dt}", dt, [n]))
    for n in [1, 8, 33, 257, 131073]:
        cases.append(case(f"selu_grad_size{n}_int32", "int32", [n]))
        cases.append(case(f"selu_grad_size{n}_uint8", "uint8", [n]))
    return cases


def special_file():
    cases = []
    for dt in FLOATS:
        sp = ["inf", "-inf", "nan", "-0", 0, MAXV[dt], MINV[dt]]
        cases += [
            case(f"selu_grad_near0_{dt}_a", dt, [2048], [-1e-3, 1e-3], [-1e-3, 1e-3]),
            case(f"selu_grad_near0_{dt}_b", dt, [2048], [-1, 1], [-1e-4, 1e-4]),
            case(f"selu_grad_near0_{dt}_c", dt, [2048], [-0.01, 0.01], [-0.01, 0.01]),
            case(f"selu_grad_zero_out_{dt}", dt, [256], [-1, 1], [0, 0], None, ["-0", 0]),
            case(f"selu_grad_near_minus_sa_{dt}", dt, [4096], [-1, 1], [-1.8, -1.7]),
            case(f"selu_grad_g_special_{dt}", dt, [1024], [-1, 1], [-2, 2], sp),
            case(f"selu_grad_o_special_{dt}", dt, [1024], [-1, 1], [-2, 2], None, sp),
            case(f"selu_grad_both_special_{dt}", dt, [1024], [-1, 1], [-2, 2], sp, sp),
            case(f"selu_grad_overflow_{dt}", dt, [512], [MAXV[dt] / 2, MAXV[dt]], [0, 10]),
            case(f"selu_grad_big_neg_out_{dt}", dt, [512], [-2, 2], [-1e4, -10]),
            case(f"selu_grad_ones_{dt}", dt, [7], [1, 1], [-2, 3]),
            case(f"selu_grad_g_zero_o_minf_{dt}", dt, [16], [0, 0], [-1, 1], None, ["-inf"]),
        ]
    sub = {"fp32": [1e-45, -1e-45, 1.1754942e-38, -5e-39], "bf16": [9.2e-41, -1e-39, 1e-38]}
    for dt, vals in sub.items():
        cases.append(case(f"selu_grad_subnormal_g_{dt}", dt, [1024], [-1e-37, 1e-37], [-2, 2],
                          vals))
    cases.append(case("selu_grad_subnormal_g_fp16_pos_out", "fp16", [1024], [-6e-5, 6e-5],
                      [0, 2], [6e-8, -6e-8, 6.1e-5]))
    for dt in ["int8", "int32", "uint8"]:
        cases += [
            case(f"selu_grad_int_extremes_{dt}", dt, [1024], None, None, [MINV[dt], MAXV[dt], 0],
                 [MINV[dt], MAXV[dt], 0, -1]),
            case(f"selu_grad_int_small_{dt}", dt, [512], [-3, 3] if dt != "uint8" else [0, 3],
                 [-3, 3] if dt != "uint8" else [0, 3]),
            case(f"selu_grad_int_zero_out_{dt}", dt, [64], None, [0, 0]),
        ]
    return cases


def empty_file():
    shapes = [[0], [2, 0], [0, 3], [2, 0, 3], [0, 0], [1, 1, 1, 1, 1, 1, 1, 0],
              [2, 2, 2, 2, 2, 2, 2, 2, 0]]
    cases = []
    for dt in ALL:
        for k, s in enumerate(shapes):
            if dt in ("int32", "uint8") and k > 2:
                continue
            cases.append(case(f"selu_grad_empty_{dt}_{k}", dt, s))
    return cases


def atk_tensor(name, dtype, shape, rng):
    """An input as ops-nn's ATK case files write it."""
    return {"name": name, "type": "tensor", "required": True, "dtype": dtype, "shape": shape,
            "range_values": rng, "backward": False, "align_32B": None, "outlier_values": None}


def atk_shape(r, rank, count):
    """A shape of the given rank with about count elements (at least one per dim)."""
    dims = [1] * rank
    left = count
    for k in range(rank - 1):
        d = max(1, round(left ** (1.0 / (rank - k)) * r.uniform(0.5, 1.6)))
        dims[k] = d
        left = max(1, left // d)
    dims[rank - 1] = max(1, left)
    r.shuffle(dims)
    return dims


def atk_file():
    """ATK's own form, 201 cases: integer ids, name and api_type, the standard in both of its
    forms, range_values as [lo, hi] or as a normal distribution {"name": "nd", "mean", "std"},
    ranks 1 to 6, fp16, fp32 and bf16. Element counts stay at most 2^20 (three cases near it,
    most below 50K) so the file runs in seconds; ops-nn's own file reaches 13M elements. Every
    twentieth case names the operator by name alone (no aclnn_name)."""
    r = random.Random(201)
    standards = [{"acc": {"single_bm": {"type": "high_performance"}}, "perf": "not_key"},
                 {"acc": "single_bm", "perf": "not_key"},
                 {"acc": {"single_bm": {"type": "high_precision"}}, "perf": "not_key"}]
    cases = []
    for cid in range(201):
        dtype = FLOATS[cid % 3]
        rank = 1 + cid % 6
        if cid % 67 == 5:
            count = r.randint(1 << 19, 1 << 20)  # three large cases, one per dtype
        else:
            count = int(10 ** r.uniform(0, 4.7))
        shape = atk_shape(r, rank, count)
        if cid % 2 == 0:
            g_rng = [-10, 10] if cid % 4 == 0 else [-1, 1]
            o_rng = [-1.7, 4] if cid % 8 < 4 else [-1.75, 0]
        else:
            g_rng = {"name": "nd", "mean": [-1, 1], "std": [0.1, 2]}
            o_rng = {"name": "nd", "mean": [-0.5, 1], "std": [0.2, 1.5]}
        c = {"id": cid, "name": "aclnn.selu.backward", "api_type": "function",
             "aclnn_name": "aclnnSeluBackward", "standard": standards[cid % 3],
             "inputs": [atk_tensor("gradOutput", dtype, shape, g_rng),
                        atk_tensor("result", dtype, shape, o_rng)]}
        if cid % 20 == 7:  # the operator from name alone
            del c["aclnn_name"]
        cases.append(c)
    return cases


def main():
    files = {"selu_grad_dtypes.json": dtypes_file(), "selu_grad_ranks.json": ranks_file(),
             "selu_grad_sizes.json": sizes_file(), "selu_grad_special.json": special_file(),
             "selu_grad_empty.json": empty_file(), "selu_grad_atk.json": atk_file()}
    total = 0
    for name, cases in files.items():
        with open(os.path.join(OUT, name), "w") as f:
            json.dump(cases, f, indent=1)
            f.write("\n")
        total += len(cases)
        print(f"{name}: {len(cases)} cases")
    print(f"total: {total} cases")


if __name__ == "__main__":
    main()
