#! /usr/bin/env perl
# SPDX-License-Identifier: Apache-2.0
#
# SM4 (GB/T 32907-2016) kernels of the GFNI + AVX2 tier for x86-64
# (gfni-avx2: AVX2 and the VEX forms of GFNI), generated as AT&T text
# through util/perlasm/x86_64.pm:
#
#   perl asm/sm4-gfni-avx2-x86_64.pl elf [bytes] > asm/sm4-gfni-avx2-x86_64.S
#
# Owns the tier's word-sliced cores (24 and 16 blocks) and its lean cores,
# its parallel modes (ECB, CTR, CBC and CFB decryption), GCM (GHASH by
# smg_ghash_vpclmul_avx2 between passes), XTS, CCM, the serial modes, and
# sm4_gfni_set_key, the key schedule through the GFNI S-box that both GFNI
# tiers' tables use.  What the tiers share is util/perlasm/sm4_x86_64.pm's.
# Every kernel is constant-time (the S-box by GF(2^8) affine/inverse
# instructions).
#
# Batches: a 24-block loop (the round is latency-bound with fewer blocks in
# flight, and three groups fill the 16 ymm registers), then ONE masked pass
# of the narrowest width that holds the remainder (24/16 blocks, then the
# lean cores for 1..8), never a per-block loop; the serial modes run the
# lean body once per block.
#
# Measured on the 2-core AMD EPYC (Zen 4) KVM guest at ~3.69 GHz (clock
# taken from a dependent-add loop; no PMU in the guest), 16 KiB in-place
# calls, best of 3000 single calls, cycles/byte:
#
#   kernel                  ECB    CTR    CBC-dec  CFB-dec  CBC-enc  OFB
#   gfni-avx2   (24 blk)    1.66   1.64   1.66     1.69     20.1     20.1
#   sm4-c (src/sm4.c, -O3)  9.6    9.6    9.8      9.7      23.8     24.1
#   OpenSSL 3.0 default     27.5   31.1   27.8     27.8     29.9     29.5
#
# TSC ticks (2.6 GHz) per short call, in place, best of 6000:
#
#   blocks                 1      4      8      16
#   gfni-avx2    ECB       230    295    294    477
#                CTR       217    217    247    428
#
# On the 2-core AMD EPYC family 26 model 2 (Zen 5 class) KVM guest, 16 KiB
# in-place calls, best of 2000, TSC ticks (2.6 GHz, about 1.1 core cycles a
# tick) per byte: CTR 1.22, GCM 1.34 (both directions), XTS 1.28-1.30,
# CCM 14.7 encrypting and 15.1 decrypting.  Serial modes at 16 KiB: CBC-enc
# and OFB 13.8 TSC ticks a byte (Zen 4).

use strict;
use warnings;
use FindBin qw($Bin);
use lib "$Bin/../util/perlasm";
use x86_64;
use sm4_x86_64;

x86_64::setup(@ARGV);

my $code = sm4_rodata(qw(bswap rol8 rol16 rol24 ctr_idx_y ctr_idx_x didx bias aff1_y aff2_y))
    . gf_rodata() . xts_rodata();

# GFNI + AVX2 tier (AVX2 and the VEX forms of GFNI).
#
# Only 16 vector registers: the main pass keeps 24 blocks in flight (three
# groups in ymm0..11) because the round is latency-bound with fewer; round
# temps ymm12..14 are shared by the groups (renaming keeps them
# independent), ymm15 holds the round key; every other constant is a memory
# operand.  No rotate instruction: rol by 8/16/24 is a byte shuffle and
# L(t) = t ^ rol24(t) ^ rol2(t ^ rol8(t) ^ rol16(t)).
my ($VT, $VA, $VB, $VRK) = (12, 13, 14, 15);

sub a_data { my ($g) = @_; return map { 4 * $g + $_ } 0 .. 3; }

