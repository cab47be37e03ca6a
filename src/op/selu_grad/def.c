/* The SeluGrad op definition as data (docs/contract.md, "Op definition"; ops-nn's
   selu_grad_def.cpp). */
#include "selugrad/selugrad_graph.h"

static const char *const sg_def_inputs[] = {"gradients", "outputs"};
static const char *const sg_def_outputs[] = {"y"};
static const selugrad_dtype sg_def_dtypes[] = {SELUGRAD_FLOAT16, SELUGRAD_FLOAT, SELUGRAD_BF16,
                                               SELUGRAD_INT32,   SELUGRAD_INT8,  SELUGRAD_UINT8};

static const selugrad_op_def sg_def = {
    "SeluGrad",
    sizeof sg_def_inputs / sizeof sg_def_inputs[0],
    sg_def_inputs,
    sizeof sg_def_outputs / sizeof sg_def_outputs[0],
    sg_def_outputs,
    0,
    sizeof sg_def_dtypes / sizeof sg_def_dtypes[0],
    sg_def_dtypes,
    "ND",
};

const selugrad_op_def *selugrad_op_def_get(void) {
    return &sg_def;
}
