/* SPDX-License-Identifier: MIT OR GPL-2.0-only */
/*
 * pmregs/base.h - the hand-written foundation every generated pmregs header uses.
 *
 * The include-everything entry point: each topic has its own header, and a
 * generated header includes only the ones it uses.
 *
 *   base_core.h       constants, error codes and pmregs_strerror(), bit helpers,
 *                     loads and stores, sign extension
 *   base_bitstream.h  LSB-first bit streams and packet bit vectors
 *   base_inplace.h    packets read and written in place: sign-compressed fields
 *                     straight from a capture buffer, word stores
 *   base_transport.h  ATB beats to bytes, packets kept off block boundaries
 *   base_schedule.h   scheduling requests onto exclusive resources, in the fewest passes
 *   base_cover.h      covering an address range with (address, mask) pairs
 *   base_plan.h       programming several events at once (passes)
 *   base_plan_tools.h recognising those events in control-register values again
 *   base_counter.h    counter arithmetic and time conversion
 *   base_desc.h       descriptors, printing and introspection
 *   base_tools.h      event-table and sample-record descriptors (what only tools walk)
 *   base_catalog.h    event catalogues: tables per processor model, lookups, perf values
 *   base_catalog_parse.h  event requests in Intel's, libpfm4's and perf's syntaxes; CPUID signatures
 *
 * Nothing here allocates, keeps state or calls the C library, so the headers
 * work in a kernel, in a freestanding build and in user space alike.
 */
#ifndef PMREGS_BASE_H
#define PMREGS_BASE_H

#include "base_core.h"
#include "base_bitstream.h"
#include "base_inplace.h"
#include "base_transport.h"
#include "base_schedule.h"
#include "base_cover.h"
#include "base_plan.h"
#include "base_plan_tools.h"
#include "base_counter.h"
#include "base_desc.h"
#include "base_tools.h"
#include "base_catalog.h"
#include "base_catalog_parse.h"

#endif /* PMREGS_BASE_H */