sub a_round {
    my ($w, $X) = @_;
    my ($x0, $x1, $x2, $x3) = map { R($w, $_) } @$X;
    my ($t, $a, $b, $rk) = map { R($w, $_) } $VT, $VA, $VB, $VRK;
    return <<"EOT";
	vpxor	$x2,$x1,$t
	vpxor	$rk,$t,$t
	vpxor	$x3,$t,$t
	vgf2p8affineqb	\$0x65,.Lsm4_aff1_y(%rip),$t,$t
	vgf2p8affineinvqb	\$0xd3,.Lsm4_aff2_y(%rip),$t,$t
	vpshufb	.Lsm4_rol8(%rip),$t,$a
	vpshufb	.Lsm4_rol16(%rip),$t,$b
	vpxor	$b,$a,$a
	vpxor	$t,$a,$a
	vpshufb	.Lsm4_rol24(%rip),$t,$b
	vpxor	$t,$x0,$x0
	vpxor	$b,$x0,$x0
	vpslld	\$2,$a,$b
	vpsrld	\$30,$a,$a
	vpxor	$b,$x0,$x0
	vpxor	$a,$x0,$x0
EOT
}

# Same contract as e_core: raw entry and "_t" entry; chunk k of group g
# comes back in register 4g+3-k.
sub a_core {
    my ($w, $G) = @_;
    my $name = ".Lsm4_avx2_core_$w$G";
    my $s = local_function_begin($name);
    my ($t1, $t2) = map { R($w, $_) } $VA, $VB;
    for my $g (0 .. $G - 1) {
        my @d = map { R($w, $_) } a_data($g);
        $s .= "\tvpshufb\t.Lsm4_bswap(%rip),$_,$_\n" for @d;
        $s .= transpose(@d, $t1, $t2);
    }
    $s .= "${name}_t:\n";
    my @X = map { [ a_data($_) ] } 0 .. $G - 1;
    my $rk = R($w, $VRK);
    for my $i (0 .. 31) {
        $s .= "\tvpbroadcastd\t" . (4 * $i) . "(%rdi),$rk\n";
        for my $g (0 .. $G - 1) {
            $s .= a_round($w, $X[$g]);
            push @{ $X[$g] }, shift @{ $X[$g] };
        }
    }
    for my $g (0 .. $G - 1) {
        my @d = map { R($w, $_) } reverse a_data($g);
        $s .= transpose(@d, $t1, $t2);
        $s .= "\tvpshufb\t.Lsm4_bswap(%rip),$_,$_\n" for @d;
    }
    $s .= "\tret\n" . local_function_end($name);
    return $s;
}

$code .= a_core('y', 3) . a_core('y', 2);
$code .= lean_body('avx2', $_) . lean_core('avx2', $_) for qw(x y);

# Saves the last input block of the pass (the next chaining value) in
# %rax:%r11 before any store can overwrite it in place.
sub save_last_block {
    my ($masked, $P) = @_;
    if ($masked) {
        return <<'EOT';
	mov	%rcx,%rax
	shl	$4,%rax
	mov	-16(%rsi,%rax),%r11
	mov	-8(%rsi,%rax),%rax
EOT
    }
    my ($o0, $o1) = (16 * ($P - 1), 16 * ($P - 1) + 8);
    return "\tmov\t$o0(%rsi),%r11\n\tmov\t$o1(%rsi),%rax\n";
}

sub store_iv {
    return "\tmov\t%r11,(%r8)\n\tmov\t%rax,8(%r8)\n";
}


# Tail masks: vpmaskmovd (faults are suppressed for masked-out dwords);
# dword d of the pass is live when 4 * blocks > d.  LIM = 4 * blocks is
# rebuilt from %rcx whenever needed, so no register is held across a core.
sub a_lim {
    my ($w) = @_;
    my $l = R($w, $VRK);
    return "\tvmovd\t%ecx,%xmm$VRK\n\tvpbroadcastd\t%xmm$VRK,$l\n"
        . "\tvpslld\t\$2,$l,$l\n";
}

