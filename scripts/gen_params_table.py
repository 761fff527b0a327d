#!/usr/bin/env python3
"""Generates src/formats/params_table.h: Filecoin's parameter manifest as a C table.

Run from the repository root: python3 scripts/gen_params_table.py
It reads params/parameters.json and params/srs-inner-product.json (the manifests of
rust-fil-proofs, copied unchanged) and writes src/formats/params_table.h, formatted with
clang-format (the format check covers it). The output is committed, so the library needs no JSON
parser; tests/formats/test_params.c reads the two JSON files with jansson and checks that the
table holds exactly their entries.

Besides the manifest's own fields (cid, digest, sector_size) each entry gets the proof it is for
and its file type, from its name (docs/params.md):

  v<VERSION>-<prefix>-<tree shape>-<sha256 of the circuit's identifier>.<params|vk>
  v<VERSION>-fil-inner-product-v1.srs

The prefix names the proof: stacked-proof-of-replication (PoRep), proof-of-spacetime-fallback
(PoSt), empty-sector-update (SnapDeals), empty-sector-update-poseidon (SnapDeals, Poseidon
variant). A PoSt name alone does not say Winning or Window; the hash does: it is SHA-256 of the
public parameters' identifier string, and for PoSt that string has only three numbers in it (the
sector size, the challenge count and the sector count), so the script recomputes both candidates
and refuses a PoSt file that matches neither.
"""

import hashlib
import json
import os
import re
import subprocess

MANIFESTS = ["params/parameters.json", "params/srs-inner-product.json"]
OUT = "src/formats/params_table.h"

# filecoin-proofs constants: WINNING_POST_CHALLENGE_COUNT = 66 with WINNING_POST_SECTOR_COUNT = 1,
# which winning_post_setup_params turns into challenge_count 1, sector_count 66;
# WINDOW_POST_CHALLENGE_COUNT = 10 with WINDOW_POST_SECTOR_COUNT per sector size.
WINNING_CHALLENGES, WINNING_SECTORS = 1, 66
WINDOW_CHALLENGES = 10
WINDOW_SECTORS = {2048: 2, 8 << 20: 2, 512 << 20: 2, 32 << 30: 2349, 64 << 30: 2300}

PREFIXES = [  # longest first: empty-sector-update-poseidon before empty-sector-update
    ("stacked-proof-of-replication-", "CZ_PARAM_PROOF_POREP"),
    ("proof-of-spacetime-fallback-", None),  # Winning or Window: from the hash
    ("empty-sector-update-poseidon-", "CZ_PARAM_PROOF_UPDATE_POSEIDON"),
    ("empty-sector-update-", "CZ_PARAM_PROOF_UPDATE"),
]
PROOF_ORDER = [
    "CZ_PARAM_PROOF_POREP",
    "CZ_PARAM_PROOF_WINNING_POST",
    "CZ_PARAM_PROOF_WINDOW_POST",
    "CZ_PARAM_PROOF_UPDATE",
    "CZ_PARAM_PROOF_UPDATE_POSEIDON",
    "CZ_PARAM_PROOF_AGGREGATION",
]
EXTS = {"params": "CZ_PARAM_EXT_PARAMS", "vk": "CZ_PARAM_EXT_VK", "srs": "CZ_PARAM_EXT_SRS"}


def post_hash(sector_size, challenges, sectors):
    ident = "FallbackPoSt::PublicParams{sector_size: %d, challenge_count: %d, sector_count: %d}" % (
        sector_size,
        challenges,
        sectors,
    )
    return hashlib.sha256(ident.encode()).hexdigest()


def classify(name, sector_size):
    m = re.fullmatch(r"v(\d+)-(.+)\.(params|vk|srs)", name)
    if not m:
        raise SystemExit(f"{name}: not a v<N>-...(.params|.vk|.srs) name")
    rest, ext = m.group(2), EXTS[m.group(3)]
    if ext == "CZ_PARAM_EXT_SRS":
        if rest != "fil-inner-product-v1" or sector_size != 0:
            raise SystemExit(f"{name}: an .srs file other than fil-inner-product-v1")
        return "CZ_PARAM_PROOF_AGGREGATION", ext
    for prefix, proof in PREFIXES:
        if rest.startswith(prefix):
            break
    else:
        raise SystemExit(f"{name}: unknown proof prefix")
    circuit = rest[-64:]
    if not re.fullmatch(r"[0-9a-f]{64}", circuit):
        raise SystemExit(f"{name}: does not end in a 64-digit circuit hash")
    if proof is None:
        if sector_size not in WINDOW_SECTORS:
            raise SystemExit(f"{name}: PoSt for an unknown sector size {sector_size}")
        if circuit == post_hash(sector_size, WINNING_CHALLENGES, WINNING_SECTORS):
            proof = "CZ_PARAM_PROOF_WINNING_POST"
        elif circuit == post_hash(sector_size, WINDOW_CHALLENGES, WINDOW_SECTORS[sector_size]):
            proof = "CZ_PARAM_PROOF_WINDOW_POST"
        else:
            raise SystemExit(f"{name}: the hash is neither Winning nor Window PoSt's")
    return proof, ext


def main():
    entries = []
    for path in MANIFESTS:
        with open(path) as f:
            for name, d in json.load(f).items():
                if set(d) != {"cid", "digest", "sector_size"}:
                    raise SystemExit(f"{path}: {name}: fields {sorted(d)}")
                if not re.fullmatch(r"[0-9a-f]{32}", d["digest"]):
                    raise SystemExit(f"{path}: {name}: digest is not 32 lower-case hex digits")
                proof, ext = classify(name, d["sector_size"])
                entries.append((name, d["cid"], d["digest"], d["sector_size"], proof, ext))
    # By sector size (the SRS, for every size, last), then proof, then .params before .vk.
    entries.sort(
        key=lambda e: (e[3] == 0, e[3], PROOF_ORDER.index(e[4]), list(EXTS.values()).index(e[5]))
    )
    lines = [
        "/*",
        " * Filecoin's parameter manifest (rust-fil-proofs parameters.json and",
        " * srs-inner-product.json, copied in params/): generated by scripts/gen_params_table.py,",
        " * do not edit. Included by params.c only. Each row: name, IPFS CID, digest (the first 32",
        " * hex digits of BLAKE2b-512 of the file), sector size in bytes (0: any), proof, file type.",
        " */",
        "#ifndef CUZK_FORMATS_PARAMS_TABLE_H",
        "#define CUZK_FORMATS_PARAMS_TABLE_H",
        "",
        '#include "cuzk/params.h"',
        "",
        "/* One row a file, so that a name can be found with grep (clang-format would cut it). */",
        "/* clang-format off */",
        "static const cz_param_file params_table[] = {",
    ]
    for name, cid, digest, size, proof, ext in entries:
        lines.append(f'    {{"{name}", "{cid}", "{digest}", {size}ULL, {proof}, {ext}}},')
    lines += ["};", "/* clang-format on */", "", "#endif", ""]
    with open(OUT, "w") as f:
        f.write("\n".join(lines))
    subprocess.run(["clang-format", "-i", OUT], check=True)
    print(f"{OUT}: {len(entries)} files")


if __name__ == "__main__":
    os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    main()
