# SPDX-License-Identifier: Apache-2.0
#
# Drives SM4 and SM3 through python3-cryptography as an application would,
# and prints one line per case, "name: result": the output in hex, or the
# exception raised, as "Class: message".  test/32-clients.t runs it under
# several openssl.cnf files (whichever providers the configuration gives)
# and compares the lines.  Only the failures the cases provoke are caught:
# an SM4 or SM3 that cannot be had stops the script with its traceback.
import sys

from cryptography.exceptions import InvalidSignature, InvalidTag, UnsupportedAlgorithm
from cryptography.hazmat.backends import default_backend
from cryptography.hazmat.primitives import hashes, hmac
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

# GB/T 32907 (SM4) appendix A.1: one block under the key that is also the
# plaintext.
SM4_KEY = bytes.fromhex("0123456789abcdeffedcba9876543210")
IV = bytes.fromhex("00112233445566778899aabbccddeeff")
MSG = bytes((i * 131 + 7) % 256 for i in range(67))


def show(name, value):
    print(f"{name}: {value}")


def failure(e):
    text = str(e).splitlines()[0] if str(e) else ""
    return f"{type(e).__name__}: {text}"


def run(ctx, data, chunks=None):
    """update() over data (in the given chunk sizes, then the rest) and finalize()."""
    out, at = b"", 0
    for n in chunks or []:
        out += ctx.update(data[at:at + n])
        at += n
    return out + ctx.update(data[at:]) + ctx.finalize()


def mode_of(name, iv=IV):
    return {"ecb": lambda: modes.ECB(), "cbc": lambda: modes.CBC(iv),
            "ofb": lambda: modes.OFB(iv), "cfb": lambda: modes.CFB(iv),
            "ctr": lambda: modes.CTR(iv)}[name]()


def cipher_cases():
    c = Cipher(algorithms.SM4(SM4_KEY), modes.ECB())
    show("sm4-ecb known answer", run(c.encryptor(), SM4_KEY).hex())
    for m in ("ecb", "cbc", "ofb", "cfb", "ctr"):
        # cryptography pads nothing: ECB and CBC take whole blocks.
        pt = MSG[:64] if m in ("ecb", "cbc") else MSG
        c = Cipher(algorithms.SM4(SM4_KEY), mode_of(m))
        ct = run(c.encryptor(), pt)
        show(f"sm4-{m} encrypt", ct.hex())
        show(f"sm4-{m} encrypt in pieces of 1, 15, 17", run(c.encryptor(), pt, [1, 15, 17]).hex())
        show(f"sm4-{m} decrypt", run(c.decryptor(), ct, [7]).hex())
    for m in ("ecb", "cbc"):
        for op in ("encryptor", "decryptor"):
            ctx = getattr(Cipher(algorithms.SM4(SM4_KEY), mode_of(m)), op)()
            try:
                res = run(ctx, MSG[:31]).hex()
            except ValueError as e:
                res = failure(e)
            except Exception as e:  # what smgost's own reasons gave (issue 24)
                res = failure(e)
            show(f"sm4-{m} {op[:-2]} of 31 bytes, finalize", res)


def offer_sm4_gcm():
    """cryptography 38 offers GCM for AES and not for SM4.  Its backend then
    takes SM4-GCM through the same GCM code path as AES-GCM when given the
    OpenSSL name (register_cipher_adapter, as it does for its own ciphers).
    Newer releases offer SM4-GCM themselves and have no such call."""
    backend = default_backend()
    probe = (algorithms.SM4(SM4_KEY), modes.GCM(IV[:12]))
    if hasattr(backend, "register_cipher_adapter") and not backend.cipher_supported(*probe):
        from cryptography.hazmat.backends.openssl.backend import GetCipherByName
        backend.register_cipher_adapter(algorithms.SM4, modes.GCM, GetCipherByName("sm4-gcm"))


def gcm_cases(label, algorithm):
    iv = IV[:12]
    try:
        enc = Cipher(algorithm, modes.GCM(iv)).encryptor()
    except UnsupportedAlgorithm as e:  # SM4-GCM where OpenSSL has none
        show(f"{label} encrypt", failure(e))
        return
    enc.authenticate_additional_data(b"header")
    ct = run(enc, MSG, [5])
    show(f"{label} encrypt", ct.hex() + " tag " + enc.tag.hex())
    dec = Cipher(algorithm, modes.GCM(iv, enc.tag)).decryptor()
    dec.authenticate_additional_data(b"header")
    show(f"{label} decrypt", run(dec, ct).hex())
    bad = bytes([enc.tag[0] ^ 1]) + enc.tag[1:]
    dec = Cipher(algorithm, modes.GCM(iv, bad)).decryptor()
    dec.authenticate_additional_data(b"header")
    try:
        res = run(dec, ct).hex()
    except InvalidTag as e:
        res = failure(e)
    except Exception as e:  # what smgost's own "tag mismatch" gave (issue 24)
        res = failure(e)
    show(f"{label} decrypt with a tampered tag", res)


def digest_cases():
    for name, data in (("abc", b"abc"), ("abcd x 16", b"abcd" * 16)):
        h = hashes.Hash(hashes.SM3())
        h.update(data)
        show(f"sm3 {name}", h.finalize().hex())
    h = hashes.Hash(hashes.SM3())
    for i in range(0, 1000, 37):
        h.update(bytes(range(256))[i % 200:][:37])
    c = h.copy()
    show("sm3 in pieces", h.finalize().hex())
    c.update(b"more")
    show("sm3 copied and continued", c.finalize().hex())
    for klen in (17, 100):
        m = hmac.HMAC(bytes(range(klen)), hashes.SM3())
        m.update(MSG)
        tag = m.finalize()
        show(f"hmac-sm3 {klen}-byte key", tag.hex())
    m = hmac.HMAC(bytes(range(17)), hashes.SM3())
    m.update(MSG)
    try:
        m.verify(bytes([tag[0] ^ 1]) + tag[1:])
        res = "verified"
    except InvalidSignature as e:
        res = failure(e)
    show("hmac-sm3 verify a tampered tag", res)


def main():
    import cryptography
    print(f"# cryptography {cryptography.__version__}", file=sys.stderr)
    cipher_cases()
    offer_sm4_gcm()
    gcm_cases("sm4-gcm", algorithms.SM4(SM4_KEY))
    digest_cases()
    if sys.argv[1:] == ["reference"]:
        # The default provider's GCM through the same code path: what
        # cryptography makes of a tampered tag, for an OpenSSL without
        # SM4-GCM of its own.
        gcm_cases("reference aes-gcm", algorithms.AES(SM4_KEY))


main()
