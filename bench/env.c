/* Where the benchmark ran: the lines that open its text output and its CSV. */
#include <stdarg.h>
#include <string.h>

#include "bench_internal.h"
#include "core/cache.h"
#include "core/parallel.h"

static void sgb_add(char *buf, size_t len, size_t *at, const char *fmt, ...) {
    if (*at >= len) return;
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(buf + *at, len - *at, fmt, ap);
    va_end(ap);
    if (w > 0) *at += (size_t)w < len - *at ? (size_t)w : len - *at - 1;
}

void sgb_env_text(const sgb_options *opt, char *buf, size_t len) {
    size_t at = 0;
    buf[0] = '\0';
    const sg_cpu_id *id = sg_cpu_id_get();
    sgb_add(buf, len, &at, "# cpu: %s; vendor %s, family %u (0x%x), model %u (0x%x)\n",
            id->model[0] ? id->model : "unknown", id->vendor[0] ? id->vendor : "unknown",
            id->family, id->family, id->model_number, id->model_number);
    sgb_add(buf, len, &at, "# isa: this cpu runs");
    sg_isa top = SG_ISA_SCALAR;
    for (int l = SG_ISA_SCALAR; l <= SG_ISA_NEON; l++)
        if (sg_isa_supported((sg_isa)l)) {
            sgb_add(buf, len, &at, " %s", sg_isa_name((sg_isa)l));
            if (sg_isa_allowed((sg_isa)l, sg_isa_cap())) top = (sg_isa)l;
        }
    sgb_add(buf, len, &at, "; cap %s; rows:", sg_isa_name(sg_isa_cap()));
    if (opt->nisas == 0) sgb_add(buf, len, &at, " auto (dispatch, up to %s)", sg_isa_name(top));
    for (size_t i = 0; i < opt->nisas; i++)
        sgb_add(buf, len, &at, " %s", sg_isa_name(opt->isas[i]));
    const sg_caches *c = sg_caches_get();
    sgb_add(buf, len, &at,
            "\n# caches (%s): L1d %zu KiB, L2 %zu KiB, L3 %zu KiB; calls stream their stores from "
            "%zu KiB of traffic per thread\n",
            c->source, c->l1d >> 10, c->l2 >> 10, c->l3 >> 10, sg_stream_bytes(c, 1) >> 10);
    sgb_add(buf, len, &at, "# threads: rows");
    for (size_t i = 0; i < opt->nthreads; i++) sgb_add(buf, len, &at, " %u", opt->threads[i]);
    sgb_add(buf, len, &at, "; default %d; cpus available %u; split calls run on %s\n",
            selugrad_get_num_threads(), sg_cpus_available(),
            sg_parallel_hooked() ? "the host's parallel-for" : "the library's own pool");
    sgb_add(buf, len, &at, "# library: selugrad %s\n", selugrad_version());
}
