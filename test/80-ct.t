# SPDX-License-Identifier: Apache-2.0
#
# The constant-time claims of README's "Constant time" table, proved two
# ways and checked against the table itself, so that it cannot drift:
#
#  - ctgrind: test/ct_check runs every entry of every kernel table (and the
#    key schedules, IMIT, and each GOST table's key meshing) under
#    valgrind's memcheck with the key schedule, IV/counter and data marked
#    undefined, over every block count from 1 to 130 (every tail of each
#    table; 25-sweep.t checks every count to 300 natively, past two passes
#    of the widest loop).
#    Memcheck reports a branch or an address computed from them.  Paths
#    README calls constant-time must give no report; the others must be
#    reported (an expected failure: the method does catch leaks).  Kernels
#    that use instructions valgrind 3.19 cannot run (GFNI, AVX-512, VAES)
#    die with SIGILL there and are left to
#  - the static check: util/ct-asm-check.pl over the generated
#    asm/*-x86_64.S, a taint analysis that flags tainted addresses, branches
#    and masks.  It must pass every assembly function but the table-based
#    scalar GOST kernel's (asm/gost89-serial-x86_64.pl, gost89_scalar_*),
#    which it must flag, each at its table lookups; it must flag a set
#    of small leaky snippets and the table lookups of the portable C
#    kernels compiled to assembly, and pass the clean snippets and the C
#    SM3 kernel (it catches leaks without crying wolf).
#
#  - on aarch64, util/ct-asm-check-arm64.pl, the same analysis over the
#    generated asm/*-armv8.S: it must flag a set of planted leaky snippets,
#    pass a clean one and every kernel function, and README's aarch64
#    rows proved by it must say what it found.
#
# The recipe then builds the table's rows from the results (a row is
# constant-time if every path in it is proved so, not if every one is
# reported) and compares them with README.  It runs once, at the unmasked
# level: it reaches every table by name, whatever the CPU would choose.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use SmgostTest;
use Test::More;
use File::Temp qw(tempdir);
use File::Spec;
use POSIX ();

if (my $forced = forced_level()) {
    plan skip_all => 'the constant-time check reaches every kernel table itself; '
        . "it runs at the unmasked level only, not with $forced";
}