sub a_pass {
    my ($mode, $w, $G, $masked) = @_;
    my $bp = $bpr{$w};
    my $P = 4 * $bp * $G;
    my $core = ".Lsm4_avx2_core_$w$G";
    my ($mk, $tmp, $lim) = map { R($w, $_) } $VT, $VA, $VRK;
    my $s = "";
    my @chunks = map { my $g = $_; map { [ $g, $_ ] } 0 .. 3 } 0 .. $G - 1;
    my $off = sub { my ($g, $k) = @_; return 16 * $bp * (4 * $g + $k); };
    # chunk 0 of an x1 pass is block 0, which always exists: it needs no
    # mask (and a plain store forwards to the next call's plain load)
    my $is_masked = sub {
        my ($g, $k) = @_;
        return $masked && $g == $G - 1 && ($w ne 'x' || $G > 1 || $k > 0);
    };
    # load of $o(%rsi) into $r; $c is the chunk whose mask applies
    my $load = sub {
        my ($g, $k, $o, $r) = @_;
        return "\tvmovdqu\t$o(%rsi),$r\n" unless $is_masked->($g, $k);
        my $m = 4 * $off->($g, $k) / 16;
        return "\tvpcmpgtd\t.Lsm4_didx+" . (4 * $m) . "(%rip),$lim,$mk\n"
            . "\tvpmaskmovd\t$o(%rsi),$mk,$r\n";
    };
    my $store = sub {
        my ($g, $k, $o, $r) = @_;
        return "\tvmovdqu\t$r,$o(%rdx)\n" unless $is_masked->($g, $k);
        my $m = 4 * $off->($g, $k) / 16;
        return "\tvpcmpgtd\t.Lsm4_didx+" . (4 * $m) . "(%rip),$lim,$mk\n"
            . "\tvpmaskmovd\t$r,$mk,$o(%rdx)\n";
    };
    my $chain0 = sub {
        my ($dst) = @_;
        return "\tvmovdqu\t(%r8),$dst\n" if $w eq 'x';
        my $x = $dst =~ s/ymm/xmm/r;
        return "\tvmovdqu\t(%r8),$x\n\tvinserti128\t\$1,(%rsi),$dst,$dst\n";
    };

    my ($gcm, $xts) = ($mode eq 'gcm', $mode =~ /^xts/);
    if ($mode eq 'ctr' || $gcm) {
        # counter words (big-endian word 0 first) are stored at 0..12(%rsp),
        # word 3 biased by 2^31 at 16(%rsp) so that a signed compare finds
        # the unsigned wrap; a carry moves on while the next word wraps to 0
        $s .= <<'EOT';
	mov	%r10d,12(%rsp)
	mov	%r10d,%eax
	xor	$0x80000000,%eax
	mov	%eax,16(%rsp)
	mov	%r10,%rax
	shr	$32,%rax
	mov	%eax,8(%rsp)
	mov	%r9d,4(%rsp)
	mov	%r9,%rax
	shr	$32,%rax
	mov	%eax,(%rsp)
EOT
        my ($t, $c) = map { R($w, $_) } $VT, $VA;
        for my $g (0 .. $G - 1) {
            my ($x0, $x1, $x2, $x3) = map { R($w, $_) } a_data($g);
            my $io = 4 * 4 * $bp * $g;
            if ($gcm) {
                # word 3 alone counts, mod 2^32
                $s .= "\tvpbroadcastd\t12(%rsp),$x3\n"
                    . "\tvpaddd\t.Lsm4_ctr_idx_$w+$io(%rip),$x3,$x3\n";
                $s .= "\tvpbroadcastd\t" . (4 * $_) . "(%rsp),"
                    . R($w, 4 * $g + $_) . "\n" for 0 .. 2;
                next;
            }
            $s .= <<"EOT";
	vpbroadcastd	12(%rsp),$x3
	vpaddd	.Lsm4_ctr_idx_$w+$io(%rip),$x3,$x3
	vpbroadcastd	.Lsm4_bias(%rip),$t
	vpxor	$x3,$t,$t
	vpbroadcastd	16(%rsp),$c
	vpcmpgtd	$t,$c,$c
	vpbroadcastd	8(%rsp),$x2
	vpsubd	$c,$x2,$x2
	vpxor	$t,$t,$t
	vpcmpeqd	$t,$x2,$t
	vpand	$t,$c,$c
	vpbroadcastd	4(%rsp),$x1
	vpsubd	$c,$x1,$x1
	vpxor	$t,$t,$t
	vpcmpeqd	$t,$x1,$t
	vpand	$t,$c,$c
	vpbroadcastd	(%rsp),$x0
	vpsubd	$c,$x0,$x0
EOT
        }
        $s .= "\tcall\t${core}_t\n";
        $s .= a_lim($w) if $masked;
        for my $ch (@chunks) {
            my ($g, $k) = @$ch;
            my $r = R($w, 4 * $g + 3 - $k);
            my $o = $off->($g, $k);
            if ($is_masked->($g, $k)) {
                $s .= $load->($g, $k, $o, $tmp) . "\tvpxor\t$tmp,$r,$r\n";
            } else {
                $s .= "\tvpxor\t$o(%rsi),$r,$r\n";
            }
            $s .= $store->($g, $k, $o, $r);
        }
        $s .= ctr_add($masked ? '%rcx' : $P, $gcm);
        return $s;
    }

    $s .= xts_tweaks($mode, $w, 4 * $G, $P, $masked, 'avx2') if $xts;
    $s .= a_lim($w) if $masked;
    for my $ch (@chunks) {
        my ($g, $k) = @$ch;
        my $r = R($w, 4 * $g + $k);
        my $o = $off->($g, $k);
        if ($mode eq 'cfb_dec') {
            $s .= $o == 0 ? $chain0->($r) : $load->($g, $k, $o - 16, $r);
        } else {
            $s .= $load->($g, $k, $o, $r);
        }
        # the whole tweak buffer is valid, masked lanes included
        $s .= "\tvpxor\t$o(%r12),$r,$r\n" if $xts;
    }
    $s .= save_last_block($masked, $P) if $mode ne 'ecb' && !$xts;
    $s .= "\tcall\t$core\n";
    $s .= a_lim($w) if $masked;
    my @order = $mode eq 'cbc_dec' ? reverse @chunks : @chunks;
    for my $ch (@order) {
        my ($g, $k) = @$ch;
        my $r = R($w, 4 * $g + 3 - $k);
        my $o = $off->($g, $k);
        my $m = $is_masked->($g, $k);
        if ($mode eq 'cbc_dec') {
            if ($o == 0) {
                $s .= $chain0->($tmp) . "\tvpxor\t$tmp,$r,$r\n";
            } elsif ($m) {
                $s .= $load->($g, $k, $o - 16, $tmp) . "\tvpxor\t$tmp,$r,$r\n";
            } else {
                $s .= "\tvpxor\t" . ($o - 16) . "(%rsi),$r,$r\n";
            }
        } elsif ($mode eq 'cfb_dec') {
            if ($m) {
                $s .= $load->($g, $k, $o, $tmp) . "\tvpxor\t$tmp,$r,$r\n";
            } else {
                $s .= "\tvpxor\t$o(%rsi),$r,$r\n";
            }
        } elsif ($xts) {
            $s .= "\tvpxor\t$o(%r12),$r,$r\n";
        }
        $s .= $store->($g, $k, $o, $r);
    }
    $s .= store_iv() if $mode ne 'ecb' && !$xts;
    return $s;
}

