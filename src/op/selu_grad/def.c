/* The SeluGrad op definition as data (docs/contract.md, "Op definition"; ops-nn's
   selu_grad_def.cpp). */
#include "selugrad/selugrad_graph.h"

#include "../../common/dtype.h"

static const char *const sg_def_inputs[] = {"gradients", "outputs"};
static const char *const sg_def_outputs[] = {"y"};

static const selugrad_op_def sg_def = {
    "SeluGrad",     sizeof sg_def_inputs / sizeof sg_def_inputs[0],
    sg_def_inputs,  sizeof sg_def_outputs / sizeof sg_def_outputs[0],
    sg_def_outputs, 0,
    SG_DTYPE_COUNT, sg_dtype_list, /* the dtype list is in the definition's order */
    "ND",
};

const selugrad_op_def *selugrad_op_def_get(void) {
    return &sg_def;
}
