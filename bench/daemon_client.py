#!/usr/bin/env python3
"""A small client of cuzk-daemon (cuzk.v1.ProvingEngine) for machines that have python3's grpcio
but neither protoc nor grpcio-tools: requests are encoded and responses decoded by hand (the few
protobuf wire rules the messages need), and the calls are raw-bytes unary calls.

  daemon_client.py ADDR status               GetStatus as JSON (gpus, queues, totals)
  daemon_client.py ADDR metrics              GetMetrics text
  daemon_client.py ADDR synth K PARTS COUNT  COUNT porep-synth proofs (2^K, PARTS partitions) at
                                             once through Prove; one JSON line per proof and a
                                             summary; exit 1 unless all are COMPLETED with
                                             PARTS x 192 bytes (BLS12-381) of proof
  daemon_client.py ADDR synth-submit K PARTS COUNT   the same through SubmitProof (printing
                                             {"submitted": ID} once accepted) and AwaitProof

ADDR: unix:///path or host:port. Field numbers: proto/cuzk/v1/proving.proto.
"""
import json
import struct
import sys
import threading
import time

import grpc

SVC = "/cuzk.v1.ProvingEngine/"


def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        out.append(b | (0x80 if n else 0))
        if not n:
            return bytes(out)


def f_varint(field, v):
    return varint(field << 3) + varint(v)


def f_bytes(field, b):
    if isinstance(b, str):
        b = b.encode()
    return varint((field << 3) | 2) + varint(len(b)) + b


def decode(buf):
    """{field: [value, ...]}: varints as int, length-delimited as bytes, fixed64 as bytes."""
    out, i = {}, 0
    while i < len(buf):
        key, i = read_varint(buf, i)
        field, wt = key >> 3, key & 7
        if wt == 0:
            v, i = read_varint(buf, i)
        elif wt == 2:
            n, i = read_varint(buf, i)
            v, i = bytes(buf[i:i + n]), i + n
        elif wt == 1:
            v, i = bytes(buf[i:i + 8]), i + 8
        elif wt == 5:
            v, i = bytes(buf[i:i + 4]), i + 4
        else:
            raise ValueError("wire type %d" % wt)
        out.setdefault(field, []).append(v)
    return out


def read_varint(buf, i):
    n = shift = 0
    while True:
        b = buf[i]
        i += 1
        n |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return n, i


def one(d, f, default=0):
    return d.get(f, [default])[-1]


def call(ch, method, req, timeout=600):
    fn = ch.unary_unary(SVC + method, request_serializer=None, response_deserializer=None)
    return fn(req, timeout=timeout)


def status(ch):
    d = decode(call(ch, "GetStatus", b"", 10))
    gpus = []
    for g in d.get(1, []):
        x = decode(g)
        busy_s = struct.unpack("<d", one(x, 102, b"\0" * 8))[0]
        gpus.append({"ordinal": one(x, 1), "name": one(x, 2, b"").decode(),
                     "vram_total_bytes": one(x, 3), "vram_free_bytes": one(x, 4),
                     "workers": one(x, 100), "busy": bool(one(x, 101)), "busy_seconds": busy_s})
    queues = []
    for q in d.get(3, []):
        x = decode(q)
        queues.append({"proof_kind": one(x, 1, b"").decode(), "pending": one(x, 2),
                       "in_progress": one(x, 3)})
    return {"gpus": gpus, "queues": queues, "total_proofs_completed": one(d, 4),
            "total_proofs_failed": one(d, 5), "uptime_seconds": one(d, 6)}


def synth(ch, k, parts, count, split=False):
    results = [None] * count

    def prove(i):
        jid = "synth-%d-%d" % (i, int(time.time() * 1000))
        sub = (f_bytes(1, jid) + f_varint(2, 101) + f_varint(110, k) + f_varint(111, parts) +
               f_varint(112, 1000 + i))
        t0 = time.time()
        try:
            if split:  # SubmitProof, say so, then AwaitProof
                call(ch, "SubmitProof", sub)
                print(json.dumps({"submitted": jid}), flush=True)
                r = decode(call(ch, "AwaitProof", f_bytes(1, jid)))
            else:
                r = decode(one(decode(call(ch, "Prove", f_bytes(1, sub))), 1, b""))
            results[i] = {"i": i, "job_id": one(r, 1, b"").decode(), "status": one(r, 2),
                          "proof_bytes": len(one(r, 3, b"")),
                          "error": one(r, 4, b"").decode(), "queue_wait_ms": one(r, 10),
                          "gpu_compute_ms": one(r, 13), "total_ms": one(r, 14),
                          "wall_s": round(time.time() - t0, 3)}
        except grpc.RpcError as e:
            results[i] = {"i": i, "status": -1, "error": "%s: %s" % (e.code(), e.details())}
        print(json.dumps(results[i]), flush=True)

    t0 = time.time()
    th = [threading.Thread(target=prove, args=(i,)) for i in range(count)]
    for t in th:
        t.start()
    for t in th:
        t.join()
    wall = time.time() - t0
    ok = all(r["status"] == 1 and r["proof_bytes"] == parts * 192 for r in results)
    print(json.dumps({"summary": "porep-synth", "scale": k, "partitions": parts, "count": count,
                      "ok": ok, "wall_s": round(wall, 3),
                      "proofs_per_min": round(60 * count / wall, 2)}), flush=True)
    return 0 if ok else 1


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    addr, cmd = sys.argv[1], sys.argv[2]
    opts = [("grpc.max_receive_message_length", 256 << 20)]
    with grpc.insecure_channel(addr, options=opts) as ch:
        grpc.channel_ready_future(ch).result(timeout=30)
        if cmd == "status":
            print(json.dumps(status(ch), indent=1))
            return 0
        if cmd == "metrics":
            print(decode(call(ch, "GetMetrics", b"", 10)).get(1, [b""])[0].decode(), end="")
            return 0
        if cmd in ("synth", "synth-submit") and len(sys.argv) == 6:
            return synth(ch, int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]),
                         cmd == "synth-submit")
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
