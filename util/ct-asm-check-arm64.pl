#!/usr/bin/env perl
# SPDX-License-Identifier: Apache-2.0
#
# Static constant-time check of AArch64 assembly (GNU syntax): the
# asm/*-armv8.S files a cross or native aarch64 build generates, which
# valgrind cannot run.  The same model as util/ct-asm-check.pl for x86-64:
#
#   util/ct-asm-check-arm64.pl [--functions=REGEX] FILE.S...
#
# Every .globl function (or every label REGEX matches) is analysed with the
# code it reaches, calls (bl) included, each call in the context of its
# call site (the return addresses are part of the program point).
# A taint analysis runs to a fixed point over that graph:
#   - clean at entry: the argument registers x0..x7 (pointers, lengths) and
#     sp; tainted: every other register, the flags, the vector registers;
#   - clean: immediates, xzr, addresses built by adrp (read-only constants)
#     and loads through them, stack bytes the function itself stored clean
#     values to (at offsets from sp at entry), the public fields listed in
#     @public; tainted: every other load (key, IV, counter, data) and what
#     is computed from a tainted value, the flags such an operation sets,
#     and what a conditional select or add-with-carry reads from them;
#   - each vector register is one value, tainted if any lane is.
# It reports every
#   - memory operand whose base, index or writeback register is tainted (a
#     table indexed by data, an address selected by data);
#   - conditional branch on tainted flags (b.cond), cbz/cbnz/tbz/tbnz on a
#     tainted register, and indirect branches (br, blr) on tainted ones;
# and refuses (exit 2) any instruction it has no rule for, and raw data in
# code (.inst, .byte, .word), so that it never passes what it did not read.
#
# Exit status: 0 no leak, 1 leaks reported, 2 input it cannot analyse.
use strict;
use warnings;

# Memory loaded through an argument that is public: [function pattern,
# argument register, first byte, end byte, what].  GOST89_KEY.tab (the
# parameter set's tables, public) and GOST89_KEY.big_endian (src/gost89.h;
# src/gost89_arm.c asserts the offsets); KUZNYECHIK_KEY.decrypt, the
# direction (src/kuznyechik.h; src/kuznyechik_arm.c asserts it).
my @public = (
    [ qr/^gost89_/, 'x0', 128, 144, 'GOST89_KEY.tab, GOST89_KEY.big_endian' ],
    [ qr/^kuznyechik_/, 'x0', 160, 164, 'KUZNYECHIK_KEY.decrypt' ],
);

my $roots_re;
if (@ARGV && $ARGV[0] =~ /^--functions=(.+)$/) {
    $roots_re = qr/^(?:$1)$/;
    shift @ARGV;
}
die "usage: $0 [--functions=REGEX] FILE.S...\n" unless @ARGV;

# ---- parsing ----

