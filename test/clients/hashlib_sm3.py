# SPDX-License-Identifier: Apache-2.0
#
# SM3 through Python's hashlib (hashlib.new('sm3'), which only OpenSSL
# serves: Python has no SM3 of its own), as an application would, one line
# per case, "name: result" in hex.  test/32-clients.t runs it under several
# openssl.cnf files and compares the lines; an SM3 that cannot be had stops
# the script with hashlib's ValueError.
import hashlib
import hmac

MSG = bytes((i * 131 + 7) % 256 for i in range(67))


def show(name, value):
    print(f"{name}: {value}")


show("sm3 abc", hashlib.new("sm3", b"abc").hexdigest())
show("sm3 abcd x 16", hashlib.new("sm3", b"abcd" * 16).hexdigest())
h = hashlib.new("sm3")
for i in range(0, 1000, 37):
    h.update(MSG[i % 50:i % 50 + 17])
c = h.copy()
show("sm3 in pieces", h.hexdigest())
c.update(b"more")
show("sm3 copied and continued", c.hexdigest())
show("sm3 digest_size block_size", f"{h.digest_size} {h.block_size}")
for klen in (17, 100):
    show(f"hmac-sm3 {klen}-byte key", hmac.new(bytes(range(klen)), MSG, "sm3").hexdigest())
