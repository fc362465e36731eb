# SPDX-License-Identifier: Apache-2.0
#
# Reference digests for test/20-diff.t from Botan (python3-botan: Botan 2's
# module botan2, or Botan 3's botan3 where that is installed):
# "256|512 message digest" lines in hex ("-" for the empty message) for
# random messages, mostly of up to three 64-byte blocks, some of a few KiB,
# a few longer; test/evp_diff.c (group "streebog file") runs each message
# through smgost in random pieces and compares.  Exit status 3: neither
# module is importable (the recipe skips, saying so).
#
#   streebog_botan.py SEED COUNT
import random
import sys

try:
    import botan3 as botan
except ImportError:
    try:
        import botan2 as botan
    except ImportError as e:
        sys.stderr.write("cannot import botan3 or botan2: %s\n" % e)
        sys.exit(3)

seed, count = int(sys.argv[1]), int(sys.argv[2])
rng = random.Random(seed)
for _ in range(count):
    band = rng.random()
    if band < 0.55:
        n = rng.randrange(200)
    elif band < 0.9:
        n = rng.randrange(4200)
    else:
        n = rng.randrange(70 * 1024)
    msg = bytes(rng.getrandbits(8) for _ in range(n))
    bits = rng.choice((256, 512))
    h = botan.HashFunction("Streebog-%d" % bits)
    h.update(msg)
    print(bits, msg.hex() if msg else "-", h.final().hex())