my (@ins, %label_at, %globl);
for my $file (@ARGV) {
    open(my $fh, '<', $file) or die "$file: $!\n";
    my $text = 1;
    while (my $line = <$fh>) {
        chomp $line;
        $line =~ s{//.*$}{};
        $line =~ s/^\s+|\s+$//g;
        next if $line eq '';
        while ($line =~ s/^([.\w\$]+):\s*//) { $label_at{$1} = scalar @ins; }
        next if $line eq '';
        if ($line =~ /^\.(globl|global)\s+(\S+)/) { $globl{$2} = 1; next }
        if ($line =~ /^\.(text)\b/) { $text = 1; next }
        if ($line =~ /^\.(section|data|rodata|bss)\b/) {
            $text = $line =~ /^\.section\s+\.text/ ? 1 : 0;
            next;
        }
        if ($line =~ /^\.(inst|byte|word|hword|quad|long|short|dword|xword)\b/) {
            push @ins, { raw => 1, file => $file, line => $., text => $line } if $text;
            next;
        }
        next if $line =~ /^\./;    # other directives
        next unless $text;
        my ($m, $rest) = $line =~ /^(\S+)\s*(.*)$/;
        push @ins, { m => lc $m, ops => split_ops($rest), file => $file,
                     line => $., text => $line };
    }
    close $fh;
}

# Operands split at top-level commas ([..] and {..} kept whole).
sub split_ops {
    my ($s) = @_;
    my (@o, $cur, $depth);
    ($cur, $depth) = ('', 0);
    for my $c (split //, $s) {
        $depth++ if $c eq '[' || $c eq '{';
        $depth-- if $c eq ']' || $c eq '}';
        if ($c eq ',' && $depth == 0) { push @o, $cur; $cur = ''; next }
        $cur .= $c;
    }
    push @o, $cur if $cur ne '';
    s/^\s+|\s+$//g for @o;
    return \@o;
}

# "x3", "w3" -> 3; "sp", "wsp" -> 'sp'; "xzr", "wzr" -> 'zr'; else undef
sub gpr {
    my ($o) = @_;
    return 'sp' if $o =~ /^w?sp$/;
    return 'zr' if $o =~ /^[xw]zr$/;
    return $1 + 0 if $o =~ /^[xw](\d+)$/;
    return undef;
}

# vector registers named: v3.16b, q3, d3, s3, h3, b3, v3.s[1], v3.d -> 3
sub vreg {
    my ($o) = @_;
    return $1 + 0 if $o =~ /^v(\d+)(?:\.\w+)?(?:\[\d+\])?$/;
    return $1 + 0 if $o =~ /^[qdshb](\d+)$/;
    return undef;
}

# registers of a list {v0.16b-v3.16b} or {v1.s,v2.s}[3]
sub vlist {
    my ($o) = @_;
    my ($in) = $o =~ /^\{(.*)\}/ or return ();
    my @r;
    for my $part (split /,/, $in) {
        $part =~ s/^\s+|\s+$//g;
        if ($part =~ /^v(\d+)\.\w+\s*-\s*v(\d+)\.\w+$/) {
            my ($a, $b) = ($1, $2);
            push @r, ($a + $_) % 32 for 0 .. (($b - $a) % 32);
        } elsif (defined(my $v = vreg($part))) {
            push @r, $v;
        } else {
            return ();
        }
    }
    return @r;
}

# [xN], [xN,#imm], [xN,#imm]!, [xN,xM{,lsl #k}], [xN,wM,uxtw #k]; post-index
# as a following operand: #imm or xM
sub mem {
    my ($o) = @_;
    return undef unless $o =~ /^\[([^\]]*)\](!?)$/;
    my ($in, $pre) = ($1, $2);
    my @p = map { s/^\s+|\s+$//gr } split /,/, $in;
    my $base = gpr($p[0]);
    return undef unless defined $base;
    my %m = (base => $base, pre => $pre ne '', off => 0);
    if (@p > 1) {
        if ($p[1] =~ /^#(-?(?:0x[0-9a-f]+|\d+))$/i) { $m{off} = $1 =~ /^-?0x/i ? hex($1) : $1 + 0 }
        elsif ($p[1] =~ /^:lo12:/) { $m{lo12} = 1 }
        elsif (defined(my $r = gpr($p[1]))) { $m{index} = $r }
        else { return undef }
    }
    return \%m;
}

# ---- the roots ----

my @roots;
{
    my @r = defined $roots_re ? grep { /$roots_re/ } keys %label_at : keys %globl;
    push @roots, grep { defined $label_at{$_} } sort @r;
}

# ---- the analysis ----
#
# A state: gp => [kind x0..x30, 'sp' => kind]; kinds 'C' clean, 'T'
# tainted, 'R' a pointer into read-only constants, 'K' the argument of
# @public as passed, 'S:N' sp-relative pointer N bytes from sp at entry;
# v => [C|T x32]; fl => C|T; stk => { offset => 1 for a clean byte }.

my $report;
my @refused;

sub tainted { my ($k) = @_; return defined $k && $k eq 'T' }
sub joink {
    my ($a, $b) = @_;
    return $a if $a eq $b;
    return 'T' if $a eq 'T' || $b eq 'T';
    return 'C';        # two different clean kinds: clean, nothing more known
}

sub st_copy {
    my ($s) = @_;
    return { gp => { %{ $s->{gp} } }, v => [ @{ $s->{v} } ], fl => $s->{fl},
             stk => { %{ $s->{stk} } } };
}

sub st_join {
    my ($a, $b) = @_;    # into a; returns whether a changed
    my $ch = 0;
    for my $r (keys %{ $b->{gp} }) {
        my $j = joink($a->{gp}{$r} // 'T', $b->{gp}{$r});
        $ch ||= $j ne ($a->{gp}{$r} // '');
        $a->{gp}{$r} = $j;
    }
    for my $r (0 .. 31) {
        my $j = ($a->{v}[$r] eq 'T' || $b->{v}[$r] eq 'T') ? 'T' : 'C';
        $ch ||= $j ne $a->{v}[$r];
        $a->{v}[$r] = $j;
    }
    my $f = ($a->{fl} eq 'T' || $b->{fl} eq 'T') ? 'T' : 'C';
    $ch ||= $f ne $a->{fl};
    $a->{fl} = $f;
    for my $o (keys %{ $a->{stk} }) {
        next if $b->{stk}{$o};
        delete $a->{stk}{$o};
        $ch = 1;
    }
    return $ch;
}

sub g { my ($s, $r) = @_; return 'C' if $r eq 'zr'; return $s->{gp}{$r} // 'T' }
sub setg { my ($s, $r, $k) = @_; $s->{gp}{$r} = $k unless $r eq 'zr' }

sub flag {
    my ($i, $why) = @_;
    $report->($i, $why) if $report;
}

# Kind of the value of GP operand o (a register or an immediate).
sub opk {
    my ($s, $o) = @_;
    return 'C' if $o =~ /^#/ || $o =~ /^(?:lsl|lsr|asr|ror|uxt[bhwx]|sxt[bhwx])\b/;
    my $r = gpr($o);
    return defined $r ? g($s, $r) : undef;
}

# The address of memory operand m (and its post-index p): flags a tainted
# base, index or writeback register; returns the address kind.
sub address {
    my ($s, $i, $m, $post) = @_;
    my $b = g($s, $m->{base});
    flag($i, "address uses tainted " . ($m->{base} eq 'sp' ? 'sp' : "x$m->{base}")) if tainted($b);
    if (defined $m->{index}) {
        flag($i, "address uses tainted index x$m->{index}") if tainted(g($s, $m->{index}));
    }
    if (defined $post && $post !~ /^#/) {
        my $r = gpr($post);
        flag($i, "writeback by tainted x$r") if defined $r && tainted(g($s, $r));
    }
    return $b;
}

# After the access: writeback of the base (pre-index or post-index).
sub writeback {
    my ($s, $m, $post) = @_;
    return unless $m->{pre} || defined $post;
    my $b = g($s, $m->{base});
    my $delta = $m->{pre} ? $m->{off} : defined $post && $post =~ /^#(-?\d+)$/ ? $1 : undef;
    if ($b =~ /^S:(-?\d+)$/ && defined $delta) { setg($s, $m->{base}, 'S:' . ($1 + $delta)) }
    elsif (defined $post && $post !~ /^#/) { setg($s, $m->{base}, joink($b, g($s, gpr($post)))) }
    elsif ($b eq 'K') { setg($s, $m->{base}, 'C') }
}

# The stack offset addressed, if known.
sub stack_off {
    my ($s, $m) = @_;
    my $b = g($s, $m->{base});
    return undef unless $b =~ /^S:(-?\d+)$/ && !defined $m->{index};
    return $1 + ($m->{post_only} ? 0 : $m->{off});
}

# Kind of a load of $size bytes at m (before writeback).
sub load_kind {
    my ($s, $m, $size, $fn) = @_;
    my $b = g($s, $m->{base});
    return 'C' if $b eq 'R';
    my $a = stack_off($s, $m);
    if (defined $a) {
        for my $k (0 .. $size - 1) { return 'T' unless $s->{stk}{ $a + $k } }
        return 'C';
    }
    if ($b eq 'K' && !defined $m->{index}) {
        for my $p (@public) {
            next unless $fn =~ $p->[0] && $p->[1] eq 'x' . $m->{base};
            return 'C' if $m->{off} >= $p->[2] && $m->{off} + $size <= $p->[3];
        }
    }
    return 'T';
}

sub store_kind {
    my ($s, $m, $size, $k) = @_;
    my $a = stack_off($s, $m);
    if (defined $a) {
        for my $j (0 .. $size - 1) {
            if ($k eq 'T') { delete $s->{stk}{ $a + $j } } else { $s->{stk}{ $a + $j } = 1 }
        }
    } elsif (g($s, $m->{base}) =~ /^S/) {
        # a stack pointer at an unknown offset: forget the frame if tainted
        $s->{stk} = {} if $k eq 'T';
    }
}

# bytes of a GP or vector register operand
sub regsize {
    my ($o) = @_;
    return 8 if $o =~ /^x/;
    return 4 if $o =~ /^w/;
    return { q => 16, d => 8, s => 4, h => 2, b => 1 }->{ substr($o, 0, 1) } // 16;
}

my %gp3 = map { $_ => 1 } qw(add sub orr eor and bic orn eon lsl lsr asr ror mul madd msub
                             udiv sdiv extr lslv lsrv asrv rorv adds subs ands bics);
my %gp1 = map { $_ => 1 } qw(mov mvn neg rev rev16 rev32 clz rbit uxtb uxth uxtw sxtb sxth sxtw
                             movz movk movn);
my %setflags = map { $_ => 1 } qw(adds subs ands bics cmp cmn tst);
my %vec_rmw = map { $_ => 1 } qw(bif bit bsl sri sli tbx sm4e sm3tt1a sm3tt1b sm3tt2a
                                 sm3tt2b sm3partw1 sm3partw2 ins mla mls pmull2 aese aesd
                                 sm4ekey sha256h sha256h2 sha256su1);
my %vec_ops = map { $_ => 1 } qw(eor orr and bic add sub tbl ushr sshr shl ext trn1 trn2 zip1
                                 zip2 uzp1 uzp2 rev32 rev64 rev16 pmull cmhi cmtst cmeq cmge cmgt
                                 cmhs not mvn dup sm3ss1 sm4ekey aesmc aesimc ushl sshl
                                 xtn uxtl mov);

# One instruction: the state after it; control flow handled by the caller.
sub step {
    my ($s, $i, $fn) = @_;
    if ($i->{raw}) { push @refused, "$i->{file}:$i->{line}: data in code: $i->{text}"; return }
    my ($m, @o) = ($i->{m}, @{ $i->{ops} });
    return if $m eq 'hint' || $m eq 'nop' || $m =~ /^(?:paciasp|autiasp|bti)$/;
    # control flow: checks only (edges elsewhere)
    if ($m =~ /^b\.\w+$/ || $m eq 'bcc' || $m eq 'bcs') {
        flag($i, "branch on tainted flags") if $s->{fl} eq 'T';
        return;
    }
    if ($m eq 'cbz' || $m eq 'cbnz' || $m eq 'tbz' || $m eq 'tbnz') {
        flag($i, "branch on tainted $o[0]") if tainted(opk($s, $o[0]));
        return;
    }
    if ($m eq 'br' || $m eq 'blr') {
        flag($i, "indirect branch through tainted $o[0]") if tainted(opk($s, $o[0]));
        return;
    }
    return if $m eq 'b' || $m eq 'bl' || $m eq 'ret';
    if ($m eq 'adrp') { setg($s, gpr($o[0]), 'R'); return }
    # loads and stores
    if ($m =~ /^(ldr|ldur|ldrb|ldrh|ldrsw|ldp|str|stur|strb|strh|stp|ld1|ld1r|ld2|ld2r|ld3|ld3r|ld4|ld4r|st1|st2|st3|st4)$/) {
        my $is_st = $m =~ /^st/;
        my @regs = $m =~ /^(?:ld|st)[1-4]/ ? () : ($m =~ /p$/ ? @o[0, 1] : ($o[0]));
        my $mi = $m =~ /^(?:ld|st)[1-4]/ ? 1 : $m =~ /p$/ ? 2 : 1;
        my $mo = mem($o[$mi]);
        my $post = $o[ $mi + 1 ];
        unless ($mo) { push @refused, "$i->{file}:$i->{line}: no rule for the operand of '$i->{text}'"; return }
        $mo->{post_only} = 0;
        address($s, $i, $mo, $post);
        if ($m =~ /^(?:ld|st)([1-4])(r?)$/) {
            my @v = vlist($o[0]);
            unless (@v) { push @refused, "$i->{file}:$i->{line}: no rule for the list of '$i->{text}'"; return }
            my $lane = $o[0] =~ /\]$/;
            my $bytes = 0;
            for my $r (@v) { $bytes += $lane ? ($o[0] =~ /\.d\b/ ? 8 : $o[0] =~ /\.s\b/ ? 4 : $o[0] =~ /\.h\b/ ? 2 : 1) : ($o[0] =~ /\.(?:16b|8h|4s|2d)/ ? 16 : 8) }
            if ($is_st) {
                my $k = (grep { $s->{v}[$_] eq 'T' } @v) ? 'T' : 'C';
                store_kind($s, $mo, $bytes, $k);
            } else {
                my $k = load_kind($s, $mo, $2 ? 4 : $bytes, $fn);
                for my $r (@v) { $s->{v}[$r] = $lane ? ($s->{v}[$r] eq 'T' || $k eq 'T' ? 'T' : 'C') : $k }
            }
        } else {
            my $sz = regsize($regs[0]);
            if ($is_st) {
                my $off = 0;
                for my $r (@regs) {
                    my $k = defined(gpr($r)) ? (g($s, gpr($r)) =~ /^[CRKS]/ ? 'C' : 'T')
                        : $s->{v}[ vreg($r) // 0 ] eq 'T' ? 'T' : 'C';
                    my %mm = (%$mo, off => $mo->{off} + $off);
                    store_kind($s, \%mm, $sz, $k);
                    $off += $sz;
                }
            } else {
                my $off = 0;
                for my $r (@regs) {
                    my %mm = (%$mo, off => $mo->{off} + $off);
                    my $k = load_kind($s, \%mm, $sz, $fn);
                    if (defined(my $g = gpr($r))) { setg($s, $g, $k) }
                    elsif (defined(my $v = vreg($r))) { $s->{v}[$v] = $k }
                    else { push @refused, "$i->{file}:$i->{line}: no rule for '$i->{text}'"; return }
                    $off += $sz;
                }
            }
        }
        writeback($s, $mo, $post);
        return;
    }
    my $d = $o[0] // '';
    my $dg = gpr($d);
    # general-purpose data
    if (defined $dg && !($m eq 'fmov' || $m eq 'mov' && ($o[1] // '') =~ /^v/) && !($m eq 'dup')) {
        if ($gp3{$m} || $gp1{$m} || $m =~ /^(?:cmp|cmn|tst|adc|adcs|sbc|sbcs|csel|csinc|csinv|csneg|cinc|cset|csetm|cneg)$/) {
            my @src = @o[ ($m =~ /^(?:cmp|cmn|tst)$/ ? 0 : 1) .. $#o ];
            my $k = 'C';
            my @kinds;
            for my $x (@src) {
                my $kk = opk($s, $x);
                if (!defined $kk) {
                    if ($x =~ /^:lo12:/) { $kk = 'C' }
                    elsif ($m =~ /^(?:csel|csinc|csinv|csneg|cinc|cset|csetm|cneg)$/ && $x =~ /^\w\w$/) { $kk = 'C' }
                    else { push @refused, "$i->{file}:$i->{line}: no rule for operand '$x' of '$i->{text}'"; return }
                }
                push @kinds, $kk;
                $k = 'T' if $kk eq 'T';
            }
            $k = 'T' if $m =~ /^(?:adc|adcs|sbc|sbcs|csel|csinc|csinv|csneg|cinc|cset|csetm|cneg)$/ && $s->{fl} eq 'T';
            my $fk = $k;
            if ($m =~ /^(?:cmp|cmn|tst)$/) { $s->{fl} = $fk; return }
            $s->{fl} = $fk if $setflags{$m} || $m =~ /s$/ && $m =~ /^(?:adcs|sbcs)$/;
            # kinds of pointers: a move keeps it, an offset by a clean
            # amount keeps a constant-table or stack pointer
            my $res = $k;
            if ($k ne 'T') {
                if ($m eq 'mov' && @kinds == 1) { $res = $kinds[0] }
                elsif (($m eq 'add' || $m eq 'sub') && $kinds[0] =~ /^[RS]/) {
                    my ($base) = $kinds[0] =~ /^S:(-?\d+)$/;
                    my ($imm) = ($o[2] // '') =~ /^#(\d+)$/;
                    if (defined $base && defined $imm && @o == 3) {
                        $res = 'S:' . ($m eq 'add' ? $base + $imm : $base - $imm);
                    } else {
                        $res = $kinds[0] eq 'R' ? 'R' : 'C';
                    }
                } else { $res = 'C' }
            }
            # eor x,x,x and sub x,x,x are zero
            $res = 'C' if ($m eq 'eor' || $m eq 'sub') && @o == 3 && $o[1] eq $o[2];
            setg($s, $dg, $res);
            $s->{fl} = 'C' if ($m eq 'subs') && @o == 3 && $o[1] eq $o[2];
            return;
        }
        push @refused, "$i->{file}:$i->{line}: no rule for '$m'";
        return;
    }
    # moves between the files
    if ($m eq 'fmov' || $m eq 'mov' || $m eq 'umov' || $m eq 'dup' || $m eq 'ins') {
        my ($dst, $src) = @o;
        my $srck = defined(gpr($src)) ? (tainted(g($s, gpr($src))) ? 'T' : 'C')
            : defined(vreg($src)) ? $s->{v}[ vreg($src) ] : $src =~ /^#/ ? 'C' : undef;
        unless (defined $srck) { push @refused, "$i->{file}:$i->{line}: no rule for '$i->{text}'"; return }
        if (defined(my $g = gpr($dst))) { setg($s, $g, $srck); return }
        my $v = vreg($dst);
        unless (defined $v) { push @refused, "$i->{file}:$i->{line}: no rule for '$i->{text}'"; return }
        # a lane insert keeps the other lanes
        $s->{v}[$v] = $dst =~ /\]$/ && $s->{v}[$v] eq 'T' ? 'T' : $srck;
        return;
    }
    if ($m eq 'movi' || $m eq 'mvni') { $s->{v}[ vreg($d) ] = 'C'; return }
    # vector data
    if (defined(vreg($d)) && ($vec_ops{$m} || $vec_rmw{$m})) {
        my $k = $vec_rmw{$m} ? $s->{v}[ vreg($d) ] : 'C';
        for my $x (@o[1 .. $#o]) {
            next if $x =~ /^#/;
            my @l = $x =~ /^\{/ ? vlist($x) : (vreg($x));
            unless (@l && defined $l[0]) { push @refused, "$i->{file}:$i->{line}: no rule for operand '$x' of '$i->{text}'"; return }
            $k = 'T' if grep { $s->{v}[$_] eq 'T' } @l;
        }
        $k = 'C' if $m eq 'eor' && @o == 3 && vreg($o[1]) == vreg($o[2]) && vreg($o[1]) == vreg($d) && 0;
        $k = 'C' if $m eq 'eor' && @o == 3 && $o[1] eq $o[2];
        $s->{v}[ vreg($d) ] = $k;
        return;
    }
    push @refused, "$i->{file}:$i->{line}: no rule for '$m'";
}

# Successors of instruction k under the call context ctx (the return
# addresses, innermost last, joined by ','): [index, ctx] pairs.  A call
# is analysed at each of its call sites in that site's state.
sub succs {
    my ($k, $ctx) = @_;
    my $i = $ins[$k];
    return ([ $k + 1, $ctx ]) if $i->{raw};
    my $m = $i->{m};
    my $target = sub {
        my ($l) = @_;
        return $label_at{$l} if defined $label_at{$l};
        push @refused, "$i->{file}:$i->{line}: branch to an unknown label $l";
        return ();
    };
    return map { [ $_, $ctx ] } $target->($i->{ops}[0]) if $m eq 'b';
    return map { [ $_, $ctx ] } ($k + 1, $target->($i->{ops}[-1]))
        if $m =~ /^b\./ || $m =~ /^(?:cbz|cbnz|tbz|tbnz)$/;
    if ($m eq 'bl') {
        my @c = split /,/, $ctx;
        if (@c >= 8) {
            push @refused, "$i->{file}:$i->{line}: calls nested deeper than 8";
            return ();
        }
        return map { [ $_, join(',', @c, $k + 1) ] } $target->($i->{ops}[0]);
    }
    if ($m eq 'ret') {
        my @c = split /,/, $ctx;
        return () unless @c;
        my $r = pop @c;
        return ([ $r, join(',', @c) ]);
    }
    if ($m eq 'br' || $m eq 'blr') {
        push @refused, "$i->{file}:$i->{line}: no rule for '$m' (indirect branches)";
        return ();
    }
    return ([ $k + 1, $ctx ]);
}

my $leaks = 0;
my $total = 0;
for my $root (@roots) {
    my $start = $label_at{$root};
    my %gp = map { $_ => 'T' } 0 .. 30;
    $gp{$_} = 'C' for 0 .. 7;
    $gp{sp} = 'S:0';
    for my $p (@public) { $gp{ $1 } = 'K' if $root =~ $p->[0] && $p->[1] =~ /^x(\d+)$/ }
    my %in = ("$start;" => { gp => \%gp, v => [ ('T') x 32 ], fl => 'T', stk => {} });
    my @work = ("$start;");
    my %queued = ("$start;" => 1);
    my $iter = 0;
    @refused = ();
    $report = undef;
    while (@work) {
        my $node = shift @work;
        delete $queued{$node};
        last if ++$iter > 5_000_000;
        my ($k, $ctx) = split /;/, $node, 2;
        next if $k > $#ins;
        my $s = st_copy($in{$node});
        step($s, $ins[$k], $root);
        for my $nx (succs($k, $ctx)) {
            my $n = "$nx->[0];$nx->[1]";
            next if $nx->[0] > $#ins;
            if (!$in{$n}) { $in{$n} = st_copy($s) }
            elsif (!st_join($in{$n}, $s)) { next }
            push @work, $n unless $queued{$n}++;
        }
    }
    if (@refused) {
        my %seen;
        print "REFUSED $root\n", map { "  $_\n" } grep { !$seen{$_}++ } @refused;
        exit 2;
    }
    # the report: one pass over the fixed point
    my @found;
    $report = sub { my ($i, $why) = @_; push @found, "  $i->{file}:$i->{line}: $why: $i->{text}" };
    my %seen_ins;
    for my $node (sort keys %in) {
        my ($k) = split /;/, $node;
        $seen_ins{$k} = 1;
        my $s = st_copy($in{$node});
        step($s, $ins[$k], $root);
    }
    $report = undef;
    my $n = keys %seen_ins;
    $total += $n;
    if (@found) {
        $leaks++;
        my %seen;
        print "LEAK $root\n", grep { !$seen{$_}++ } map { "$_\n" } @found;
    } else {
        print "ok $root ($n instructions)\n";
    }
}
exit($leaks ? 1 : 0);
