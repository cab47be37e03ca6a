/*
 * Forms of the FP16 intrinsics that fp16_emu.h does not emulate, one per SGE_REFUSED value: each
 * must fail to compile with fp16_emu.h's message (tests/cmake/fp16_emu.cmake checks the message).
 * 1: a compare predicate other than _CMP_LT_OQ and _CMP_UNORD_Q; 2: a rounding of VCVTPH2W other
 * than to nearest even; 3: an FP16 intrinsic fp16_emu.h lacks (its arguments have the emulation's
 * type, not the compiler's __m512h).
 */
#if SGE_REFUSED == 1
__mmask32 refused(__m512h a) {
    return _mm512_cmp_ph_mask(a, a, _CMP_LE_OQ);
}
#elif SGE_REFUSED == 2
__m512i refused(__m512h a) {
    return _mm512_cvt_roundph_epi16(a, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
}
#elif SGE_REFUSED == 3
__m512h refused(__m512h a) {
    return _mm512_sub_ph(a, a);
}
#else
#error "SGE_REFUSED must be 1, 2 or 3"
#endif
