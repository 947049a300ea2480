/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * libFuzzer target for the pmregs-decode command line (examples/pmregs-decode.c,
 * built in with its main() renamed) and the stream files it reads, under ASan
 * and UBSan.
 *
 * Input: up to 8 command-line arguments separated by NUL bytes, ended by two NUL
 * bytes; whatever follows is the content of a stream file. An argument "@" or
 * "-" is replaced by that file's path, and every argument holding a '/', naming
 * an existing file or following --svg is replaced by a path in a scratch folder,
 * so no run reads or writes anything else. Its output goes to /dev/null. pmregs-decode must return one of its documented exit
 * statuses (0 to 6) and never read or write out of bounds.
 *
 *   make fuzz                      (clang -fsanitize=fuzzer,address,undefined)
 * pmregs-fuzz-runs: 3000
 * pmregs-fuzz-opt: -O0
 * pmregs-fuzz-cmp: off (edges reached in 3000 runs, seeds 1-8: 1271, 1248, 1218, 1236, 1219, 1216,
 *   1209, 1227 with it, 1222, 1243, 1242, 1235, 1214, 1262, 1248, 1242 without; the run 1.6-2.3 s
 *   CPU with it, 1.0-1.3 s without)
 * pmregs-fuzz-share: tools
 */
#ifndef _DEFAULT_SOURCE /* defined first in a build shared with other targets */
#define _DEFAULT_SOURCE /* mkdtemp, access */
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* pmregs-decode's output goes to /dev/null; libFuzzer keeps the real stderr for its reports */
static FILE *fuzz_null;
#define main pmregs_decode_main
#undef stdout
#undef stderr
#define stdout fuzz_null
#define stderr fuzz_null
#define printf(...) fprintf(fuzz_null, __VA_ARGS__)
#define perror(s) ((void)(s))
#include "../../examples/pmregs-decode.c"
#undef main
#undef stdout
#undef stderr
#undef perror
#undef printf

#define REQUIRE(c) do { if (!(c)) abort(); } while (0)
#define MAXARGS 8

static char stream_path[256], svg_path[256];

static void setup(void)
{
	char dir[] = "/tmp/pmregs-fuzz-cli.XXXXXX";
	REQUIRE(mkdtemp(dir) != NULL);
	snprintf(stream_path, sizeof stream_path, "%s/stream.bin", dir);
	snprintf(svg_path, sizeof svg_path, "%s/out.svg", dir);
	fuzz_null = fopen("/dev/null", "w");
	REQUIRE(fuzz_null != NULL);
	REQUIRE(freopen("/dev/null", "r", stdin) != NULL);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, unsigned long size);
int LLVMFuzzerTestOneInput(const unsigned char *data, unsigned long size)
{
	static int ready;
	static char text[1024];
	char *argv[MAXARGS + 2];
	int argc = 1, rc, i;
	size_t pos = 0, len;
	FILE *f;

	if (!ready) {
		setup();
		ready = 1;
	}
	/* the arguments: NUL-separated, up to the first empty one */
	len = size < sizeof text - 1 ? size : sizeof text - 1;
	memcpy(text, data, len);
	text[len] = 0;
	argv[0] = (char *)"pmregs-decode";
	while (pos < len && text[pos] != 0 && argc <= MAXARGS) {
		argv[argc++] = text + pos;
		pos += strlen(text + pos) + 1;
	}
	argv[argc] = NULL;
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i - 1], "--svg") == 0 && i > 1)
			argv[i] = svg_path;
		else if (strcmp(argv[i], "@") == 0 || strcmp(argv[i], "-") == 0 || strchr(argv[i], '/') ||
			 access(argv[i], F_OK) == 0)
			argv[i] = stream_path;
	}
	/* the stream file: what follows the arguments' end */
	pos = pos < size ? pos + 1 : size;
	f = fopen(stream_path, "wb");
	REQUIRE(f != NULL);
	if (size > pos)
		REQUIRE(fwrite(data + pos, 1, size - pos, f) == size - pos);
	REQUIRE(fclose(f) == 0);

	rc = pmregs_decode_main(argc, argv);
	REQUIRE(rc >= ST_OK && rc <= ST_IDLE);
	return 0;
}
