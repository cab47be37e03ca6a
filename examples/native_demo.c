/* The native API in a few lines: SeluGrad of g = 1 over a few SELU outputs, in float32. */
#include <selugrad/selugrad.h>
#include <stdio.h>

int main(void) {
    const float g[8] = {1, 1, 1, 1, 1, 1, 1, 1};
    const float o[8] = {-2, -1, 0, 1, 2, 3, -0.5f, 0.5f};
    const float expect[8] = {-0.241901f, 0.758099f, 1.050701f, 1.050701f,
                             1.050701f,  1.050701f, 1.258099f, 1.050701f};
    float y[8];
    if (selugrad_backward(SELUGRAD_FLOAT, 8, g, o, y) != SELUGRAD_OK) {
        fprintf(stderr, "selugrad_backward failed: %s\n", selugrad_last_error());
        return 1;
    }
    int fails = 0;
    printf("selugrad %s, kernel %s\n", selugrad_version(), selugrad_kernel_name(SELUGRAD_FLOAT));
    for (int i = 0; i < 8; i++) {
        float d = y[i] - expect[i];
        int ok = d < 1e-6f && d > -1e-6f;
        fails += !ok;
        printf("g=%g o=%-5g y=%.6f expected %.6f %s\n", g[i], o[i], y[i], expect[i],
               ok ? "PASS" : "FAIL");
    }
    printf("%d passed, %d failed\n", 8 - fails, fails);
    return fails != 0;
}
