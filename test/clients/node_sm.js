// SPDX-License-Identifier: Apache-2.0
//
// Drives SM4 and SM3 through Node.js's crypto module (createCipheriv,
// createDecipheriv, createHash, createHmac) as an application would, and
// prints one line per case, "name: result": the output in hex, or the
// error thrown as its code, reason, library and message.  test/32-clients.t
// runs it under several openssl.cnf files and compares the lines.  Only the
// failures the cases provoke are caught: an SM4 or SM3 that cannot be had
// stops the script.  With the argument "libcrypto" it prints instead the
// libcrypto this process has mapped (none: node carries its own OpenSSL).
'use strict';
const crypto = require('crypto');
const fs = require('fs');

if (process.argv[2] === 'libcrypto') {
    const maps = fs.readFileSync('/proc/self/maps', 'utf8');
    const lib = maps.split('\n').map((l) => l.split(/\s+/)[5] || '')
        .find((p) => /\/libcrypto\.so\.3$/.test(p));
    console.log(`libcrypto: ${lib || 'none'}`);
    console.log(`openssl: ${process.versions.openssl}`);
    process.exit(0);
}

// GB/T 32907 (SM4) appendix A.1: one block under the key that is also the
// plaintext.
const KEY = Buffer.from('0123456789abcdeffedcba9876543210', 'hex');
const IV = Buffer.from('00112233445566778899aabbccddeeff', 'hex');
const MSG = Buffer.from(Array.from({ length: 67 }, (_, i) => (i * 131 + 7) % 256));

function show(name, value) {
    console.log(`${name}: ${value}`);
}

function failure(e) {
    return `code=${e.code} reason=${e.reason} library=${e.library} message=${e.message}`;
}

// update() over data in the given chunk sizes, then the rest, and final().
function run(ctx, data, chunks = []) {
    const out = [];
    let at = 0;
    for (const n of chunks) {
        out.push(ctx.update(data.subarray(at, at + n)));
        at += n;
    }
    out.push(ctx.update(data.subarray(at)), ctx.final());
    return Buffer.concat(out);
}

// Runs f; a thrown error becomes the case's result.
function attempt(f) {
    try {
        return f();
    } catch (e) {
        if (e.code === undefined) throw e;
        return failure(e);
    }
}

const ivOf = (m) => (m === 'ecb' ? null : IV);

function cipherCases() {
    const kat = crypto.createCipheriv('sm4-ecb', KEY, null).setAutoPadding(false);
    show('sm4-ecb known answer', run(kat, KEY).toString('hex'));
    for (const m of ['ecb', 'cbc', 'ofb', 'cfb', 'ctr']) {
        const name = `sm4-${m}`;
        const ct = run(crypto.createCipheriv(name, KEY, ivOf(m)), MSG);
        show(`${name} encrypt`, ct.toString('hex'));
        show(`${name} encrypt in pieces of 1, 15, 17`,
             run(crypto.createCipheriv(name, KEY, ivOf(m)), MSG, [1, 15, 17]).toString('hex'));
        show(`${name} decrypt`, run(crypto.createDecipheriv(name, KEY, ivOf(m)), ct, [7]).toString('hex'));
        show(`${name} 15-byte key`, attempt(() => crypto.createCipheriv(name, KEY.subarray(1), ivOf(m)) && 'accepted'));
        if (m !== 'ecb') {
            show(`${name} 15-byte iv`, attempt(() => crypto.createCipheriv(name, KEY, IV.subarray(1)) && 'accepted'));
        }
    }
    for (const m of ['ecb', 'cbc']) {
        const name = `sm4-${m}`;
        for (const [op, make] of [['encrypt', crypto.createCipheriv], ['decrypt', crypto.createDecipheriv]]) {
            show(`${name} ${op} of 31 bytes without padding, final`,
                 attempt(() => run(make(name, KEY, ivOf(m)).setAutoPadding(false), MSG.subarray(0, 31)).toString('hex')));
        }
        // 32 bytes that decrypt to no valid padding under this key
        const bad = run(crypto.createCipheriv(name, KEY, ivOf(m)).setAutoPadding(false), Buffer.alloc(32, 0x41));
        show(`${name} decrypt with bad padding, final`,
             attempt(() => run(crypto.createDecipheriv(name, KEY, ivOf(m)), bad).toString('hex')));
    }
}

function digestCases() {
    show('sm3 abc', crypto.createHash('sm3').update('abc').digest('hex'));
    show('sm3 abcd x 16', crypto.createHash('sm3').update('abcd'.repeat(16)).digest('hex'));
    const h = crypto.createHash('sm3');
    for (let i = 0; i < 1000; i += 37) h.update(MSG.subarray(i % 50, i % 50 + 17));
    const c = h.copy();
    show('sm3 in pieces', h.digest('hex'));
    show('sm3 copied and continued', c.update('more').digest('hex'));
    for (const klen of [17, 100]) {
        const key = Buffer.from(Array.from({ length: klen }, (_, i) => i));
        // Newer nodes fetch HMAC itself from the providers (EVP_MAC), which
        // default_properties = provider=smgost then cannot give them.
        show(`hmac-sm3 ${klen}-byte key`, attempt(() => crypto.createHmac('sm3', key).update(MSG).digest('hex')));
    }
}

cipherCases();
digestCases();
