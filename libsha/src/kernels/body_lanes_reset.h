/* Undefines the parameters one include of body_lanes.h took (its vector
 * type and operations, hooks and function names), so that a file can include
 * the body again for another width. OP_ROTR, OP_XOR3, OP_CH and OP_MAJ stay:
 * a file that defines them writes them for every width at once. */
#undef VEC
#undef LANES
#undef OP_ADD
#undef OP_XOR
#undef OP_AND
#undef OP_OR
#undef OP_SHR
#undef OP_SHL
#undef V_SET1
#undef V_STOREU
#undef V_LOADU
#undef V_GATHER_BLOCK
#undef V_TAIL_BLOCK
#undef V_LOAD_STATES
#undef V_STORE_STATES
#undef V_STORE_DIGESTS
#undef MULTIWAY_D64
#undef MULTIWAY_MANY
#undef MULTIWAY_MANY_LAST
#undef MULTIWAY_MANY_WHOLE
#undef MULTIWAY_CHAINS