# Parallel modes: a 24-block loop, then one masked pass for the remainder.
# GCM and XTS as in the AVX-512 tier's file (GHASH: smg_ghash_vpclmul_avx2; the
# tweak buffer and TV in the aligned frame).
sub a_parallel {
    my ($mode) = @_;
    my $fn = "sm4_gfni_avx2_$mode";
    my $L = ".L${fn}";
    my $gcm = $mode =~ /^gcm_(enc|dec)$/ ? $1 : '';
    my $xts = $mode =~ /^xts/;
    my $pm = $gcm ? 'gcm' : $mode;
    my $ctr = $mode eq 'ctr' || $gcm;
    my $frame = $mode eq 'ctr' ? 24 : 0;
    my @saved = $gcm ? qw(%r12 %r13) : $xts ? qw(%r12 %rbx) : ();
    my $pass = sub {
        my ($body, $cnt) = @_;
        $cnt = "\$$cnt" unless $cnt =~ /^%/;
        return ($gcm eq 'dec' ? gh_call('%rsi', $cnt, 'vpclmul_avx2') : '') . $body
            . ($gcm eq 'enc' ? gh_call('%rdx', $cnt, 'vpclmul_avx2') : '');
    };
    my $s = function_begin($fn);
    if ($gcm) {
        $s .= "\ttest\t%r8,%r8\n\tjz\t${L}_ret\n\tmov\t8(%rsp),%rax\n";
        $s .= frame_align_begin(64, 64, @saved);
        $s .= "\tmov\t%rsi,%r12\n\tmov\t%rax,%r13\n\tmov\t%rdx,%rsi\n"
            . "\tmov\t%rcx,%rdx\n\tmov\t%r8,%rcx\n\tmov\t%r9,%r8\n";
    } else {
        $s .= "\ttest\t%rcx,%rcx\n\tjz\t${L}_ret\n";
    }
    if ($xts) {
        $s .= frame_align_begin(512, 64, @saved)
            . "\tmov\t%rsp,%r12\n\tmov\t%r12,%rbx\n"
            . xts_tv('avx2', $mode eq 'xts_gb');
    }
    $s .= frame_alloc($frame) if $frame;
    if ($ctr) {
        $s .= "\tmov\t(%r8),%r9\n\tmov\t8(%r8),%r10\n"
            . "\tbswap\t%r9\n\tbswap\t%r10\n";
    }
    $s .= "\tcmp\t\$24,%rcx\n\tjb\t${L}_tail\n";
    $s .= "${L}_loop:\n";
    $s .= $pass->(a_pass($pm, 'y', 3, 0), 24);
    $s .= <<"EOT";
	add	\$384,%rsi
	add	\$384,%rdx
	sub	\$24,%rcx
	cmp	\$24,%rcx
	jae	${L}_loop
${L}_tail:
	test	%rcx,%rcx
	jz	${L}_done
	cmp	\$16,%rcx
	ja	${L}_y3
	cmp	\$8,%rcx
	ja	${L}_y2
	cmp	\$4,%rcx
	ja	${L}_y1
EOT
    $s .= $pass->(a_pass($pm, 'x', 1, 1), '%rcx') . "\tjmp\t${L}_done\n";
    $s .= "${L}_y1:\n" . $pass->(a_pass($pm, 'y', 1, 1), '%rcx') . "\tjmp\t${L}_done\n";
    $s .= "${L}_y2:\n" . $pass->(a_pass($pm, 'y', 2, 1), '%rcx') . "\tjmp\t${L}_done\n";
    $s .= "${L}_y3:\n" . $pass->(a_pass($pm, 'y', 3, 1), '%rcx');
    $s .= "${L}_done:\n";
    if ($ctr) {
        $s .= "\tbswap\t%r9\n\tbswap\t%r10\n"
            . "\tmov\t%r9,(%r8)\n\tmov\t%r10,8(%r8)\n";
    }
    # the buffer holds the tweaks in the caller's order already
    $s .= "\tvmovdqu\t(%rbx),%xmm0\n\tvmovdqu\t%xmm0,(%r8)\n" if $xts;
    $s .= "\tvzeroupper\n";
    $s .= frame_free($frame) if $frame;
    $s .= frame_align_end(@saved) if @saved;
    $s .= "${L}_ret:\n\tret\n" . function_end($fn);
    return $s;
}

$code .= a_parallel($_) for qw(ecb ctr cbc_dec cfb_dec gcm_enc gcm_dec xts_ieee xts_gb);
$code .= serial('avx2', $_) for qw(cbc_enc cfb_enc ofb);
$code .= ccm('gfni_avx2', $_, '.Lsm4_avx2_core_x1') for qw(enc dec);
$code .= key_schedule('gfni',
    "\tvmovdqa\t.Lsm4_aff1_y(%rip),%xmm1\n\tvmovdqa\t.Lsm4_aff2_y(%rip),%xmm2\n",
    "\tvgf2p8affineqb\t\$0x65,%xmm1,%xmm0,%xmm0\n"
    . "\tvgf2p8affineinvqb\t\$0xd3,%xmm2,%xmm0,%xmm0\n");

x86_64::finish($code);