my $top = top_dir();
my $tmp = tempdir(CLEANUP => 1);
my $checker = File::Spec->catfile($top, 'util', 'ct-asm-check.pl');
my $x86 = run_arch() eq 'x86_64' && ($ENV{SMGOST_RUNNER} // '') eq '';

# The objects make links the module from: their assembly is what this
# build generated, where a glob of asm/ would also take a .S that an
# earlier build left there (one from a perlasm file since renamed).
my @module_objs = split ' ', $ENV{SMGOST_MODULE_OBJS} // '';
die "SMGOST_MODULE_OBJS is not set: run the recipe through make test-ct or make test\n"
    unless @module_objs;

# The module's generated assembly for $arch ("x86_64", "armv8").
sub generated_asm {
    my ($arch) = @_;
    return map { File::Spec->catfile($top, s/\.o$/.S/r) }
        grep { m{^asm/[\w-]+-\Q$arch\E\.o$} } @module_objs;
}

my %slurped;
sub slurp {
    my ($f) = @_;
    return $slurped{$f} //= do { local (@ARGV, $/) = ($f); <> };
}

sub run_checker {
    my (@args) = @_;
    return run_cmd([$^X, $checker, @args], host => 1);
}

sub write_file {
    my ($name, $text) = @_;
    my $f = File::Spec->catfile($tmp, $name);
    open(my $fh, '>', $f) or die "$f: $!";
    print $fh $text;
    close $fh;
    return $f;
}

# ---- 1. the static checker catches leaks (expected failures) ----

my $table = ".section .rodata\n.Ltab:\n.long 1, 2, 3, 4\n.text\n";
# [name, code, the finding expected (undef: must pass)]
my @snippets = (
    [ 'leak_vmovd', <<'EOS', qr/load address uses tainted %rax/ ],
	vmovdqu	(%rsi),%xmm0
	vmovd	%xmm0,%eax
	and	$3,%eax
	lea	.Ltab(%rip),%rcx
	mov	(%rcx,%rax,4),%eax
	mov	%eax,(%rdx)
	ret
EOS
    [ 'leak_kortest', <<'EOS', qr/branch on tainted flags/ ],
	vmovdqu32	(%rsi),%zmm0
	vptestmd	%zmm0,%zmm0,%k1
	kortestw	%k1,%k1
	jz	.Lleak_kortest_out
	vmovdqu32	%zmm0,(%rdx)
.Lleak_kortest_out:
	ret
EOS
    [ 'leak_vptest', <<'EOS', qr/branch on tainted flags/ ],
	vmovdqu	(%rsi),%xmm0
	vptest	%xmm0,%xmm0
	jnz	.Lleak_vptest_out
	vmovdqu	%xmm0,(%rdx)
.Lleak_vptest_out:
	ret
EOS
    # clean index in the first pass, a secret one from the second on: only
    # the fixed point over the loop sees it
    [ 'leak_loop', <<'EOS', qr/load address uses tainted %rax/ ],
	sub	$24,%rsp
	movq	$0,(%rsp)
	mov	%rcx,8(%rsp)
.Lleak_loop_top:
	mov	(%rsp),%rax
	mov	(%rdi,%rax,4),%r8d
	mov	(%rsi),%r9
	mov	%r9,(%rsp)
	add	$8,%rsi
	decq	8(%rsp)
	jnz	.Lleak_loop_top
	add	$24,%rsp
	ret
EOS
    # the secret crosses a call in a register
    [ 'leak_call', <<'EOS', qr/load address uses tainted %rax/ ],
	mov	(%rsi),%eax
	call	.Lleak_call_sub
	mov	%eax,(%rdx)
	ret
.Lleak_call_sub:
	and	$3,%eax
	lea	.Ltab(%rip),%rcx
	mov	(%rcx,%rax,4),%eax
	ret
EOS
    # a secret spilled and reloaded through a frame pointer
    [ 'leak_spill', <<'EOS', qr/load address uses tainted %r8/ ],
	push	%rbp
	mov	%rsp,%rbp
	sub	$32,%rsp
	mov	(%rsi),%rax
	mov	%rax,-16(%rbp)
	mov	-16(%rbp),%r8
	mov	(%rdi,%r8),%eax
	mov	%rbp,%rsp
	pop	%rbp
	ret
EOS
    [ 'leak_mask', <<'EOS', qr/masked memory access with tainted %k1/ ],
	vmovdqu32	(%rsi),%zmm0
	vpxord	%zmm1,%zmm1,%zmm1
	vpcmpud	$1,%zmm0,%zmm1,%k1
	vmovdqu32	%zmm0,(%rdx){%k1}
	ret
EOS
    [ 'leak_cmov_branch', <<'EOS', qr/branch on tainted flags/ ],
	mov	(%rsi),%eax
	cmp	$5,%eax
	cmovb	%ecx,%eax
	test	%eax,%eax
	jz	.Lleak_cmov_branch_out
	mov	%eax,(%rdx)
.Lleak_cmov_branch_out:
	ret
EOS
    # what gcc 14 and clang write: the secret shifted in by SHLD, and one
    # loaded byte-swapped
    [ 'leak_shld', <<'EOS', qr/load address uses tainted %rcx/ ],
	mov	(%rsi),%rax
	xor	%ecx,%ecx
	shldq	$2,%rax,%rcx
	lea	.Ltab(%rip),%rdx
	mov	(%rdx,%rcx,4),%eax
	ret
EOS
    [ 'leak_movbe', <<'EOS', qr/load address uses tainted %rax/ ],
	movbel	(%rsi),%eax
	and	$3,%eax
	lea	.Ltab(%rip),%rcx
	mov	(%rcx,%rax,4),%eax
	ret
EOS
    # The GOST public fields are public, the round keys next to them not.
    [ 'gost89_leak_rk', <<'EOS', qr/branch on tainted flags/ ],
	testl	$1,0(%rdi)
	jz	.Lgost89_leak_rk_out
	mov	%rcx,(%rdx)
.Lgost89_leak_rk_out:
	ret
EOS
    # clean: pointer and counter spills, a counter-indexed table, a
    # length-derived mask, a public GOST field, a subroutine, zero idioms
    # clean: a pointer spilled through a frame pointer, the frame left by
    # LEAVE (--debug builds), a secret rotated by SHRD
    [ 'clean_frame', <<'EOS', undef ],
	push	%rbp
	mov	%rsp,%rbp
	sub	$32,%rsp
	mov	%rdi,-8(%rbp)
	mov	(%rsi),%eax
	shrdl	$19,%eax,%eax
	mov	-8(%rbp),%rcx
	mov	%eax,(%rcx)
	leave
	ret
EOS
    [ 'gost89_clean', <<'EOS', undef ],
	push	%rbx
	sub	$16,%rsp
	mov	%rdx,8(%rsp)
	xor	%ebx,%ebx
	testl	$1,136(%rdi)
	jz	.Lgost89_clean_top
	mov	128(%rdi),%r10
	vmovdqu	64(%r10),%xmm3
.Lgost89_clean_top:
	lea	.Ltab(%rip),%rax
	and	$3,%rbx
	vmovdqu	(%rax,%rbx,4),%xmm1
	vpxor	(%rsi),%xmm1,%xmm0
	call	.Lgost89_clean_sub
	mov	8(%rsp),%rax
	vmovdqu	%xmm0,(%rax)
	add	$16,%rsi
	addq	$16,8(%rsp)
	inc	%rbx
	cmp	%rcx,%rbx
	jb	.Lgost89_clean_top
	mov	$-1,%rax
	and	$63,%ecx
	shl	%cl,%rax
	kmovq	%rax,%k1
	vmovdqu32	(%rsi),%zmm2{%k1}{z}
	vpxor	%xmm5,%xmm5,%xmm5
	vmovd	%xmm5,%eax
	mov	(%rsi,%rax),%r11
	add	$16,%rsp
	pop	%rbx
	ret
.Lgost89_clean_sub:
	vpaddd	%xmm0,%xmm0,%xmm0
	ret
EOS
    # -fstack-protector (Debian's build flags): the canary from %fs:40 kept
    # in the frame and compared before the return is public ...
    [ 'canary_clean', <<'EOS', undef ],
	sub	$24,%rsp
	movq	%fs:40,%rax
	movq	%rax,8(%rsp)
	vmovdqu	(%rsi),%xmm0
	vmovdqu	%xmm0,(%rdx)
	movq	8(%rsp),%rax
	subq	%fs:40,%rax
	jne	.Lcanary_clean_fail
	add	$24,%rsp
	ret
.Lcanary_clean_fail:
	call	__stack_chk_fail@PLT
EOS
    # ... but not once data is mixed into it
    [ 'canary_leak', <<'EOS', qr/branch on tainted flags/ ],
	movq	%fs:40,%rax
	xorq	(%rsi),%rax
	jne	.Lcanary_leak_fail
	ret
.Lcanary_leak_fail:
	call	__stack_chk_fail@PLT
EOS
);

SKIP: {
    skip('the static checker reads x86-64 assembly; this is not an x86-64 build', 2 + @snippets)
        unless $x86;
    for my $sn (@snippets) {
        my ($name, $code, $want) = @$sn;
        my $f = write_file("$name.S", "$table.globl $name\n$name:\n$code");
        my $r = run_checker($f);
        if (defined $want) {
            ok($r->{exit} == 1 && $r->{out} =~ /^LEAK $name$/m && $r->{out} =~ $want,
               "static check flags $name (expected failure)")
                or diag("exit $r->{exit}\n$r->{out}$r->{err}");
        } else {
            ok($r->{exit} == 0 && $r->{out} =~ /^ok $name /m, "static check passes $name")
                or diag("exit $r->{exit}\n$r->{out}$r->{err}");
        }
    }
    my $f = write_file('refuse.S', ".text\n.globl refuse\nrefuse:\n\tcpuid\n\tret\n");
    my $r = run_checker($f);
    ok($r->{exit} == 2 && $r->{out} =~ /no rule for 'cpuid'/,
       'static check refuses an instruction it has no rule for');
    $f = write_file('data.S', ".text\n.globl data\ndata:\n\t.byte 0xc3\n");
    $r = run_checker($f);
    ok($r->{exit} == 2 && $r->{out} =~ /data in code/, 'static check refuses raw bytes in code');
}

# ---- 2. the static check over the generated assembly ----

my @asm = generated_asm('x86_64');
# fewer generated files than perlasm sources: a no-asm or no-gost-simd build
my $reduced = @asm < (() = glob(File::Spec->catfile($top, 'asm', '*-x86_64.pl')));
my %static;    # function -> 'ok' | 'leak'
SKIP: {
    skip('no generated x86-64 assembly in this build', 1) unless $x86 && @asm;
    my @files = @asm;
    my $r = run_checker(@files);
    my $how = '';
    if ($r->{exit} == 2 && $r->{out} =~ /data in code/) {
        # Configure's "bytes" scheme (an assembler without GFNI/VAES) writes
        # those instructions as .byte; the same code in mnemonics is what
        # the translator writes without it (util/perlasm/encoder-check.pl
        # checks that the two encode alike).
        @files = map {
            (my $pl = $_) =~ s/\.S$/.pl/;
            my $g = run_cmd([$^X, $pl, 'elf'], host => 1);
            write_file((File::Spec->splitpath($_))[2], $g->{out});
        } @asm;
        $r = run_checker(@files);
        $how = ', regenerated in mnemonics';
    }
    $static{$1} = 'ok' while $r->{out} =~ /^ok (\S+) /mg;
    my ($fn, %lookup);
    for (split /\n/, $r->{out}) {
        if (/^LEAK (\S+)$/) { $fn = $1; $static{$fn} = 'leak' }
        elsif (/^ok /) { $fn = undef }
        $lookup{$fn} = 1 if defined $fn && /^  .*load address uses tainted %\w+: \w+\s+-?\w*\(%\w*,%\w+(?:,\d)?\)/;
    }
    # the table-based scalar kernel must be flagged, at a table lookup
    my @tables = grep { /^gost89_scalar_/ } sort keys %static;
    my @wrong = grep { ($static{$_} eq 'leak') != /^gost89_scalar_/ } sort keys %static;
    push @wrong, grep { !$lookup{$_} } @tables;
    ok(($r->{exit} == 0 || ($r->{exit} == 1 && @tables)) && keys %static > 0 && !@wrong,
       'static check passes every function of ' . join(' ', map { s{.*/}{}r } @asm)
       . ' (' . scalar(keys %static) . " functions$how) but flags the table lookups of "
       . scalar(@tables) . ' scalar ones (expected failure)')
        or diag("exit $r->{exit}\nwrong: @wrong\n"
                . join("\n", grep { !/^  / } split /\n/, $r->{out}) . "\n$r->{err}");
}

# ---- 2b. the aarch64 static check: planted snippets, then the kernels ----

# util/ct-asm-check-arm64.pl is host perl over text: its snippets run in
# every build; the generated asm/*-armv8.S only exist in an aarch64 one.
my $checker64 = File::Spec->catfile($top, 'util', 'ct-asm-check-arm64.pl');
my $table64 = ".section .rodata\n.Ltab64:\n.word 1, 2, 3, 4\n.text\n";
my @snippets64 = (
    [ 'a64_leak_index', <<'EOS', qr/address uses tainted index x8/ ],
	ldr	w8,[x1]
	and	x8,x8,#3
	adrp	x9,.Ltab64
	add	x9,x9,:lo12:.Ltab64
	ldr	w10,[x9,x8,lsl #2]
	str	w10,[x2]
	ret
EOS
    [ 'a64_leak_cbz', <<'EOS', qr/branch on tainted w8/ ],
	ldr	w8,[x1]
	cbz	w8,.La64_leak_cbz_out
	str	w8,[x2]
.La64_leak_cbz_out:
	ret
EOS
    [ 'a64_leak_bcond', <<'EOS', qr/branch on tainted flags/ ],
	ld1	{v0.16b},[x1]
	fmov	x8,d0
	cmp	x8,#5
	b.lo	.La64_leak_bcond_out
	st1	{v0.16b},[x2]
.La64_leak_bcond_out:
	ret
EOS
    # an address chosen by a conditional select on a secret
    [ 'a64_leak_csel', <<'EOS', qr/address uses tainted x11/ ],
	ldr	x8,[x1]
	cmp	x8,#0
	csel	x11,x2,x3,eq
	ldr	x12,[x11]
	str	x12,[x4]
	ret
EOS
    # clean index in the first pass, a secret one from the second on:
    # only the fixed point over the loop sees it
    [ 'a64_leak_loop', <<'EOS', qr/address uses tainted index x9/ ],
	mov	x9,#0
.La64_leak_loop_top:
	ldr	w10,[x0,x9,lsl #2]
	ldr	x9,[x1],#8
	and	x9,x9,#3
	subs	x3,x3,#1
	b.ne	.La64_leak_loop_top
	ret
EOS
    # the secret crosses a call in a register
    [ 'a64_leak_call', <<'EOS', qr/address uses tainted index x8/ ],
	stp	x29,x30,[sp,#-16]!
	ldr	w8,[x1]
	bl	.La64_leak_call_sub
	ldp	x29,x30,[sp],#16
	ret
.La64_leak_call_sub:
	and	x8,x8,#3
	ldr	w9,[x0,x8,lsl #2]
	ret
EOS
    # a secret spilled to the stack and reloaded as an index
    [ 'a64_leak_spill', <<'EOS', qr/address uses tainted index x10/ ],
	sub	sp,sp,#32
	ldr	x8,[x1]
	str	x8,[sp,#8]
	ldr	x10,[sp,#8]
	ldr	w9,[x0,x10]
	add	sp,sp,#32
	ret
EOS
    # GOST89_KEY's public fields are public, the round keys next to them not
    [ 'gost89_a64_leak_rk', <<'EOS', qr/branch on tainted w8/ ],
	ldr	w8,[x0,#4]
	tbnz	w8,#0,.Lgost89_a64_leak_rk_out
	str	w8,[x2]
.Lgost89_a64_leak_rk_out:
	ret
EOS
    # clean: pointer and counter spills, a counter-indexed table, a public
    # GOST field, a subroutine, a zero idiom, CNT's carry by ADDS/CINC
    [ 'gost89_a64_clean', <<'EOS', undef ],
	stp	x29,x30,[sp,#-32]!
	mov	x29,sp
	str	x2,[sp,#16]
	ldr	w8,[x0,#136]
	cbnz	w8,.Lgost89_a64_clean_be
	ldr	x9,[x0,#128]
	ld1	{v24.16b-v27.16b},[x9]
.Lgost89_a64_clean_be:
	mov	x10,#0
	adrp	x11,.Ltab64
	add	x11,x11,:lo12:.Ltab64
.Lgost89_a64_clean_top:
	ldr	w12,[x11,x10,lsl #2]
	dup	v1.4s,w12
	ld1	{v0.16b},[x1],#16
	eor	v0.16b,v0.16b,v1.16b
	tbl	v0.16b,{v24.16b-v27.16b},v0.16b
	bl	.Lgost89_a64_clean_sub
	ldr	x13,[sp,#16]
	st1	{v0.16b},[x13]
	add	x13,x13,#16
	str	x13,[sp,#16]
	add	x10,x10,#1
	and	x10,x10,#3
	subs	x3,x3,#1
	b.ne	.Lgost89_a64_clean_top
	ldp	w6,w7,[x4]
	adds	w7,w7,w6
	cinc	w7,w7,cs
	stp	w6,w7,[x4]
	eor	v2.16b,v2.16b,v2.16b
	fmov	x14,d2
	ldr	x15,[x1,x14]
	ldp	x29,x30,[sp],#32
	ret
.Lgost89_a64_clean_sub:
	add	v0.4s,v0.4s,v0.4s
	ret
EOS
);

for my $sn (@snippets64) {
    my ($name, $code, $want) = @$sn;
    my $f = write_file("$name.S", "$table64.globl $name\n$name:\n$code");
    my $r = run_cmd([$^X, $checker64, $f], host => 1);
    if (defined $want) {
        ok($r->{exit} == 1 && $r->{out} =~ /^LEAK $name$/m && $r->{out} =~ $want,
           "aarch64 static check flags $name (expected failure)")
            or diag("exit $r->{exit}\n$r->{out}$r->{err}");
    } else {
        ok($r->{exit} == 0 && $r->{out} =~ /^ok $name /m, "aarch64 static check passes $name")
            or diag("exit $r->{exit}\n$r->{out}$r->{err}");
    }
}
{
    my $f = write_file('a64_refuse.S', ".text\n.globl a64_refuse\na64_refuse:\n\tmrs\tx0,nzcv\n\tret\n");
    my $r = run_cmd([$^X, $checker64, $f], host => 1);
    ok($r->{exit} == 2 && $r->{out} =~ /no rule for 'mrs'/,
       'aarch64 static check refuses an instruction it has no rule for');
    $f = write_file('a64_data.S', ".text\n.globl a64_data\na64_data:\n\t.inst\t0xd65f03c0\n");
    $r = run_cmd([$^X, $checker64, $f], host => 1);
    ok($r->{exit} == 2 && $r->{out} =~ /data in code/, 'aarch64 static check refuses raw words in code');
}

# The aarch64 table's rows proved by the static check: [row, functions].
my @rows64 = (
    [ 'SM4 sm4e (every mode)', qr/^sm4_sm4e_(?:ecb|ctr|cbc_dec|cfb_dec|cbc_enc|cfb_enc|ofb)$/ ],
    [ 'SM4 sm4-neon (every mode)', qr/^sm4_neon_(?:ecb|ctr|cbc_dec|cfb_dec|cbc_enc|cfb_enc|ofb)$/ ],
    [ 'SM4-GCM, SM4-CCM, SM4-XTS kernels of sm4e and sm4-neon (GCM in `sm4e+pmull`, `sm4-neon+pmull`; CCM and XTS also with `ghash-c`), GHASH by PMULL (`pmull`)',
      qr/^(?:sm4_(?:sm4e|neon)_(?:gcm|ccm|xts)_\w+|ghash_pmull\w*)$/ ],
    [ 'SM4 key schedule for sm4e (SM4EKEY) and sm4-neon (TBL/TBX S-box)', qr/^sm4_(?:sm4e|neon)_set_key$/ ],
    [ 'MGM multiply-accumulate pmull (GF(2^128) and GF(2^64))', qr/^smg_mgm_pmull_mac(?:128|64)$/ ],
    [ 'SM3 sm3-ce', qr/^sm3_ce_\w+$/ ],
    [ "Kuznyechik `kuznyechik-neon-ct` (every mode), and kuznyechik-neon's ECB, CTR, CBC-dec, CFB-dec", qr/^kuznyechik_neon_\w+$/ ],
    [ 'Streebog streebog-neon (blocks, g)', qr/^streebog_neon_(?:blocks|g)$/ ],
    [ 'GOST/Magma gost89-neon (ECB, CNT, CTR, CBC-dec, CFB-dec, key meshing)', qr/^gost89_neon_(?!imit$)\w+$/ ],
    [ 'GOST/Magma IMIT with constant-time = yes, gost89-neon: lean rounds', qr/^gost89_neon_imit$/ ],
);
my @asm64 = generated_asm('armv8');
SKIP: {
    skip('no generated aarch64 assembly in this build', 2) unless @asm64;
    my $r = run_cmd([$^X, $checker64, @asm64], host => 1);
    my %st;
    $st{$1} = 'ok' while $r->{out} =~ /^ok (\S+) /mg;
    $st{$1} = 'leak' while $r->{out} =~ /^LEAK (\S+)$/mg;
    my @leaky = grep { $st{$_} ne 'ok' } sort keys %st;
    ok($r->{exit} == 0 && keys %st > 0 && !@leaky,
       'aarch64 static check passes every function of ' . join(' ', map { s{.*/}{}r } @asm64)
       . ' (' . scalar(keys %st) . ' functions)')
        or diag("exit $r->{exit}\n$r->{out}$r->{err}");
    # README's aarch64 rows against the results
    my $readme = slurp(File::Spec->catfile($top, 'README.md'));
    my ($section) = $readme =~ /^## Constant time on aarch64\n(.*?)(?=^## )/ms;
    my %row;
    for my $line (split /\n/, $section // '') {
        next unless $line =~ /^\|(.*)\|\s*$/;
        my @c = map { s/^\s+|\s+$//gr } split /\|/, $1;
        $row{ $c[0] } = [ ($c[1] // '') =~ s/\*//gr, $c[2] // '' ];
    }
    my (@diff, %covered);
    for my $rw (@rows64) {
        my ($text, $re) = @$rw;
        my @fns = grep { /$re/ } sort keys %st;
        $covered{$_} = 1 for @fns;
        my $got = $row{$text};
        if (!$got) { push @diff, "README's aarch64 table lacks the row '$text'"; next }
        next unless @fns;
        my $ct = (grep { $st{$_} ne 'ok' } @fns) ? 'no' : 'yes';
        push @diff, "'$text': README says '$got->[0]', the static check '$ct'" if $got->[0] ne $ct;
        push @diff, "'$text': README says proved by '$got->[1]', not 'static check'"
            if $got->[1] ne 'static check';
    }
    push @diff, "no aarch64 README row covers $_" for grep { !$covered{$_} } sort keys %st;
    ok(!@diff, "README's aarch64 rows match the static check (" . scalar(@rows64) . ' rows)')
        or diag(join("\n", @diff));
}

# ---- 3. the static check against the portable C kernels ----

# The build's compiler and flags, from the Makefile Configure wrote.
sub make_vars {
    my %v;
    open(my $fh, '<', File::Spec->catfile($top, 'Makefile')) or return;
    while (<$fh>) { $v{$1} = $2 if /^(\w+)\s*=\s*(.*?)\s*$/ }
    return %v;
}

SKIP: {
    my %mk = make_vars();
    skip('the static checker reads x86-64 assembly; this is not an x86-64 build', 3) unless $x86;
    skip('sanitizer builds instrument the C code', 3) if ($ENV{SMGOST_SANITIZE} // '') ne '';
    skip('no Makefile to take the compiler from', 3) unless $mk{CC};
    # -O3 last, whatever the build's level: below -O3 (--debug's -O0, or
    # CFLAGS=-O2) gcc keeps SM3's message schedule in a stack array indexed
    # by a register, and a store there makes the analysis, which tracks the
    # frame byte by byte, forget the pointers spilled next to it.
    my @cc = (split(' ', $mk{CC}), split(' ', join ' ', map { $mk{$_} // '' }
                  qw(OPTFLAGS DEFINES OPENSSL_CFLAGS CFLAGS)), '-O3', '-fPIC', '-I',
              File::Spec->catdir($top, 'src'), '-S');
    # [functions, whether they must be flagged]
    my %c = (
        sm3 => [ 'sm3_c_blocks', 0 ],
        sm4 => [ 'sm4_c_\w+|sm4_set_key', 1 ],
        gost89 => [ 'gost89_c_\w+', 1 ],
        streebog => [ 'streebog_c_(?:blocks|g)', 1 ],
    );
    for my $unit (sort keys %c) {
        my ($re, $leaky) = @{ $c{$unit} };
        my $out = File::Spec->catfile($tmp, "$unit-c.S");
        my $cr = run_cmd([@cc, '-o', $out, File::Spec->catfile($top, 'src', "$unit.c")], host => 1);
        if ($cr->{exit} != 0) {
            fail("compile src/$unit.c to assembly");
            diag("$cr->{cmd}\n$cr->{err}");
            next;
        }
        my $r = run_checker("--functions=$re", $out);
        my @leak = $r->{out} =~ /^LEAK (\S+)$/mg;
        my @ok = $r->{out} =~ /^ok (\S+) /mg;
        # each flagged function shows a table lookup: a load whose index
        # register is tainted (other findings, such as the branch on the
        # counter's carry in CTR, come on top)
        my %lookup;
        my $fn;
        for (split /\n/, $r->{out}) {
            $fn = $1 if /^LEAK (\S+)$/;
            $lookup{$fn}++ if /^  .*load address uses tainted %\w+: \w+\s+-?\w*\(%\w*,%\w+(?:,\d)?\)/;
        }
        my @nolookup = grep { !$lookup{$_} } @leak;
        if ($leaky) {
            ok($r->{exit} == 1 && @leak && !@ok && !@nolookup,
               "static check flags the table lookups of every function of src/$unit.c "
               . "($re: " . scalar(@leak) . ' functions, expected failure)')
                or diag("exit $r->{exit}\nwithout a table lookup: @nolookup\n"
                        . join("\n", grep { !/^  / } split /\n/, $r->{out}) . "\n$r->{err}");
        } else {
            ok($r->{exit} == 0 && @ok && !@leak, "static check passes src/$unit.c ($re)")
                or diag("exit $r->{exit}\n$r->{out}$r->{err}");
        }
    }
}

# ---- 4. ctgrind ----

my %cg;         # table -> entry -> { count -> clean|leak|sigill }
my %cg_kind;    # table -> entry -> what memcheck reported first (address, branch)
my %cg_max;     # table -> largest count
my @targets;    # [table, entries...] in ct_check's order
{
    my $r = run_program('ct_check', ['targets']);
    @targets = map { [split ' '] } split /\n/, $r->{out};
    ok($r->{exit} == 0 && @targets > 0, 'ct_check lists the kernel tables of this build')
        or diag("$r->{cmd}\n$r->{err}");
}
my $valgrind = '';
for my $d (split /:/, $ENV{PATH} // '') {
    $valgrind = "$d/valgrind" if $valgrind eq '' && -x "$d/valgrind";
}
my $cg_skip = $valgrind eq '' ? 'valgrind is not installed (Debian package valgrind)'
    : ($ENV{SMGOST_RUNNER} // '') ne '' ? 'programs run through an emulator'
    : ($ENV{SMGOST_SANITIZE} // '') ne '' ? 'valgrind does not run sanitized programs'
    : '';
my $code = 99;
# Runs the commands two at a time (valgrind is slow; this machine class has
# two cores), each with its output in a file; returns [exit, output] each.
sub run_two_at_a_time {
    my (@cmds) = @_;
    my (%running, @res);
    my $next = 0;
    while ($next < @cmds || %running) {
        while ($next < @cmds && keys %running < 2) {
            my $out = File::Spec->catfile($tmp, "job$next.out");
            my $pid = fork // die "fork: $!";
            if ($pid == 0) {
                open(STDIN, '<', '/dev/null') or POSIX::_exit(126);
                open(STDOUT, '>', $out) or POSIX::_exit(126);
                open(STDERR, '>&', \*STDOUT) or POSIX::_exit(126);
                exec { $cmds[$next][0] } @{ $cmds[$next] } or POSIX::_exit(127);
            }
            $running{$pid} = [$next++, $out];
        }
        my $pid = waitpid(-1, 0);
        last if $pid < 0;
        my $job = delete $running{$pid} or next;
        $res[ $job->[0] ] = [ $? >> 8, slurp($job->[1]) ];
    }
    return @res;
}

SKIP: {
    skip($cg_skip, scalar @targets) if $cg_skip ne '';
    my @cmds = map {
        [ $valgrind, '-q', '--tool=memcheck', "--error-exitcode=$code",
          '--exit-on-first-error=yes', '--log-file=' . File::Spec->catfile($tmp, "vg-$_->[0].log"),
          program('ct_check'), 'scan', $_->[0], $code ]
    } @targets;
    my @res = run_two_at_a_time(@cmds);
    for my $j (0 .. $#targets) {
        my ($name) = @{ $targets[$j] };
        my ($exit, $out) = @{ $res[$j] // [ -1, '' ] };
        my $log = File::Spec->catfile($tmp, "vg-$name.log");
        # the first error of each process: the line before its first
        # "at 0x..." line
        my %first;
        if (open(my $fh, '<', $log)) {
            my %prev;
            while (<$fh>) {
                next unless /^==(\d+)== (.*)$/;
                my ($pid, $msg) = ($1, $2);
                if ($msg =~ /^\s+at 0x/) { $first{$pid} //= $prev{$pid} // '' }
                elsif ($msg =~ /\S/) { $prev{$pid} = $msg }
            }
        }
        my @bad;
        for my $line (split /\n/, $out) {
            next unless $line =~ /^child (\d+) \S+ (\S+) (\d+)-(\d+) (\w+)(?: (\d+))?$/;
            my ($pid, $e, $lo, $hi, $status, $at) = ($1, $2, $3, $4, $5, $6);
            $cg_max{$name} = $hi if ($cg_max{$name} // 0) < $hi;
            # the counts before the one that stopped the child ran clean
            my $last = $status eq 'clean' ? $hi : $at - 1;
            $cg{$name}{$e}{$_} //= 'clean' for $lo .. $last;
            next if $status eq 'clean';
            if ($status eq 'leak') {
                my $k = $first{$pid} // '(no message)';
                if ($k =~ /^(?:Conditional jump or move depends on uninitialised value|Use of uninitialised value of size \d+)/) {
                    $cg{$name}{$e}{$at} = 'leak';
                    $cg_kind{$name}{$e} //= $k =~ /^Cond/ ? 'branch' : 'address';
                } else {
                    push @bad, "$e at $at blocks: memcheck says '$k'";
                }
            } elsif ($status eq 'sigill') {
                $cg{$name}{$e}{$at} = 'sigill';
            } else {
                push @bad, "$e at $at blocks: $status";
            }
        }
        ok($exit == 0 && $out =~ /scan of \Q$name\E complete/ && !@bad, "ctgrind scan of $name")
            or diag("@{ $cmds[$j] }\nexit $exit\n" . join("\n", @bad) . "\n$out");
    }
}

# ---- 5. the results, per path ----

# Where the short calls a table hands to another kernel end: the first
# count after the last leak, if everything from there on is clean or
# beyond valgrind.
sub threshold {
    my ($t, $e) = @_;
    my $c = $cg{$t}{$e} or return undef;
    my $th = 1;
    for (keys %$c) { $th = $_ + 1 if $c->{$_} eq 'leak' && $_ + 1 > $th }
    return undef if $th > $cg_max{$t};
    for my $n ($th .. $cg_max{$t}) {
        last if ($c->{$n} // '') eq 'sigill';    # valgrind stopped there
        return undef unless ($c->{$n} // '') eq 'clean';
    }
    return $th;
}

# ctgrind's verdict over counts $lo..$hi: 'no' (a leak), 'yes' (all
# clean), undef (not decided: valgrind could not run them all).
sub cg_verdict {
    my ($t, $e, $lo, $hi) = @_;
    my $c = $cg{$t}{$e} or return undef;
    return undef if $hi < $lo;
    my $all = 1;
    for my $n ($lo .. $hi) {
        return 'no' if ($c->{$n} // '') eq 'leak';
        $all = 0 unless ($c->{$n} // '') eq 'clean';
    }
    return $all ? 'yes' : undef;
}

# The assembly function behind each entry of each kernel table, from the
# families' lists (test/kernels, whose addresses nm names): { table =>
# { entry => function } }, the tables named as ct_check names its targets:
# an SM4 table's block entries under its block table's name (the tables of
# one name share them, ct_check checks), its AEAD entries under TIER+GHASH.
my %list_fn;
SKIP: {
    skip('the assembly functions are x86-64\'s; this is not an x86-64 build', 1) unless $x86;
    my $r = run_program('kernels');
    my $sy = run_cmd([ 'nm', program('kernels') ], host => 1);
    my %at;
    for (split /\n/, $sy->{out}) {
        $at{ hex $1 } //= $2 if /^([0-9a-f]+) [Tt] (\w+)$/;
    }
    my ($main) = grep { $at{$_} eq 'main' } keys %at;
    my %family;
    for (split /\n/, $r->{out}) {
        $family{$2} = $1 if /^table (\S+) (\S+) /;
        next unless /^entry (\S+) (\S+) ([0-9a-f]+)$/ && defined $main;
        my ($t, $e, $fn) = ($1, $2, $at{ $main + hex $3 });
        next unless defined $fn;
        my $aead = $e =~ /^(?:ghash|gcm|ccm|xts)/;
        $t =~ s/\+.*// if $family{$t} eq 'sm4' && !$aead;
        $list_fn{$t}{$e} = $fn;
    }
    ok($r->{exit} == 0 && defined $main && keys %list_fn > 0,
       'the kernel lists name the functions of ' . scalar(keys %list_fn) . ' tables')
        or diag("$r->{cmd}: exit $r->{exit}\n$r->{err}\n$sy->{cmd}: exit $sy->{exit}\n$sy->{err}");
}
# The pseudo tables' functions (test/ct_check.c), which no list holds.
my %asm_name = (
    'gost89-mesh-ahead' => sub { "gost89_avx512_$_[0]_side" },
    'gost89-imit-scalar' => sub { 'gost89_scalar_imit' },
    'gost89-imit-avx512' => sub { 'gost89_avx512_imit' },
    'gost89-imit-avx2' => sub { 'gost89_avx2_imit' },
    'gost94-avx512vbmi' => sub { 'gost89_avx512_ecb4k' },
    'gost94-avx2' => sub { 'gost89_avx2_ecb4k' },
    'sm4-keysched-gfni' => sub { 'sm4_gfni_set_key' },
    'sm4-keysched-gfni-avx512' => sub { 'sm4_gfni_avx512_key_tables' },
    'sm4-keysched-aesni' => sub { 'sm4_aesni_set_key' },
    'kuznyechik-keysched-gfni-avx2' => sub { 'kuznyechik_gfni_avx2_schedule' },
    'kuznyechik-keysched-avx2' => sub { 'kuznyechik_avx2_schedule' },
);
my %asm_fns = map { $_ => 1 } map { slurp($_) =~ /^\.globl\s+(\w+)/mg } @asm;
# The assembly function behind entry $e of table $t, if there is one.
sub asm_fn {
    my ($t, $e) = @_;
    # key meshing runs in the table's ECB, the default AVX2 table's in the
    # C kernel's (src/gost89_x86.h, gost89_mesh_kernel_x86)
    return undef if $e eq 'mesh' && $t eq 'gost89-avx2';
    $e = 'ecb' if $e eq 'mesh';
    my @fns = $list_fn{$t} ? ($list_fn{$t}{$e} // ()) : $asm_name{$t} ? $asm_name{$t}->($e) : ();
    my ($fn) = grep { $asm_fns{$_} } @fns;
    return $fn;
}

# README's rows: [path text, members], a member [table pattern, which
# entries ('asm': those with an assembly function, 'noasm': the others,
# 'all', or a pattern the entry's assembly function must match), which counts ('all', 'short': below the table's threshold,
# 'long': from it on)].  {T:table} in a path stands for that threshold.
my @rows = (
    [ 'SM4 gfni-avx512, gfni-avx512-glc, gfni-avx2 (every mode)',
      [ qr/^gfni-avx(?:512(?:-glc)?|2)$/, 'all', 'all' ] ],
    [ 'SM4 vaes-avx2 (ECB, CTR, CBC-dec, CFB-dec)',
      [ qr/^vaes-avx2(?:-ct)?$/, 'asm', 'all' ] ],
    [ 'SM4 aesni-avx2, aesni-avx (ECB, CTR, CBC-dec, CFB-dec)',
      [ qr/^aesni-avx2?(?:-ct)?$/, 'asm', 'all' ] ],
    [ 'SM4 C kernel, and the serial modes (CBC-enc, CFB-enc, OFB; CCM\'s AAD runs through CBC-enc) and lone-block ECB (ecb_lone: XTS\'s tweak and XTS calls of up to 4 blocks, CCM\'s data and tag) of vaes-avx2, aesni-avx2, aesni-avx',
      [ qr/^sm4-c$/, 'all', 'all' ], [ qr/^(?:vaes|aesni)-avx2?$/, 'noasm', 'all' ] ],
    [ 'SM4 vaes-avx2-ct, aesni-avx2-ct, aesni-avx-ct: the serial modes (CBC-enc, CFB-enc, OFB), with constant-time = yes',
      [ qr/^(?:vaes|aesni)-avx2?-ct$/, 'noasm', 'all' ] ],
    [ 'SM4 GHASH clmul-avx, vpclmul-avx2, vpclmul-avx512',
      [ qr/\+/, qr/^smg_ghash_/, 'all' ] ],
    [ 'SM4 GHASH C (ghash-c)', [ qr/\+ghash-c$/, 'noasm', 'all' ] ],
    [ 'MGM multiply-accumulate clmul-avx (GF(2^128) and GF(2^64))',
      [ qr/^clmul-avx$/, 'all', 'all' ] ],
    [ 'MGM multiply-accumulate vpclmul-avx512 (GF(2^128) and GF(2^64))',
      [ qr/^vpclmul-avx512$/, 'all', 'all' ] ],
    [ 'MGM multiply-accumulate C (mgm-c)', [ qr/^mgm-c$/, 'all', 'all' ] ],
    [ 'SM4 GCM, CCM, XTS as the mode layer composes them where a table has no fused entry (src/aead_gcm.c, aead_ccm.c, aead_xts.c), over a constant-time table (shown over aesni-avx-ct)',
      [ qr/^composed-aesni-avx-ct$/, 'all', 'all' ] ],
    [ 'SM4 GCM, CCM, XTS composed over the C kernel',
      [ qr/^composed-sm4-c$/, 'all', 'all' ] ],
    [ 'SM4 GCM and XTS of gfni-avx512, gfni-avx2 (fused; both XTS tweak conventions)',
      [ qr/\+/, qr/^sm4_gfni_\w+_(?:gcm|xts)_/, 'all' ] ],
    [ 'SM4 GCM of aesni-avx with clmul-avx (fused: PCLMULQDQ inside the ring core)',
      [ qr/\+/, qr/^sm4_aesni_avx_gcm_/, 'all' ] ],
    [ 'SM4 GCM of vaes-avx2 and aesni-avx2 with vpclmul-avx2 (fused: the GHASH of each CTR pass beside it)',
      [ qr/\+/, qr/^sm4_(?:vaes|aesni)_avx2_gcm_/, 'all' ] ],
    [ 'SM4 XTS of vaes-avx2, aesni-avx2, aesni-avx (fused; both tweak conventions)',
      [ qr/\+/, qr/^sm4_(?:vaes|aesni)_avx2?_xts_/, 'all' ] ],
    [ 'SM4 CCM of gfni-avx512, gfni-avx2 and the AES-NI tiers\' -ct tables',
      [ qr/\+/, qr/^sm4_\w+_ccm_/, 'all' ] ],
    [ 'SM4 key schedule for the C kernel', [ qr/^sm4-keysched-c$/, 'all', 'all' ] ],
    [ 'SM4 key schedule for the GFNI tiers (gfni-avx512: with its cores\' tables)',
      [ qr/^sm4-keysched-gfni(?:-avx512)?$/, 'all', 'all' ] ],
    [ 'SM4 key schedule for the AES-NI tiers (vaes-avx2, aesni-avx2, aesni-avx, and their -ct siblings)',
      [ qr/^sm4-keysched-aesni$/, 'all', 'all' ] ],
    [ 'SM3 avx-bmi2', [ qr/^sm3-avx-bmi2$/, 'all', 'all' ] ],
    [ 'SM3 avx512-bmi2', [ qr/^sm3-avx512-bmi2$/, 'all', 'all' ] ],
    [ 'SM3 avx512-bmi2-glc', [ qr/^sm3-avx512-bmi2-glc$/, 'all', 'all' ] ],
    [ 'SM3 C', [ qr/^sm3-c$/, 'all', 'all' ] ],
    [ 'GOST/Magma avx512vbmi (ECB, CNT, CTR, CBC-dec, CFB-dec, key meshing, also a period ahead), and every mode of avx512vbmi-ct',
      [ qr/^gost89-avx512vbmi$/, qr/^gost89_avx512_/, 'all' ], [ qr/^gost89-avx512vbmi-ct$/, 'asm', 'all' ],
      [ qr/^gost89-mesh-ahead$/, 'all', 'all' ] ],
    [ 'GOST/Magma avx2 (ECB, CNT, CTR, CBC-dec, CFB-dec), and key meshing of avx2-ct',
      [ qr/^gost89-avx2(?:-ct)?$/, qr/^gost89_avx2_/, 'all' ] ],
    [ 'GOST/Magma C kernel (IMIT included), the parallel modes and key meshing of scalar-bmi1, and key meshing of avx2',
      [ qr/^gost89-c$/, 'all', 'all' ], [ qr/^gost89-scalar-bmi1$/, 'noasm', 'all' ],
      [ qr/^gost89-imit-c$/, 'all', 'all' ], [ qr/^gost89-avx2$/, 'noasm', 'all' ] ],
    [ 'GOST/Magma scalar-bmi1 serial modes (CBC-enc, CFB-enc, OFB), also those of avx512vbmi and avx2',
      [ qr/^gost89-scalar-bmi1$/, 'asm', 'all' ], [ qr/^gost89-avx(?:2|512vbmi)$/, qr/^gost89_scalar_/, 'all' ] ],
    [ 'GOST/Magma gost89-avx2-ct: the serial modes (CBC-enc, CFB-enc, OFB), with constant-time = yes',
      [ qr/^gost89-avx2-ct$/, 'noasm', 'all' ] ],
    [ 'GOST/Magma IMIT (gost-mac) by default: the scalar kernel (x86-64 with BMI1)',
      [ qr/^gost89-imit-scalar$/, 'all', 'all' ] ],
    [ 'GOST/Magma IMIT with constant-time = yes, avx512vbmi: lean rounds',
      [ qr/^gost89-imit-avx512$/, 'all', 'all' ] ],
    [ 'GOST/Magma IMIT with constant-time = yes, avx2: lean rounds',
      [ qr/^gost89-imit-avx2$/, 'all', 'all' ] ],
    [ 'GOST/Magma key schedule', [ qr/^gost89-keysched$/, 'all', 'all' ] ],
    [ 'Streebog C tables (streebog-c)', [ qr/^streebog-c$/, 'all', 'all' ] ],
    [ 'Streebog C constant-time (streebog-c-ct), with constant-time = yes',
      [ qr/^streebog-c-ct$/, 'all', 'all' ] ],
    [ 'Streebog streebog-gfni-avx512 (blocks, g)',
      [ qr/^streebog-gfni-avx512$/, 'all', 'all' ] ],
    [ 'Streebog streebog-gfni-avx2 (blocks, g)',
      [ qr/^streebog-gfni-avx2$/, 'all', 'all' ] ],
    [ 'Streebog streebog-avx2 (blocks, g)',
      [ qr/^streebog-avx2$/, 'all', 'all' ] ],
    [ 'Kuznyechik C kernel (kuznyechik-c), every mode, with its key schedule',
      [ qr/^kuznyechik-c$/, 'all', 'all' ], [ qr/^kuznyechik-keysched-c$/, 'all', 'all' ] ],
    [ 'Kuznyechik kuznyechik-c-ct, every mode, with constant-time = yes, and its key schedule',
      [ qr/^kuznyechik-c-ct$/, 'all', 'all' ], [ qr/^kuznyechik-keysched-ct$/, 'all', 'all' ] ],
    [ 'md_gost94 (GOST R 34.11-94) with gost89-avx2-ct: the step (key generation, shuffle, sum), the finishing rule and the four encryptions (gost94-avx2)',
      [ qr/^gost94-avx2$/, 'all', 'all' ] ],
    [ 'md_gost94 with gost89-avx512vbmi and its -ct table: the four encryptions (gost94-avx512vbmi; the rest is the C of the row above)',
      [ qr/^gost94-avx512vbmi$/, 'all', 'all' ] ],
    [ 'md_gost94 with every other GOST kernel: the four encryptions in C (gost94-c)',
      [ qr/^gost94-c$/, 'all', 'all' ] ],
    [ 'Kuznyechik kuznyechik-gfni-avx512 (every mode)',
      [ qr/^kuznyechik-gfni-avx512$/, 'all', 'all' ] ],
    [ 'Kuznyechik kuznyechik-gfni-avx2 and kuznyechik-avx2 (every mode), and the key schedule of every x86-64 tier',
      [ qr/^kuznyechik-(?:gfni-)?avx2$/, 'all', 'all' ],
      [ qr/^kuznyechik-keysched-(?:gfni-)?avx2$/, 'all', 'all' ] ],
);

my (%covered, @result_rows, @problems, %absent);
my $cg_ran = $cg_skip eq '';
for my $row (@rows) {
    my ($text, @members) = @$row;
    my (%verdict, %kinds, $n, %th);
    my ($all_cg, $all_st) = (1, 1);
    for my $m (@members) {
        my ($tre, $which, $range) = @$m;
        for my $t (grep { $_->[0] =~ $tre } @targets) {
            my ($tname, @entries) = @$t;
            for my $e (@entries) {
                my $fn = asm_fn($tname, $e);
                next if ref $which && !(defined $fn && $fn =~ $which);
                next if $which eq 'asm' && !defined $fn;
                next if $which eq 'noasm' && defined $fn;
                my $max = $cg_max{$tname} // 0;
                my $th = threshold($tname, $e);
                $th{$tname}{$th // '?'} = 1;
                my ($lo, $hi) = $range eq 'short' ? (1, ($th // 1) - 1)
                    : $range eq 'long' ? ($th // 1, $max) : (1, $max);
                next if $range eq 'short' && defined $th && $th == 1;
                $n++;
                $covered{"$tname $e $range"} = 1;
                $covered{"fn $fn"} = 1 if defined $fn && $range ne 'short';
                my $cgv = $cg_ran ? cg_verdict($tname, $e, $lo, $hi) : undef;
                my $stv = defined $fn && $range ne 'short' && defined $static{$fn}
                    ? ($static{$fn} eq 'ok' ? 'yes' : 'no') : undef;
                push @problems, "$tname $e: ctgrind says $cgv, the static check $stv"
                    if defined $cgv && defined $stv && $cgv ne $stv;
                $verdict{ $cgv // $stv // 'unproved' }++;
                $kinds{ $cg_kind{$tname}{$e} }++ if ($cgv // '') eq 'no' && $cg_kind{$tname}{$e};
                $all_cg = 0 unless defined $cgv;
                $all_st = 0 unless defined $stv;
            }
        }
    }
    # nothing of this row in this build (no-gost-simd, no-asm): README may
    # still list it
    if (!$n) { $absent{$text} = 1; next }
    # thresholds into the text
    $text =~ s/\{T:([\w-]+)\}/join('|', sort keys %{ $th{$1} })/ge;
    my $ct = keys %verdict == 1 ? (keys %verdict)[0] : 'mixed';
    push @problems, "'$text' mixes paths: " . join(', ', map { "$_ $verdict{$_}" } sort keys %verdict)
        if $ct eq 'mixed' && $cg_ran;
    my $how = join(' + ', ($all_cg ? 'ctgrind' : ()), ($all_st ? 'static check' : ()));
    my $paths = join(', ', map { "$_ $verdict{$_}" } sort keys %verdict);
    $paths .= ' (first report: ' . join(', ', map { "$kinds{$_} $_" } sort keys %kinds) . ')' if %kinds;
    push @result_rows, [ $text, $ct, $how, $paths ];
}

# every ctgrind path and every assembly function is in some row
for my $t (@targets) {
    my ($tname, @entries) = @$t;
    for my $e (@entries) {
        next if grep { $covered{"$tname $e $_"} } qw(all short long);
        push @problems, "no README row covers $tname $e";
    }
}
for my $fn (sort keys %static) {
    push @problems, "no README row covers the assembly function $fn" unless $covered{"fn $fn"};
}

note(sprintf("%-100s %-8s %-24s %s", 'path', 'CT', 'proved by', 'paths'));
note(sprintf("%-100s %-8s %-24s %s", @$_)) for @result_rows;
ok(!@problems, 'every path and every assembly function is in exactly one consistent row')
    or diag(join("\n", @problems));

# ---- 6. README against the results ----

SKIP: {
    skip("README's rows need ctgrind's results: $cg_skip", 1) unless $cg_ran;
    my $readme = slurp(File::Spec->catfile($top, 'README.md'));
    my ($section) = $readme =~ /^## Constant time\n(.*?)(?=^## )/ms;
    my %readme;
    for my $line (split /\n/, $section // '') {
        next unless $line =~ /^\|(.*)\|\s*$/;
        my @c = map { s/^\s+|\s+$//gr } split /\|/, $1;
        next if $c[0] eq 'path' || $c[0] =~ /^-+$/;
        (my $ct = $c[1] // '') =~ s/\*//g;
        $readme{ $c[0] } = [ $ct, $c[2] // '' ];
    }
    my @diff;
    for my $r (@result_rows) {
        my ($text, $ct, $how) = @$r;
        my $got = $readme{$text};
        if (!$got) { push @diff, "README lacks the row '$text'"; next }
        push @diff, "'$text': README says constant-time '$got->[0]', the results '$ct'"
            if $got->[0] ne $ct;
        # a build without some assembly (no-asm, no-gost-simd) proves by
        # fewer methods than README, which describes the full build
        my %claimed = map { $_ => 1 } split / \+ /, $got->[1];
        my $fewer = $reduced && !grep { !$claimed{$_} } split / \+ /, $how;
        push @diff, "'$text': README says proved by '$got->[1]', the results '$how'"
            if $got->[1] ne $how && !$fewer;
    }
    my %ours = map { $_->[0] => 1 } @result_rows;
    push @diff, "README has a row the results do not: '$_'" for grep { !$ours{$_} && !$absent{$_} } sort keys %readme;
    ok(!@diff, "README's constant-time table matches the results (" . scalar(@result_rows) . ' rows)')
        or diag(join("\n", @diff, 'rows from the results:',
                     map { "| $_->[0] | " . ($_->[1] eq 'no' ? '**no**' : $_->[1]) . " | $_->[2] |" }
                     @result_rows));
}

done_testing();
