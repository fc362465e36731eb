# SPDX-License-Identifier: Apache-2.0
#
# Concurrency (test/threads.c): eight threads load smgost with nothing of
# it warm and run random operations on their own contexts, copies and
# duplicates included, each checked against a single-threaded reference.
# Under ThreadSanitizer (./Configure enable-tsan) a data race fails the run.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use SmgostTest;
use Test::More;

plan tests => 3;
program_ok('threads', ['shared'], 'threads sharing one library context');
program_ok('threads', ['separate'],
           'threads loading the provider concurrently, a library context '
           . 'each');
program_ok('threads', ['init'],
           'threads calling the module\'s OSSL_provider_init at once');
