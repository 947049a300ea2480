/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * Wire formats do not depend on the host: this test is built and run natively,
 * with -m32 and on a big-endian target under qemu-user, and must pass on each.
 *
 * Every expected byte string below is written out by hand from the definition
 * of the format (little-endian = least significant byte at the lowest address;
 * the bit stream is LSB-first: bit i of the stream is bit i % 8 of byte i / 8),
 * never computed by the code under test.  It also checks that the host's own
 * memory order never leaks in: a value stored by pmregs and then read back with
 * a plain memory copy matches the host's order only where the host happens to
 * agree, and the test says which host it ran on.
 */
#include <stdio.h>
#include <string.h>

#include <pmregs/tools.h>

#include "../common/check.h"

static int same(const unsigned char *a, const unsigned char *b, size_t n)
{
	return memcmp(a, b, n) == 0;
}

static void test_loads(void)
{
	static const unsigned char b[8] = { 0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef };

	CHECK(pmregs_load_le16(b) == 0x2301u);
	CHECK(pmregs_load_be16(b) == 0x0123u);
	CHECK(pmregs_load_le32(b) == 0x67452301u);
	CHECK(pmregs_load_be32(b) == 0x01234567u);
	CHECK(pmregs_load_le64(b) == 0xefcdab8967452301u);
	CHECK(pmregs_load_be64(b) == 0x0123456789abcdefu);
	CHECK(pmregs_load_le8(b + 7) == 0xefu);
	CHECK(pmregs_load_be8(b + 7) == 0xefu);
}

static void test_stores(void)
{
	static const unsigned char le[8] = { 0xef, 0xcd, 0xab, 0x89, 0x67, 0x45, 0x23, 0x01 };
	static const unsigned char be[8] = { 0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef };
	unsigned char out[8];

	memset(out, 0x55, sizeof(out));
	pmregs_store_le64(out, 0x0123456789abcdefu);
	CHECK(same(out, le, 8));
	memset(out, 0x55, sizeof(out));
	pmregs_store_be64(out, 0x0123456789abcdefu);
	CHECK(same(out, be, 8));
	memset(out, 0x55, sizeof(out));
	pmregs_store_le32(out, 0x89abcdefu);
	CHECK(same(out, le, 4) && out[4] == 0x55);
	memset(out, 0x55, sizeof(out));
	pmregs_store_be32(out, 0x01234567u);
	CHECK(same(out, be, 4) && out[4] == 0x55);
	memset(out, 0x55, sizeof(out));
	pmregs_store_le16(out, 0xcdefu);
	CHECK(same(out, le, 2) && out[2] == 0x55);
	memset(out, 0x55, sizeof(out));
	pmregs_store_be16(out, 0x0123u);
	CHECK(same(out, be, 2) && out[2] == 0x55);
}

/*
 * BTS records (Intel SDM Vol. 3B 17.4.9, "Branch Trace Store (BTS)"): the 64-bit
 * form is 24 bytes, from-address at offset 0, to-address at 8, flags at 16 with
 * bit 4 = branch predicted; the 32-bit form is 12 bytes at offsets 0, 4, 8.
 * The hardware writes them in little-endian order whatever reads them.
 */
static void test_bts_records(void)
{
	static const unsigned char rec64[24] = {
		0x78, 0x56, 0x34, 0x12, 0xff, 0x7f, 0x00, 0x00, /* from 0x00007fff12345678 */
		0x10, 0x32, 0x54, 0x76, 0x98, 0xba, 0xff, 0xff, /* to   0xffffba9876543210 */
		0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* flags: predicted (bit 4) */
	};
	static const unsigned char rec32[12] = {
		0x00, 0x10, 0x40, 0x00, /* from 0x00401000 */
		0x3c, 0x20, 0x40, 0xc0, /* to   0xc040203c */
		0x10, 0x00, 0x00, 0x00, /* flags: predicted */
	};
	struct pmregs_x86_bts_record64 r64;
	struct pmregs_x86_bts_record32 r32;
	unsigned char out[24];

	pmregs_x86_bts_record64_unpack(rec64, &r64);
	CHECK(r64.from == 0x00007fff12345678u);
	CHECK(r64.to == 0xffffba9876543210u);
	CHECK(r64.flags == 0x10u);
	CHECK(pmregs_x86_bts_record64_to_load(rec64) == 0xffffba9876543210u);
	memset(out, 0xaa, sizeof(out));
	pmregs_x86_bts_record64_pack(out, &r64);
	CHECK(same(out, rec64, 24));

	pmregs_x86_bts_record32_unpack(rec32, &r32);
	CHECK(r32.from == 0x00401000u);
	CHECK(r32.to == 0xc040203cu);
	CHECK(r32.flags == 0x10u);
	memset(out, 0xaa, sizeof(out));
	pmregs_x86_bts_record32_pack(out, &r32);
	CHECK(same(out, rec32, 12) && out[12] == 0xaa);
	CHECK(PMREGS_X86_BTS_RECORD64_SIZE == 24 && PMREGS_X86_BTS_RECORD32_SIZE == 12);
}

