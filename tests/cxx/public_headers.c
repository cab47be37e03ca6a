/*
 * Every public header in one program, built as C11 and (public_headers.cpp) as C++11 with
 * -Wall -Wextra -Wpedantic, linked against the shared library: each function used here must be
 * exported. It checks what the calls give, and exits 1 on the first difference.
 */
#include "acl/acl.h"
#include "acl/acl_base.h"
#include "acl/acl_rt.h"
#include "aclnn/acl_meta.h"
#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_selu.h"
#include "aclnnop/aclnn_selu_backward.h"
#include "selugrad/selugrad.h"
#include "selugrad/selugrad_graph.h"

#include <stdio.h>
#include <string.h>

static int failures;

static void expect(int ok, const char *what) {
    if (!ok) {
        printf("FAIL %s\n", what);
        failures++;
    }
}

int main(void) {
    expect(selugrad_set_max_isa(SELUGRAD_ISA_SCALAR) == SELUGRAD_OK, "set_max_isa(scalar)");
    expect(selugrad_get_max_isa() == SELUGRAD_ISA_SCALAR, "get_max_isa");
    expect(strcmp(selugrad_kernel_name(SELUGRAD_FLOAT), "f32_selugrad__scalar") == 0,
           "scalar kernel under the scalar cap");
    expect(selugrad_set_max_isa((selugrad_isa)7) == SELUGRAD_ERR_BAD_ARGUMENT, "bad cap refused");
    expect(strcmp(selugrad_isa_name(SELUGRAD_ISA_ALL), "all") == 0, "isa name");
    expect(selugrad_set_max_isa(SELUGRAD_ISA_ALL) == SELUGRAD_OK, "set_max_isa(all)");
    selugrad_kernel_info info;
    expect(selugrad_kernel_count() > 0 && selugrad_kernel_get(0, &info) == SELUGRAD_OK &&
               info.name != NULL,
           "kernel list");
    expect(selugrad_op_def_get()->num_dtypes == 6, "op definition");
    /* g = 1, o = -1: 0.758099 (docs/contract.md, "The canonical example") */
    float g = 1.0f, o = -1.0f, y = 0.0f;
    expect(selugrad_backward(SELUGRAD_FLOAT, 1, &g, &o, &y) == SELUGRAD_OK && y > 0.758098f &&
               y < 0.758100f,
           "selugrad_backward");
    expect(aclDataTypeSize(ACL_BF16) == 2, "aclDataTypeSize");
    expect(aclnnInit(NULL) == ACLNN_SUCCESS, "aclnnInit");
    if (failures == 0) printf("public headers: every check passed\n");
    return failures ? 1 : 0;
}
