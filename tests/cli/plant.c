/*
 * Test helper for verify_plant.cmake, independent of the CLI's own IO code:
 *   sg_cli_plant inputs DTYPE N G.npy O.npy   writes two random 1-D .npy inputs
 *   sg_cli_plant flip FILE.npy INDEX BIT [INDEX BIT]...  flips bit BIT of element INDEX in
 *                                             place, for each pair given
 *   sg_cli_plant retag FILE.npy               relabels a '<f2' file as '<u2' (16-bit bit
 *                                             patterns, which read as bfloat16), data unchanged
 * DTYPE is f16, f32 or s8. Values are drawn so that both branches of SeluGrad occur.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static size_t elem_size(const char *dt) {
    return dt[0] == 's' ? 1 : (dt[1] == '1' ? 2 : 4);
}

static const char *descr(const char *dt) {
    return dt[0] == 's' ? "|i1" : (dt[1] == '1' ? "<f2" : "<f4");
}

static int write_npy(const char *path, const char *dt, size_t n, uint64_t seed) {
    FILE *f = fopen(path, "wb");
    if (!f) return 1;
    char h[128];
    int len = snprintf(h, sizeof h, "{'descr': '%s', 'fortran_order': False, 'shape': (%zu,), }",
                       descr(dt), n);
    while ((10 + len + 1) % 64 != 0) h[len++] = ' ';
    h[len++] = '\n';
    unsigned char pre[10] = {0x93,
                             'N',
                             'U',
                             'M',
                             'P',
                             'Y',
                             1,
                             0,
                             (unsigned char)(len & 0xFF),
                             (unsigned char)(len >> 8)};
    fwrite(pre, 1, 10, f);
    fwrite(h, 1, (size_t)len, f);
    for (size_t i = 0; i < n; i++) {
        seed = seed * 6364136223846793005u + 1442695040888963407u;
        uint32_t r = (uint32_t)(seed >> 33);
        unsigned char b[4];
        if (elem_size(dt) == 1) {
            b[0] = (unsigned char)r;
        } else if (elem_size(dt) == 2) {
            /* normal fp16 in [2^-14, 2), either sign. No subnormal g: a subnormal result can be
               bit-exact and still fail the precision standard's relative bound (docs/cli.md). */
            uint16_t v = (uint16_t)((r & 0x8000u) | (0x400u + (r >> 4) % 0x3C00u));
            memcpy(b, &v, 2);
        } else { /* fp32 in (-2, 2) */
            float v = ((float)(r % 2000000u) - 1000000.0f) / 500000.0f;
            memcpy(b, &v, 4);
        }
        fwrite(b, 1, elem_size(dt), f);
    }
    return fclose(f) != 0;
}

static int flip(const char *path, long index, int bit) {
    FILE *f = fopen(path, "r+b");
    if (!f) return 1;
    unsigned char pre[10];
    if (fread(pre, 1, 10, f) != 10) return 1;
    long header = 10 + (long)(pre[8] | pre[9] << 8);
    char hdr[256] = {0};
    fread(hdr, 1, sizeof hdr - 1, f);
    size_t es = strstr(hdr, "f2") ? 2 : (strstr(hdr, "f4") ? 4 : 1);
    long at = header + index * (long)es + bit / 8;
    fseek(f, at, SEEK_SET);
    int c = fgetc(f);
    fseek(f, at, SEEK_SET);
    fputc(c ^ (1 << (bit % 8)), f);
    return fclose(f) != 0;
}

static int retag(const char *path) {
    FILE *f = fopen(path, "r+b");
    if (!f) return 1;
    char hdr[128] = {0};
    if (fread(hdr, 1, sizeof hdr - 1, f) != sizeof hdr - 1) return fclose(f), 1;
    char *at = strstr(hdr + 10, "'<f2'"); /* past the magic and lengths */
    if (!at) return fclose(f), 1;
    fseek(f, (long)(at - hdr) + 2, SEEK_SET);
    fputc('u', f);
    return fclose(f) != 0;
}

int main(int argc, char **argv) {
    if (argc == 6 && strcmp(argv[1], "inputs") == 0) {
        size_t n = (size_t)strtoull(argv[3], NULL, 10);
        return write_npy(argv[4], argv[2], n, 1) || write_npy(argv[5], argv[2], n, 2);
    }
    if (argc >= 5 && argc % 2 == 1 && strcmp(argv[1], "flip") == 0) {
        for (int i = 3; i < argc; i += 2)
            if (flip(argv[2], strtol(argv[i], NULL, 10), atoi(argv[i + 1])) != 0) return 1;
        return 0;
    }
    if (argc == 3 && strcmp(argv[1], "retag") == 0) return retag(argv[2]);
    fprintf(stderr, "usage: sg_cli_plant inputs DTYPE N G O | flip FILE INDEX BIT [INDEX BIT]... | "
                    "retag FILE\n");
    return 2;
}