/* The LSB-first bit stream: fields are packed from bit 0 of byte 0 upwards. */
static void test_bitstream(void)
{
	/*
	 * 3 bits 101b, 5 bits 11001b  -> byte 0 = 11001 101b = 0xcd
	 * 12 bits 0xabc               -> byte 1 = 0xbc, low nibble of byte 2 = 0xa
	 * 40 bits 0x123456789a        -> starts at bit 20: byte 2 high nibble = 0xa,
	 *                                bytes 3..6 = 0x89 0x67 0x45 0x23, byte 7 low nibble = 0x1
	 * 4 bits 0xf                  -> byte 7 high nibble
	 */
	static const unsigned char want[8] = { 0xcd, 0xbc, 0xaa, 0x89, 0x67, 0x45, 0x23, 0xf1 };
	unsigned char buf[8];
	struct pmregs_bitwriter w;
	struct pmregs_bitreader r;
	uint64_t x = 0;

	memset(buf, 0, sizeof(buf));
	pmregs_bitwriter_init(&w, buf, sizeof(buf));
	CHECK(pmregs_bitwriter_put(&w, 3, 0x5) == PMREGS_OK);
	CHECK(pmregs_bitwriter_put(&w, 5, 0x19) == PMREGS_OK);
	CHECK(pmregs_bitwriter_put(&w, 12, 0xabc) == PMREGS_OK);
	CHECK(pmregs_bitwriter_put(&w, 40, 0x123456789au) == PMREGS_OK);
	CHECK(pmregs_bitwriter_put(&w, 4, 0xf) == PMREGS_OK);
	CHECK(same(buf, want, 8));
	CHECK(pmregs_bitwriter_put(&w, 1, 1) != PMREGS_OK); /* the buffer is full */

	pmregs_bitreader_init(&r, want, sizeof(want));
	CHECK(pmregs_bitreader_get(&r, 3, &x) == PMREGS_OK && x == 0x5);
	CHECK(pmregs_bitreader_get(&r, 5, &x) == PMREGS_OK && x == 0x19);
	CHECK(pmregs_bitreader_get(&r, 12, &x) == PMREGS_OK && x == 0xabc);
	CHECK(pmregs_bitreader_get(&r, 40, &x) == PMREGS_OK && x == 0x123456789au);
	CHECK(pmregs_bitreader_get(&r, 4, &x) == PMREGS_OK && x == 0xf);
	CHECK(pmregs_bitreader_get(&r, 1, &x) == PMREGS_ETRUNC);
}

/*
 * A register value is a number, not bytes: IA32_PERFEVTSEL for "instructions
 * retired" (event C0H, Intel SDM Vol. 3B Table 18-1) counting in user and
 * kernel mode with EN set is 0x4300c0 (USR = bit 16, OS = bit 17, EN = bit 22,
 * Figure 18-1) on every host; its WRMSR halves are EDX = high, EAX = low.
 */
static void test_register_values(void)
{
	struct pmregs_x86_perfevtsel_fields f;
	uint64_t v;

	memset(&f, 0, sizeof(f));
	f.event_select = 0xc0;
	f.usr = 1;
	f.os = 1;
	f.en = 1;
	v = pmregs_x86_perfevtsel_pack(&f);
	CHECK(v == 0x4300c0u);
	CHECK((uint32_t)(v >> 32) == 0 && (uint32_t)v == 0x4300c0u);
	CHECK(v == (PMREGS_X86_PERFEVTSEL_EVENT_SELECT(0xc0) | PMREGS_X86_PERFEVTSEL_USR(1) |
		    PMREGS_X86_PERFEVTSEL_OS(1) | PMREGS_X86_PERFEVTSEL_EN(1)));
}

int main(void)
{
	const uint32_t probe = 0x01020304u;
	unsigned char first;

	memcpy(&first, &probe, 1);
	test_loads();
	test_stores();
	test_bts_records();
	test_bitstream();
	test_register_values();
	/* stderr: the host differs between runs whose stdout is compared */
	fprintf(stderr, "host: %s-endian, %u-bit pointers\n", first == 4 ? "little" : "big",
		(unsigned)(8 * sizeof(void *)));
	return check_done("test_byteorder");
}
