#!/usr/bin/env perl
# SPDX-License-Identifier: Apache-2.0
#
# Static constant-time check of x86-64 assembly in AT&T syntax: the
# asm/*-x86_64.S files the build generates (for the kernels valgrind cannot
# run: GFNI, AVX-512, VAES; and as a second opinion on the others), or a
# compiler's -S output.
#
#   util/ct-asm-check.pl [--functions=REGEX] [--trace=FILE:LINE] FILE.S...
#
# Every .globl function (or, with --functions, every function whose name
# REGEX matches) is analysed together with the code it calls, each call in
# the context of its call site.  A taint analysis runs over the control-flow
# graph (straight-line code, branches, loops, calls, returns) to a fixed
# point:
#   - clean at entry: the argument registers rdi, rsi, rdx, rcx, r8, r9
#     and the two stack slots after them (pointers, lengths) and rsp;
#     tainted: every other register, the flags,
#     the vector and mask registers (the caller's values);
#   - clean: immediates, RIP-relative loads (read-only constants), %fs:N
#     loads (the thread's control block: the stack protector's canary, as
#     -fstack-protector emits), stack slots the function itself filled with
#     clean values, and the public fields listed in @public; tainted: every
#     other load (key, IV, counter, data) and whatever is computed from a
#     tainted value, including moves out of a vector or mask register that
#     holds one;
#   - vector and mask registers are tracked the same way, so a mask built
#     from a length stays clean and one compared out of data does not.
# It then reports every
#   - memory operand whose base or index register is tainted: a table
#     indexed by data, or an address moved out of a vector register;
#   - conditional branch on tainted flags (cmp/test of data, kortest/ktest
#     of data-derived masks, vptest of data), jrcxz/loop on a tainted rcx;
#   - masked load or store with a tainted mask (the bytes touched would
#     follow data), except a masked load of a RIP-relative constant;
#   - gather/scatter with a tainted index vector, and indirect branches;
# and it refuses (exit 2) any instruction it has no rule for, so that it
# never passes code it did not understand.
#
# Stack memory is tracked per byte at its offset from a frame base (rsp at
# entry; rsp after an instruction that sets rsp to a value the analysis
# cannot follow, such as and $-32,%rsp).  Pointers into the frame keep
# their offset, 8-byte spills keep the kind of value spilled, and a
# tainted store through a pointer of unknown target forgets the frame.
# Soundness rests on two ABI facts: argument pointers do not point into the
# kernel's own frame, and RIP-relative data is constant.
#
# Exit status: 0 no leak, 1 leaks reported, 2 input it cannot analyse.
use strict;
use warnings;

# Memory that is public although loaded through an argument: [function
# name pattern, argument register, first byte, end byte, what it is].
my @public = (
    # GOST89_KEY.tab (a pointer to the parameter set's tables, which are
    # public) and GOST89_KEY.big_endian (the byte order), for the functions
    # whose first argument is a GOST89_KEY (the assembly and portable kernels,
    # all gost89_*); src/gost89_x86.c asserts these offsets.
    [ qr/^gost89_/, 'rdi', 128, 144, 'GOST89_KEY.tab, GOST89_KEY.big_endian' ],
    # GOST89_SIDE.enc and .dec (src/gost89_x86.h), the pointers to the next
    # key's schedules, of the entries that run a side pass beside a batch
    [ qr/^gost89_avx512_\w+_side$/, 'r9', 0, 16, 'GOST89_SIDE.enc, GOST89_SIDE.dec' ],
    # KUZNYECHIK_KEY.decrypt (src/kuznyechik.h), the direction the ECB
    # entries take (src/kuznyechik_x86.c asserts the offset)
    [ qr/^kuznyechik_/, 'rdi', 160, 164, 'KUZNYECHIK_KEY.decrypt' ],
);

my ($roots_re, $trace);
while (@ARGV && $ARGV[0] =~ /^--(functions|trace)=(.+)$/) {
    if ($1 eq 'functions') { $roots_re = qr/^(?:$2)$/ } else { $trace = $2 }
    shift @ARGV;
}
die "usage: $0 [--functions=REGEX] [--trace=FILE:LINE] FILE.S...\n" unless @ARGV;

# ---- registers ----

my %gp;    # any GP register name -> [canonical 64-bit name, width in bytes]
{
    my @legacy = (
        [qw(rax eax ax al ah)], [qw(rbx ebx bx bl bh)], [qw(rcx ecx cx cl ch)],
        [qw(rdx edx dx dl dh)], [qw(rsi esi si sil)], [qw(rdi edi di dil)],
        [qw(rbp ebp bp bpl)], [qw(rsp esp sp spl)],
    );
    for my $r (@legacy) {
        my ($q, $d, $w, @b) = @$r;
        $gp{$q} = [$q, 8];
        $gp{$d} = [$q, 4];
        $gp{$w} = [$q, 2];
        $gp{$_} = [$q, 1] for @b;
    }
    for my $n (8 .. 15) {
        $gp{"r$n"} = ["r$n", 8];
        $gp{"r${n}d"} = ["r$n", 4];
        $gp{"r${n}w"} = ["r$n", 2];
        $gp{"r${n}b"} = ["r$n", 1];
    }
}
my @gp64 = qw(rax rbx rcx rdx rsi rdi rbp rsp r8 r9 r10 r11 r12 r13 r14 r15);

