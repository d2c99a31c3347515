/* body_rounds.h on 32-bit scalars, for the implementations with scalar rounds. */
#ifndef LIBSHA_SHA256_ROUNDS_SCALAR_H
#define LIBSHA_SHA256_ROUNDS_SCALAR_H

#define OP_ADD(a, b) ((a) + (b))
#define OP_XOR(a, b) ((a) ^ (b))
#define OP_AND(a, b) ((a) & (b))
#define OP_OR(a, b) ((a) | (b))
#define OP_SHR(x, n) ((x) >> (n))
#define OP_SHL(x, n) ((x) << (n))
#include "body_rounds.h"

#endif
