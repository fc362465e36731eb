/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ctgrind marks: valgrind memcheck client requests that make memory
 * undefined (secret) or defined (public), so that memcheck reports every
 * branch and address computed from a secret.  The tests mark their
 * secrets; the module marks public only what its API reveals anyway (the
 * mode layer: whether a decryption's padding was good, and its length).
 * Without <valgrind/memcheck.h> they do nothing; under no valgrind a
 * client request is a few no-op instructions.
 */
#ifndef SMGOST_CTGRIND_H
#define SMGOST_CTGRIND_H

#if defined(__has_include)
# if __has_include(<valgrind/memcheck.h>)
#  include <valgrind/memcheck.h>
#  define CT_HAVE_VALGRIND 1
# endif
#endif

#ifdef CT_HAVE_VALGRIND
# define CT_SECRET(p, n) VALGRIND_MAKE_MEM_UNDEFINED((p), (n))
# define CT_PUBLIC(p, n) VALGRIND_MAKE_MEM_DEFINED((p), (n))
# define CT_UNDER_VALGRIND() (RUNNING_ON_VALGRIND != 0)
#else
# define CT_SECRET(p, n) ((void)(p), (void)(n))
# define CT_PUBLIC(p, n) ((void)(p), (void)(n))
# define CT_UNDER_VALGRIND() 0
#endif

#endif