# Classifies "%name": (gp, canonical, width) | (vec, n, width) | (k, n).
sub reg_info {
    my ($r) = @_;
    $r =~ s/^%//;
    return ('gp', @{ $gp{$r} }) if $gp{$r};
    return ('vec', $2, { x => 16, y => 32, z => 64 }->{$1}) if $r =~ /^([xyz])mm(\d+)$/;
    return ('k', $1) if $r =~ /^k([0-7])$/;
    return ('rip') if $r eq 'rip';
    return ();
}

# ---- parsing ----

# One operand: { type => imm|reg|mem, ... } with decorations.
sub parse_operand {
    my ($s) = @_;
    my %o;
    $s =~ s/^\s+|\s+$//g;
    while ($s =~ s/\{([^{}]*)\}\s*$//) {
        my $d = $1;
        if ($d =~ /^%k([0-7])$/) { $o{mask} = $1 }
        elsif ($d eq 'z') { $o{zero} = 1 }
        elsif ($d =~ /^1to(\d+)$/) { $o{bcst} = $1 }
        else { $o{deco} = $d }
    }
    $s =~ s/\s+$//;
    if ($s =~ /^\*/) {
        $o{type} = 'indirect';
    } elsif ($s =~ /^\$/) {
        $o{type} = 'imm';
    } elsif ($s =~ /^%\w+$/) {
        my @ri = reg_info($s);
        return undef unless @ri && $ri[0] ne 'rip';
        $o{type} = 'reg';
        $o{class} = $ri[0];
        if ($ri[0] eq 'gp') { @o{qw(reg width)} = @ri[1, 2] }
        elsif ($ri[0] eq 'vec') { @o{qw(n width)} = @ri[1, 2] }
        else { $o{n} = $ri[1] }
    } elsif ($s =~ /^([^(]*)\(\s*(%\w+)?\s*(?:,\s*(%\w+)\s*(?:,\s*(\d+))?)?\s*\)$/) {
        my ($disp, $base, $index, $scale) = ($1, $2, $3, $4);
        $o{type} = 'mem';
        $disp =~ s/\s+//g;
        if (defined $base) {
            my @bi = reg_info($base);
            return undef unless @bi && ($bi[0] eq 'gp' || $bi[0] eq 'rip');
            $o{base} = $bi[0] eq 'rip' ? 'rip' : $bi[1];
        }
        if (defined $index) {
            my @ii = reg_info($index);
            return undef unless @ii && ($ii[0] eq 'gp' || $ii[0] eq 'vec');
            if ($ii[0] eq 'gp') { $o{index} = $ii[1] }
            else { $o{vindex} = $ii[1] }
        }
        if ($disp eq '') { $o{disp} = 0 }
        elsif ($disp =~ /^-?(?:0x[0-9a-f]+|\d+)$/i) { $o{disp} = $disp =~ /^(-?)0x(.*)/i ? ($1 ? -hex($2) : hex($2)) : 0 + $disp }
        else { $o{sym} = $disp }
    } elsif ($s =~ /^%fs:(0x[0-9a-f]+|\d+)$/i) {
        @o{qw(type seg)} = ('mem', 'fs');
        $o{disp} = $1 =~ /^0x(.*)/i ? hex($1) : 0 + $1;
    } elsif ($s =~ /^[.\w]+(?:@\w+)?$/) {
        $o{type} = 'label';
        $o{label} = $s;
    } else {
        return undef;
    }
    $o{text} = $s;
    return \%o;
}

sub split_operands {
    my ($s) = @_;
    my @ops;
    my ($depth, $cur) = (0, '');
    for my $c (split //, $s) {
        if ($c eq '(' || $c eq '{') { $depth++ }
        elsif ($c eq ')' || $c eq '}') { $depth-- }
        if ($c eq ',' && $depth == 0) { push @ops, $cur; $cur = ''; next }
        $cur .= $c;
    }
    push @ops, $cur if $cur =~ /\S/;
    return @ops;
}

my (@ins, %label_at, @roots, @errors);

sub parse_file {
    my ($file) = @_;
    open(my $fh, '<', $file) or die "$file: $!\n";
    my $code = 1;
    my @pending;     # labels waiting for their instruction
    my (%globl, %func);
    while (my $line = <$fh>) {
        chomp $line;
        my $where = "$file:$.";
        $line =~ s/#.*$//;
        while ($line =~ s/^\s*([.\w]+):\s*//) { push @pending, $1 if $code }
        next unless $line =~ /\S/;
        $line =~ s/^\s+|\s+$//g;
        if ($line =~ /^\.(\w+)\s*(.*)$/) {
            my ($dir, $arg) = ($1, $2);
            if ($dir eq 'text') { $code = 1 }
            elsif ($dir eq 'section') { $code = $arg =~ /^\.text/ ? 1 : 0 }
            elsif ($dir eq 'globl' || $dir eq 'global') { $globl{$arg} = 1 }
            elsif ($dir eq 'type' && $arg =~ /^([.\w]+)\s*,\s*[@%]function$/) { $func{$1} = 1 }
            elsif ($code && $dir =~ /^(byte|short|word|long|quad|value|int|ascii|asciz|string|inst|fill|zero|skip|space)$/) {
                push @errors, "$where: data in code (.$dir): cannot analyse";
            } elsif ($dir =~ /^(pushsection|popsection|previous|subsection)$/) {
                push @errors, "$where: .$dir: section switch not supported";
            }
            next;
        }
        next unless $code;
        my ($mn, $rest) = $line =~ /^(\S+)\s*(.*)$/;
        my @ops;
        for my $t (split_operands($rest)) {
            my $o = parse_operand($t);
            unless ($o) { push @errors, "$where: cannot parse operand '$t' in '$line'"; next }
            push @ops, $o;
        }
        push @ins, { mn => lc $mn, ops => \@ops, where => $where, text => $line };
        $label_at{$_} = $#ins for @pending;
        @pending = ();
    }
    close $fh;
    my @r = defined $roots_re ? grep { /$roots_re/ } keys %func : keys %globl;
    push @roots, grep { defined $label_at{$_} } sort @r;
}

# ---- abstract state ----
#
# gp: canonical register name -> kind:
#   'K'    the argument named in @public, as passed (its public fields load
#          clean)
#   'A'    another clean value derived from the arguments (pointer, length)
#   'S:N'  a pointer N bytes from the frame base; 'S' one at unknown offset
#   'C'    any other clean value
#   'T'    tainted
# vec, k: register number -> 'C' | 'T'; fl: the flags, 'C' | 'T'.
# ep: what the frame base is ('entry', or the instruction that moved rsp
# out of sight); sp: rsp's offset from it; stk: offset -> 1 for each clean
# byte; slot: offset -> kind of an 8-byte clean value stored there.

sub st_copy {
    my ($s) = @_;
    return { gp => { %{ $s->{gp} } }, vec => { %{ $s->{vec} } },
             k => { %{ $s->{k} } }, fl => $s->{fl}, ep => $s->{ep}, sp => $s->{sp},
             stk => { %{ $s->{stk} } }, slot => { %{ $s->{slot} } } };
}

sub st_key {
    my ($s) = @_;
    my $h = sub { my $x = shift; join ',', map { "$_=$x->{$_}" } sort keys %$x };
    return join '|', $h->($s->{gp}), $h->($s->{vec}), $h->($s->{k}), $s->{fl},
        $s->{ep}, $s->{sp}, join(',', sort { $a <=> $b } keys %{ $s->{stk} }),
        $h->($s->{slot});
}

sub is_ptr { return $_[0] =~ /^(?:K|A|S)/ }

sub kind_join {
    my ($a, $b) = @_;
    return $a if $a eq $b;
    return 'T' if $a eq 'T' || $b eq 'T';
    return 'A' if "$a$b" =~ /^(?:KA|AK)$/;
    return 'S' if $a =~ /^S/ && $b =~ /^S/;
    return 'C';
}

# A new frame base at rsp: the old offsets mean nothing any more.
sub rebase {
    my ($s, $id) = @_;
    $s->{ep} = $id;
    $s->{sp} = 0;
    $s->{stk} = {};
    $s->{slot} = {};
    for my $r (keys %{ $s->{gp} }) {
        $s->{gp}{$r} = 'S' if $s->{gp}{$r} =~ /^S:/;
    }
}

# Joins $b into $a at program point $id; true if $a changed.
sub st_join {
    my ($a, $b, $id) = @_;
    my $before = st_key($a);
    if ($a->{ep} ne $b->{ep} || $a->{sp} != $b->{sp}) {
        $b = st_copy($b);
        rebase($a, "join $id");
        rebase($b, "join $id");
    }
    for my $r (keys %{ $a->{gp} }) {
        $a->{gp}{$r} = kind_join($a->{gp}{$r}, $b->{gp}{$r});
    }
    for my $f (qw(vec k)) {
        for my $n (keys %{ $a->{$f} }) {
            $a->{$f}{$n} = 'T' if $b->{$f}{$n} eq 'T';
        }
    }
    $a->{fl} = 'T' if $b->{fl} eq 'T';
    for my $o (keys %{ $a->{stk} }) { delete $a->{stk}{$o} unless $b->{stk}{$o} }
    for my $o (keys %{ $a->{slot} }) {
        my $j = kind_join($a->{slot}{$o}, $b->{slot}{$o} // 'T');
        if ($j eq 'T' || $j eq 'C') { delete $a->{slot}{$o} } else { $a->{slot}{$o} = $j }
    }
    return st_key($a) ne $before;
}

sub entry_state {
    my ($fn) = @_;
    my %g = map { $_ => 'T' } @gp64;
    $g{$_} = 'A' for qw(rdi rsi rdx rcx r8 r9);
    $g{rsp} = 'S:0';
    my @pub;
    for my $p (@public) {
        next unless $fn =~ $p->[0];
        $g{ $p->[1] } = 'K';
        push @pub, $p;
    }
    # the stack arguments past the sixth (SysV: 8(%rsp) on at entry) are
    # arguments as the registers are
    my %stk = map { $_ => 1 } 8 .. 23;
    return ({ gp => \%g, vec => { map { $_ => 'T' } 0 .. 31 },
              k => { map { $_ => 'T' } 0 .. 7 }, fl => 'T', ep => 'entry', sp => 0,
              stk => \%stk, slot => { 8 => 'A', 16 => 'A' } }, \@pub);
}

# ---- transfer ----

my ($pub, $report);    # the function's public ranges; where violations go

sub flag {
    my ($i, $why) = @_;
    $report->($i, $why) if $report;
}

sub clean { return $_[0] eq 'T' ? 'T' : 'C' }

# rsp always holds 'S:sp'; this sets it after an instruction moved rsp.
sub set_rsp {
    my ($s, $kind, $i) = @_;
    if ($kind =~ /^S:(-?\d+)$/) { $s->{sp} = $1 }
    else { rebase($s, "insn $i") }
    $s->{gp}{rsp} = "S:$s->{sp}";
}

# The frame offset a memory operand addresses, or undef.
sub frame_addr {
    my ($s, $o) = @_;
    return undef if defined $o->{index} || defined $o->{vindex} || defined $o->{sym};
    return undef unless defined $o->{base} && $o->{base} ne 'rip';
    my $k = $s->{gp}{ $o->{base} };
    return $k =~ /^S:(-?\d+)$/ ? $1 + $o->{disp} : undef;
}

# Reports a tainted address register of a memory operand.
sub check_addr {
    my ($s, $i, $o, $what) = @_;
    return unless $o->{type} eq 'mem';
    for my $r (grep { defined && $_ ne 'rip' } $o->{base}, $o->{index}) {
        flag($i, "$what address uses tainted %$r") if $s->{gp}{$r} eq 'T';
    }
    flag($i, "gather/scatter index %mm$o->{vindex} is tainted")
        if defined $o->{vindex} && $s->{vec}{ $o->{vindex} } eq 'T';
}

# Kind of the value a load of $size bytes from operand $o gives.
sub load_kind {
    my ($s, $o, $size) = @_;
    return 'C' if ($o->{base} // '') eq 'rip' && !defined $o->{index};
    return 'C' if defined $o->{seg};
    my $a = frame_addr($s, $o);
    if (defined $a) {
        for my $k (0 .. $size - 1) { return 'T' unless $s->{stk}{ $a + $k } }
        return $size == 8 && $s->{slot}{$a} ? $s->{slot}{$a} : 'C';
    }
    return 'T' if defined $o->{index} || defined $o->{vindex} || defined $o->{sym};
    my $b = $o->{base} // '';
    if ($b ne '' && $s->{gp}{$b} eq 'K') {
        for my $p (@$pub) {
            return 'C' if $p->[1] eq $b && $o->{disp} >= $p->[2]
                && $o->{disp} + $size <= $p->[3];
        }
    }
    return 'T';
}

# A store of a value of kind $v.  $exact: exactly $size bytes are written,
# unmasked (only such stores make bytes clean; others can only taint).
sub store {
    my ($s, $o, $v, $size, $exact) = @_;
    my $a = frame_addr($s, $o);
    if (defined $a) {
        for my $k (-7 .. $size - 1) { delete $s->{slot}{ $a + $k } }
        for my $k (0 .. $size - 1) {
            if ($v ne 'T' && $exact) { $s->{stk}{ $a + $k } = 1 }
            elsif ($v eq 'T') { delete $s->{stk}{ $a + $k } }
        }
        $s->{slot}{$a} = $v if $exact && $size == 8 && is_ptr($v);
        return;
    }
    my $b = $o->{base} // '';
    # argument memory is not the kernel's frame
    return if $b ne '' && $b ne 'rip' && !defined $o->{index}
        && $s->{gp}{$b} =~ /^[AK]$/;
    $s->{slot} = {};
    $s->{stk} = {} if $v eq 'T';
}

# Kind of a source operand (memory: a load of $size bytes).
sub src_kind {
    my ($s, $i, $o, $size) = @_;
    return 'C' if $o->{type} eq 'imm';
    if ($o->{type} eq 'reg') {
        return $s->{gp}{ $o->{reg} } if $o->{class} eq 'gp';
        return $s->{vec}{ $o->{n} } if $o->{class} eq 'vec';
        return $s->{k}{ $o->{n} };
    }
    if ($o->{type} eq 'mem') {
        check_addr($s, $i, $o, 'load');
        return load_kind($s, $o, $size);
    }
    return 'T';
}

# Several kinds combined by arithmetic: a pointer plus a plain clean value
# stays a pointer (a frame pointer then at an unknown offset).
sub arith_kind {
    my (@k) = @_;
    return 'T' if grep { $_ eq 'T' } @k;
    my @p = grep { $_ ne 'C' } @k;
    return 'C' unless @p;
    my %h = map { (/^S/ ? 'S' : $_) => 1 } @p;
    return 'A' if !$h{S} && ($h{K} || $h{A});
    return 'S' if $h{S} && keys %h == 1 && @p == 1;
    return 'C';
}

sub set_gp {
    my ($s, $o, $kind, $i) = @_;
    my $r = $o->{reg};
    $kind = clean(kind_join($kind, $s->{gp}{$r})) if $o->{width} < 4;
    $kind = 'C' if $o->{width} == 4 && $kind ne 'T';   # not a pointer any more
    if ($r eq 'rsp') { set_rsp($s, $kind, $i); return }
    $s->{gp}{$r} = $kind;
}

# Writes $v to destination operand $d (register or memory) of $size bytes.
sub put {
    my ($s, $i, $d, $v, $size) = @_;
    if ($d->{type} eq 'mem') {
        check_addr($s, $i, $d, 'store');
        store($s, $d, $v, $size, 1);
    } else {
        set_gp($s, $d, $v, $i);
    }
}

sub imm_value {
    my ($o) = @_;
    return undef unless $o->{type} eq 'imm' && $o->{text} =~ /^\$(-?)(0x[0-9a-f]+|\d+)$/i;
    my ($neg, $num) = ($1, $2);
    my $n = $num =~ /^0x/i ? hex($num) : 0 + $num;
    return $neg ? -$n : $n;
}

sub op_size {
    my ($mn, @ops) = @_;
    for my $o (@ops) {
        return $o->{width} if $o->{type} eq 'reg' && $o->{class} eq 'gp';
    }
    return { b => 1, w => 2, l => 4, q => 8 }->{$1} if $mn =~ /([bwlq])$/;
    return 8;
}

my $cc = qr/(?:n?[ozscpeb]|n?be|n?ae|n?a|n?l|n?le|n?g|n?ge|nae|nbe|nge|nle|pe|po)/;
my $jcc = qr/^j$cc$/;

my %gp_known = map { $_ => 1 } qw(mov movabs lea add sub adc sbb and or xor cmp test
    inc dec neg not shl sal shr sar rol ror shld shrd bswap rorx shlx shrx sarx andn bzhi bextr
    movbe movzx movsx movsxd xchg imul popcnt lzcnt tzcnt);

# The general-purpose instruction a mnemonic names (size suffix dropped),
# or undef.
sub gp_base {
    my ($mn) = @_;
    my $ok = sub {
        $gp_known{ $_[0] } || $_[0] =~ /^(?:cmov|set)$cc$/ || $_[0] =~ /^mov[sz][bwl][wlq]$/;
    };
    return $mn if $ok->($mn);
    my $b = substr($mn, 0, -1);
    return $b if $mn =~ /[bwlq]$/ && $ok->($b);
    return undef;
}

# Vector instructions whose destination is also a source.
my $vec_rmw = qr/^v(?:pternlog[dq]|f[n]?m(?:add|sub|addsub|subadd)\d+\w+|permi2\w+|permt2\w+|pdpbusds?|pdpwssds?|pmadd52[lh]uq|psh[lr]dv[wdq])$/;
# Vector instructions with implicit operands the analysis does not model.
my $vec_refuse = qr/^v(?:pcmp[ei]str[im]|maskmovdqu|ldmxcsr|stmxcsr)$/;
# Vector instructions that set the flags from vector contents.
my $vec_flags = qr/^v(?:ptest|testps|testpd|u?comis[sdh])$/;
# Legacy (non-VEX) SSE instructions; the destination is also a source
# unless the instruction is one of $sse_write_only.
my $sse = qr/^(?:p(?!ush|op|ause)\w+|movdq[au]|mov[au]p[sd]|mov[dq]|movs[sd]|mov[hl]p[sd]|mov(?:hl|lh)ps|movmskp[sd]|shufp[sd]|unpck[hl]p[sd]|(?:xor|and|andn|or)p[sd]|aes\w+|pclmul\w+|sha\w+|cvt\w+)$/;
my $sse_write_only = qr/^(?:movdq[au]|mov[au]p[sd]|mov[dq]|pshuf[dhl]w?|pmov[sz]x\w+|pmovmskb|movmskp[sd]|pextr\w|cvt\w+)$/;
# Register-only forms whose result does not depend on the register.
my $zero_idiom = qr/^v?(?:p?xor\w*|xorp[sd]|psub[bwdq]|pcmpeq[bwdq]|pcmpgt[bwdq]|pandn\w*|andnp[sd])$/;

sub refuse {
    my ($in) = @_;
    push @errors, "$in->{where}: no rule for '$in->{text}'";
    return ('stop');
}

# Executes instruction $i on state $s.  Returns where control goes:
# ('next') | ('jmp', label) | ('jcc', label) | ('call', label) | ('ret') |
# ('stop').
sub transfer {
    my ($s, $i) = @_;
    my $in = $ins[$i];
    my ($mn, @o) = ($in->{mn}, @{ $in->{ops} });
    my $g = $s->{gp};

    for my $op (@o) {
        flag($i, 'indirect branch') if $op->{type} eq 'indirect';
    }
    return ('next') if $mn =~ /^(?:endbr64|nop\w?|vzeroupper|lfence)$/;
    if ($mn eq 'vzeroall') { $s->{vec}{$_} = 'C' for 0 .. 15; return ('next') }

    # -- control flow --
    if ($mn =~ /^(?:jmp|call)q?$/) {
        return ('stop') unless $o[0]{type} eq 'label';
        # -fstack-protector's handler of a smashed canary aborts
        return ('stop') if $o[0]{label} =~ /^__stack_chk_fail(?:\@PLT)?$/;
        return ($mn =~ /^jmp/ ? 'jmp' : 'call', $o[0]{label});
    }
    if ($mn =~ $jcc) {
        flag($i, 'branch on tainted flags') if $s->{fl} eq 'T';
        return ('jcc', $o[0]{label});
    }
    if ($mn =~ /^(?:jrcxz|jecxz|loop|loopn?[ez])$/) {
        flag($i, "$mn on tainted rcx") if $g->{rcx} eq 'T';
        flag($i, 'branch on tainted flags') if $mn =~ /^loopn?[ez]$/ && $s->{fl} eq 'T';
        $g->{rcx} = clean($g->{rcx}) if $mn =~ /^loop/;
        return ('jcc', $o[0]{label});
    }
    return ('ret') if $mn =~ /^retq?$/;

    # -- stack --
    if ($mn =~ /^pushq?$/) {
        my $v = src_kind($s, $i, $o[0], 8);
        $s->{sp} -= 8;
        $g->{rsp} = "S:$s->{sp}";
        store($s, { type => 'mem', base => 'rsp', disp => 0 }, $v, 8, 1);
        return ('next');
    }
    # leave: rsp from rbp, then pop rbp
    if ($mn =~ /^leaveq?$/) {
        set_rsp($s, $g->{rbp}, $i);
        my $v = load_kind($s, { type => 'mem', base => 'rsp', disp => 0 }, 8);
        $s->{sp} += 8;
        $g->{rsp} = "S:$s->{sp}";
        $g->{rbp} = $v;
        return ('next');
    }
    if ($mn =~ /^popq?$/) {
        my $v = load_kind($s, { type => 'mem', base => 'rsp', disp => 0 }, 8);
        $s->{sp} += 8;
        $g->{rsp} = "S:$s->{sp}";
        put($s, $i, $o[0], $v, 8);
        return ('next');
    }

    # -- sign extensions of rax: the value keeps its taint --
    return ('next') if $mn =~ /^(?:cltq|cdqe|cwtl|cbtw)$/;
    if ($mn =~ /^(?:cqto|cqo|cltd|cdq)$/) { $g->{rdx} = clean($g->{rax}); return ('next') }

    # -- mask registers --
    if ($mn =~ /^kmov([bwdq])$/) {
        my ($src, $dst) = @o;
        my $sz = { b => 1, w => 2, d => 4, q => 8 }->{$1};
        my $v = clean(src_kind($s, $i, $src, $sz));
        if ($dst->{type} eq 'mem') { check_addr($s, $i, $dst, 'store'); store($s, $dst, $v, $sz, 0) }
        elsif ($dst->{class} eq 'k') { $s->{k}{ $dst->{n} } = $v }
        else { set_gp($s, $dst, $v, $i) }
        return ('next');
    }
    if ($mn =~ /^k(?:and|andn|or|xor|xnor|add|not|shiftr|shiftl|unpck)\w*$/) {
        my $dst = $o[-1];
        my @src = grep { $_->{type} eq 'reg' } @o[0 .. $#o - 1];
        my $v = (grep { $s->{k}{ $_->{n} } eq 'T' } @src) ? 'T' : 'C';
        $v = 'C' if $mn =~ /^k(?:xor|xnor|andn)/ && @src == 2 && $src[0]{n} == $src[1]{n};
        $s->{k}{ $dst->{n} } = $v;
        return ('next');
    }
    if ($mn =~ /^k(?:ortest|test)[bwdq]$/) {
        $s->{fl} = (grep { $s->{k}{ $_->{n} } eq 'T' } @o) ? 'T' : 'C';
        return ('next');
    }

    # -- vector instructions (VEX, EVEX and legacy SSE) --
    my $has_vec = grep { $_->{type} eq 'reg' && $_->{class} eq 'vec' } @o;
    my $legacy = $mn !~ /^v/;
    if (!$legacy || ($mn =~ $sse && (!defined gp_base($mn) || $has_vec))) {
        return refuse($in) if $mn =~ $vec_refuse;
        if ($mn =~ $vec_flags) {
            my $v = 'C';
            for my $op (@o) { $v = 'T' if src_kind($s, $i, $op, $op->{width} // 64) eq 'T' }
            $s->{fl} = $v;
            return ('next');
        }
        if ($mn =~ /^v(?:p?maskmov[dq]|maskmovp[sd])$/) {
            # AT&T order: load "mem, mask, dst", store "src, mask, mem"
            my ($a, $m, $d) = @o;
            flag($i, 'masked memory access with a tainted mask')
                if $s->{vec}{ $m->{n} } eq 'T';
            if ($d->{type} eq 'mem') {
                check_addr($s, $i, $d, 'store');
                store($s, $d, $s->{vec}{ $a->{n} }, $a->{width}, 0);
            } else {
                my $v = src_kind($s, $i, $a, $d->{width});
                $s->{vec}{ $d->{n} } = ($v eq 'T' || $s->{vec}{ $m->{n} } eq 'T') ? 'T' : 'C';
            }
            return ('next');
        }
        my $dst = $o[-1];
        my @src = @o[0 .. $#o - 1];
        my $width = 16;
        for my $op (@o) {
            $width = $op->{width}
                if $op->{type} eq 'reg' && $op->{class} eq 'vec' && $op->{width} > $width;
        }
        my $mask = $dst->{mask};
        # Which bytes a masked access touches follows the mask.  A masked
        # load of a RIP-relative constant is exempt: its address is fixed
        # and the constant is public, whatever lanes the mask selects.
        if (defined $mask && $s->{k}{$mask} eq 'T'
            && ($dst->{type} eq 'mem'
                || grep { $_->{type} eq 'mem' && ($_->{base} // '') ne 'rip' } @src)) {
            flag($i, "masked memory access with tainted %k$mask");
        }
        my $v = 'C';
        for my $op (@src) {
            $v = 'T' if src_kind($s, $i, $op, $op->{type} eq 'mem' ? $width : 8) eq 'T';
        }
        my @rs = grep { $_->{type} eq 'reg' && $_->{class} eq 'vec' } @src;
        my $same = @rs == 2 && $rs[0]{n} == $rs[1]{n};
        $same = 1 if $legacy && @o == 2 && @rs == 1 && $dst->{type} eq 'reg'
            && ($dst->{class} // '') eq 'vec' && $rs[0]{n} == $dst->{n};
        $v = 'C' if $same && $mn =~ $zero_idiom && @src == ($legacy ? 1 : 2);
        $v = 'T' if defined $mask && $s->{k}{$mask} eq 'T';
        my $reads_dst = $mn =~ $vec_rmw
            || (defined $mask && !$dst->{zero} && $dst->{type} eq 'reg')
            || ($legacy && $mn !~ $sse_write_only && !($same && $mn =~ $zero_idiom))
            || ($legacy && $mn =~ /^movs[sd]$/ && $o[0]{type} eq 'reg');
        if ($dst->{type} eq 'mem') {
            check_addr($s, $i, $dst, 'store');
            # only whole-register moves say exactly which bytes they write
            my $sz = $mn =~ /^v?movd$/ ? 4 : $mn =~ /^v?movq$/ ? 8
                : $mn =~ /^v?mov(?:dq[au]\d*|[au]p[sd])$/ ? $src[0]{width} : undef;
            if (defined $sz && !defined $mask) { store($s, $dst, $v, $sz, 1) }
            else { store($s, $dst, $v, 64, 0) }
        } elsif ($dst->{type} eq 'reg' && $dst->{class} eq 'vec') {
            $v = 'T' if $reads_dst && $s->{vec}{ $dst->{n} } eq 'T';
            $s->{vec}{ $dst->{n} } = $v;
        } elsif ($dst->{type} eq 'reg' && $dst->{class} eq 'k') {
            $s->{k}{ $dst->{n} } = $v;
        } elsif ($dst->{type} eq 'reg' && $dst->{class} eq 'gp') {
            set_gp($s, $dst, $v, $i);
        } else {
            return refuse($in);
        }
        return ('next');
    }

    # -- general-purpose instructions --
    my $base = gp_base($mn);
    return refuse($in) unless defined $base;
    return refuse($in) if $base eq 'imul' && @o == 1;
    my $size = op_size($mn, @o);

    if ($base eq 'lea') {
        my ($m, $d) = @o;
        my $v;
        if (!defined $m->{base} || $m->{base} eq 'rip') {
            $v = defined $m->{index} ? arith_kind($g->{ $m->{index} }) : 'C';
        } elsif (defined $m->{index} || defined $m->{sym}) {
            $v = arith_kind($g->{ $m->{base} }, defined $m->{index} ? $g->{ $m->{index} } : 'C');
        } elsif ($g->{ $m->{base} } =~ /^S:(-?\d+)$/) {
            $v = 'S:' . ($1 + $m->{disp});
        } else {
            $v = arith_kind($g->{ $m->{base} }, 'C');
        }
        set_gp($s, $d, $v, $i);
        return ('next');
    }
    # movbe: a load or store that swaps the bytes (no pointer survives it)
    if ($base =~ /^(?:mov|movabs|movbe|movzx|movsx|movsxd|mov[sz][bwl][wlq])$/) {
        my ($src, $dst) = @o;
        my $v = src_kind($s, $i, $src, $base =~ /^mov(?:abs|be)?$/ ? $size : 8);
        $v = clean($v) if $base !~ /^mov(?:abs)?$/;
        put($s, $i, $dst, $v, $size);
        return ('next');
    }
    if ($base =~ /^(?:cmp|test)$/) {
        $s->{fl} = clean(arith_kind(map { src_kind($s, $i, $_, $size) } @o));
        return ('next');
    }
    if ($base =~ /^cmov/) {
        my ($src, $dst) = @o;
        my $v = arith_kind(src_kind($s, $i, $src, $size), $g->{ $dst->{reg} });
        $v = 'T' if $s->{fl} eq 'T';
        set_gp($s, $dst, clean($v), $i);
        return ('next');
    }
    if ($base =~ /^set/) {
        put($s, $i, $o[0], $s->{fl}, 1);
        return ('next');
    }
    if ($base eq 'xchg') {
        my ($a, $b) = @o;
        return ('next') if $a->{type} eq 'reg' && $b->{type} eq 'reg' && $a->{reg} eq $b->{reg};
        my $va = src_kind($s, $i, $a, $size);
        my $vb = src_kind($s, $i, $b, $size);
        put($s, $i, $a, $vb, $size);
        put($s, $i, $b, $va, $size);
        return ('next');
    }
    # The rest compute the last operand from the others and, unless the
    # form writes only, from itself.
    my $dst = $o[-1];
    my @src = @o[0 .. $#o - 1];
    my $write_only = $base =~ /^(?:rorx|shlx|shrx|sarx|andn|bzhi|bextr|popcnt|lzcnt|tzcnt)$/
        || ($base eq 'imul' && @o == 3);
    my @k = map { src_kind($s, $i, $_, $size) } @src;
    push @k, src_kind($s, $i, $dst, $size) unless $write_only;
    push @k, $s->{fl} if $base =~ /^(?:adc|sbb)$/;
    my $v = arith_kind(@k);
    # xor/sub of a register with itself is zero whatever it held
    $v = 'C' if $base =~ /^(?:xor|sub)$/ && @o == 2 && $o[0]{type} eq 'reg'
        && $dst->{type} eq 'reg' && $o[0]{reg} eq $dst->{reg};
    # adding or subtracting a constant moves a frame pointer by that much
    my $imm = @o == 2 ? imm_value($o[0]) : undef;
    if ($base =~ /^(?:add|sub)$/ && defined $imm && $dst->{type} eq 'reg'
        && $g->{ $dst->{reg} } =~ /^S:(-?\d+)$/ && $dst->{width} == 8) {
        $v = 'S:' . ($1 + ($base eq 'add' ? $imm : -$imm));
    } elsif ($base !~ /^(?:add|sub|adc|sbb|inc|dec)$/ && $v ne 'T') {
        $v = 'C';    # not a pointer any more
    }
    $s->{fl} = clean($v) unless $base =~ /^(?:rorx|shlx|shrx|sarx|bswap|not)$/;
    put($s, $i, $dst, $v, $size);
    return ('next');
}

# ---- per-function fixed point ----
#
# Calls are analysed in the context of their call site (the chain of call
# sites is part of each program point), so a subroutine's return carries
# back what its own caller had in the registers it leaves alone.

my $MAX_CALL_DEPTH = 4;

sub push_return_address {
    my ($s) = @_;
    $s->{sp} -= 8;
    $s->{gp}{rsp} = "S:$s->{sp}";
    store($s, { type => 'mem', base => 'rsp', disp => 0 }, 'C', 8, 1);
}

sub analyse {
    my ($fn) = @_;
    my ($init, $p) = entry_state($fn);
    $pub = $p;
    $report = undef;
    my $n = scalar @ins;

    # Block leaders: every label and every instruction after a transfer of
    # control; states are kept and joined there only.
    my %leader = map { $_ => 1 } values %label_at;
    for my $i (0 .. $n - 1) {
        $leader{ $i + 1 } = 1 if $ins[$i]{mn} =~ /^(?:j\w+|call|ret|loop\w*)$/;
    }

    # A program point is "CTX:INDEX", CTX the call sites joined by '/'.
    my %in_state;
    my @work;
    my %queued;
    my $propagate = sub {
        my ($ctx, $t, $st, $from) = @_;
        unless (defined $t && $t < $n) {
            push @errors, "$ins[$from]{where}: control leaves the code";
            return;
        }
        my $key = "$ctx:$t";
        if (!$in_state{$key}) { $in_state{$key} = st_copy($st) }
        elsif (!st_join($in_state{$key}, $st, $key)) { return }
        push @work, $key unless $queued{$key}++;
    };
    $propagate->('', $label_at{$fn}, $init, $label_at{$fn});
    my $steps = 0;
    while (@work) {
        my $key = shift @work;
        $queued{$key} = 0;
        my ($ctx, $i) = $key =~ /^(.*):(\d+)$/;
        my $s = st_copy($in_state{$key});
        # run the block from $i until control leaves it
        for (;;) {
            die "ct-asm-check: $fn: no fixed point\n" if ++$steps > 5_000_000;
            my ($kind, $lab) = transfer($s, $i);
            my $t = defined $lab ? $label_at{$lab} : undef;
            push @errors, "$ins[$i]{where}: unknown label $lab"
                if defined $lab && !defined $t;
            return if @errors;
            if ($kind eq 'next') {
                $i++;
                if ($i >= $n || $leader{$i}) { $propagate->($ctx, $i, $s, $i - 1); last }
                next;
            }
            last if $kind eq 'stop';
            if ($kind eq 'jmp') { $propagate->($ctx, $t, $s, $i); last }
            if ($kind eq 'jcc') {
                $propagate->($ctx, $t, $s, $i);
                $propagate->($ctx, $i + 1, $s, $i);
                last;
            }
            if ($kind eq 'call') {
                my @chain = split m{/}, $ctx;
                if (@chain >= $MAX_CALL_DEPTH || grep { $_ == $i } @chain) {
                    push @errors, "$ins[$i]{where}: calls nested too deep or recursive";
                    return;
                }
                my $c = st_copy($s);
                push_return_address($c);
                $propagate->($ctx eq '' ? $i : "$ctx/$i", $t, $c, $i);
                last;
            }
            if ($kind eq 'ret') {
                last if $ctx eq '';    # the analysed function returns
                my ($outer, $site) = $ctx =~ m{^(?:(.*)/)?(\d+)$};
                my $r = st_copy($s);
                $r->{sp} += 8;
                $r->{gp}{rsp} = "S:$r->{sp}";
                $propagate->($outer // '', $site + 1, $r, $i);
                last;
            }
        }
    }

    # Report from the fixed point: replay each block once.
    my %found;
    $report = sub {
        my ($i, $why) = @_;
        $found{"$ins[$i]{where}: $why: $ins[$i]{text}"} = $i;
    };
    for my $key (keys %in_state) {
        my ($i) = $key =~ /:(\d+)$/;
        my $s = st_copy($in_state{$key});
        for (;;) {
            print "TRACE $ins[$i]{where} $key: ", st_key($s), "\n"
                if defined $trace && $ins[$i]{where} eq $trace;
            my ($kind) = transfer($s, $i);
            last unless $kind eq 'next';
            $i++;
            last if $i >= $n || $leader{$i};
        }
    }
    $report = undef;
    return ([ sort { $found{$a} <=> $found{$b} } keys %found ], scalar keys %in_state);
}

parse_file($_) for @ARGV;
if (@errors) {
    print "ERROR $_\n" for @errors;
    exit 2;
}
my $leaky = 0;
for my $fn (@roots) {
    my ($found, $blocks) = analyse($fn);
    if (@errors) {
        print "ERROR $_\n" for @errors;
        exit 2;
    }
    if (@$found) {
        $leaky++;
        print "LEAK $fn\n";
        print "  $_\n" for @$found;
    } else {
        print "ok $fn ($blocks blocks)\n";
    }
}
print "ct-asm-check: ", scalar(@roots), " functions, $leaky with leaks\n";
exit($leaky ? 1 : 0);
