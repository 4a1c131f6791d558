/* The EVM address map: where everything lies in an ECB's address space. The one
   place for these addresses: the control program (host C++, os/) maps the regions,
   guest C reaches them, and both include this header, so the guest's view is the
   host's by construction. Each region has a start and an end; the checks at the
   bottom fail the build (host and guest alike) if two regions overlap.

     0x00010000  LE anchor  one page per process, demand-zero, mapped by LE's subsystem at its first
                            reference: the stack check of LE-conforming programs (le/guest/le_stack.h)
                            compares against it with base register 0, so it must lie below 512 KB
                            (a long displacement is 20 bits, signed)
     0x00040000  le24       Language Environment storage below 16 MB (le/: BELOWHEAP, HEAP24)
     0x00100000  message    the input message (ECB block area); ECBs it creates get theirs here too
     0x01000000  image      the program image (system.image), read-only pages shared, static storage
                            per ECB: the TPF runtime, the lock and the heap from here (their
     0x01800000             static storage from here), then
     0x02000000  programs   each program (a source file) in a 64 KB slot of its own, the slot chosen
                            by a hash of its name (cmake/Guest.cmake, add_tpf_image); up to
     0x0A000000             the image area's end. The control program gives each page of the
                            area the absolute frame its address names (frames 1 to 36,863), so
                            no program's placement, virtual or absolute, depends on the others
     0x0A000000  fetched    programs LOADed from a load library (fetch/), each process its own
     0x10000000  heap31     31-bit heap area: brk and the ECB heap grow up from here (system.heap31_size)
     0x40000000  system     system storage, GETSTOR blocks
     0x50000000  data       workload.data_file (a TLS trace image), read-only in every ECB
     0x60000000  shared     system storage shared by all ECBs (system.shared_size)
     0x70000000  stacks     down from 0x7F000000: the process's own stack, thread stacks below it
    0x100000000  heap64     64-bit heap area (system.heap64_size), above the bar
  0x10100000000  system64   64-bit system storage, GETSTOR64 blocks (a batch job's storage above the
                            bar: E3's night, which at full size is larger than the system region)

   The shared area is split among its users, by offset from its start (each user's
   header checks that its structures fit its part):

     0x00000  syslog        the syslog lock, indexes and ring (tpf_syslog.h)
     0x30000  lock slots    simple locks' holder fields and statistics (simplelock.h)
     0x40000  lock nodes    the queued lock's waiter nodes (simplelock.h)
     0x50000  apps          applications' own shared structures (QTLS's request queue)

   A configuration can ask for less than a region holds (the keys' ranges keep it
   inside); the control program never maps past a region's end. */
#ifndef TPF_EVM_H
#define TPF_EVM_H

/* LE's stack anchor (le/guest/le_stack.h; issue 25, item 3). No UL: its assembler code includes them. */
#define TPF_EVM_LE_ANCHOR 0x00010000
#define TPF_EVM_LE_ANCHOR_END 0x00011000
/* LE's storage below the 16 MB line (BELOWHEAP, HEAP24: le/): its size is the most a
   process can hold there. */
#define TPF_EVM_LE24 0x00040000UL
#define TPF_EVM_LE24_END 0x00100000UL
#define TPF_EVM_MESSAGE 0x00100000UL
#define TPF_EVM_MESSAGE_END 0x01000000UL
/* The image area's numbers have no UL: the image's linker script includes them too. */
#define TPF_EVM_IMAGE 0x01000000
#define TPF_EVM_IMAGE_DATA 0x01800000
#define TPF_EVM_PROGRAMS 0x02000000
#define TPF_EVM_PROGRAM_SLOT 0x10000
#define TPF_EVM_PROGRAM_SLOTS 2048
#define TPF_EVM_IMAGE_END 0x0A000000
/* Programs fetched from a load library by LOAD (fetch/, issue 26): a process's own copies. */
#define TPF_EVM_FETCHED 0x0A000000UL
#define TPF_EVM_FETCHED_END 0x10000000UL
#define TPF_EVM_HEAP31 0x10000000UL
#define TPF_EVM_HEAP31_END 0x40000000UL
#define TPF_EVM_SYSTEM 0x40000000UL
#define TPF_EVM_SYSTEM_END 0x50000000UL
#define TPF_EVM_DATA 0x50000000UL
#define TPF_EVM_DATA_END 0x60000000UL
#define TPF_EVM_SHARED 0x60000000UL
#define TPF_EVM_SHARED_END 0x70000000UL
#define TPF_EVM_STACKS 0x70000000UL
#define TPF_EVM_STACK_TOP 0x7F000000UL /* the first stack's top; each further thread's is lower */
/* Language Environment storage (le/, issue 25): the segments of an LE program's heaps.
   LE's 31-bit heaps keep 4-byte addresses below 2 GB; the EVM's first 2 GB are taken,
   so the region lies at 2 to 4 GB, where 4-byte addresses still reach (system.le.region
   bytes of it may be used). */
#define TPF_EVM_LE 0x80000000UL
#define TPF_EVM_LE_END 0x100000000UL
#define TPF_EVM_HEAP64 0x100000000UL
#define TPF_EVM_HEAP64_END 0x10100000000UL /* 1 TB: the largest system.heap64_size */
/* 64-bit system storage (GETSTOR64): the region's size is the most a process can hold
   there; real and auxiliary storage bound it first. */
#define TPF_EVM_SYSTEM64 0x10100000000UL
#define TPF_EVM_SYSTEM64_END 0x20100000000UL

/* Parts of the shared area: offsets from TPF_EVM_SHARED. */
#define TPF_SHARED_SYSLOG 0x00000UL
#define TPF_SHARED_SYSLOG_END 0x30000UL
#define TPF_SHARED_SLOCK_SLOTS 0x30000UL
#define TPF_SHARED_SLOCK_SLOTS_END 0x40000UL
#define TPF_SHARED_SLOCK_QNODES 0x40000UL
#define TPF_SHARED_SLOCK_QNODES_END 0x50000UL
#define TPF_SHARED_APPS 0x50000UL
#define TPF_SHARED_APPS_END 0x60000UL
/* From here to the end of system.shared_size: workloads' common tables (the E3
   workload's, paging/guest/qolt.c). */
#define TPF_SHARED_TABLES 0x100000UL

/* The checks are C and C++ only (assembler sources include the ABI headers too). */
#if defined(__ASSEMBLER__)
#define TPF_EVM_ASSERT(cond, why)
#elif defined(__cplusplus)
#define TPF_EVM_ASSERT(cond, why) static_assert(cond, why)
#else
#define TPF_EVM_ASSERT(cond, why) _Static_assert(cond, why)
#endif
#ifndef __ASSEMBLER__

/* Each region ends before the next begins, in address order. */
TPF_EVM_ASSERT(TPF_EVM_LE_ANCHOR < TPF_EVM_LE_ANCHOR_END && TPF_EVM_LE_ANCHOR_END <= TPF_EVM_LE24 &&
                   TPF_EVM_LE_ANCHOR_END <= 0x80000UL,
               "the LE anchor below le24, within a long displacement of address 0");
TPF_EVM_ASSERT(TPF_EVM_LE24 < TPF_EVM_LE24_END && TPF_EVM_LE24_END <= TPF_EVM_MESSAGE, "le24, message");
TPF_EVM_ASSERT(TPF_EVM_MESSAGE < TPF_EVM_MESSAGE_END && TPF_EVM_MESSAGE_END <= TPF_EVM_IMAGE, "message, image");
TPF_EVM_ASSERT(TPF_EVM_IMAGE < TPF_EVM_IMAGE_DATA && TPF_EVM_IMAGE_DATA < TPF_EVM_PROGRAMS &&
                   TPF_EVM_PROGRAMS + TPF_EVM_PROGRAM_SLOTS * TPF_EVM_PROGRAM_SLOT == TPF_EVM_IMAGE_END,
               "image, programs");
TPF_EVM_ASSERT(TPF_EVM_IMAGE_END <= TPF_EVM_FETCHED && TPF_EVM_FETCHED < TPF_EVM_FETCHED_END &&
                   TPF_EVM_FETCHED_END <= TPF_EVM_HEAP31,
               "image, fetched, heap31");
TPF_EVM_ASSERT(TPF_EVM_HEAP31 < TPF_EVM_HEAP31_END && TPF_EVM_HEAP31_END <= TPF_EVM_SYSTEM, "heap31, system");
TPF_EVM_ASSERT(TPF_EVM_SYSTEM < TPF_EVM_SYSTEM_END && TPF_EVM_SYSTEM_END <= TPF_EVM_DATA, "system, data");
TPF_EVM_ASSERT(TPF_EVM_DATA < TPF_EVM_DATA_END && TPF_EVM_DATA_END <= TPF_EVM_SHARED, "data, shared");
TPF_EVM_ASSERT(TPF_EVM_SHARED < TPF_EVM_SHARED_END && TPF_EVM_SHARED_END <= TPF_EVM_STACKS, "shared, stacks");
TPF_EVM_ASSERT(TPF_EVM_STACKS < TPF_EVM_STACK_TOP && TPF_EVM_STACK_TOP <= 0x80000000UL, "stacks below the bar");
TPF_EVM_ASSERT(TPF_EVM_STACK_TOP <= TPF_EVM_LE && TPF_EVM_LE < TPF_EVM_LE_END &&
                   TPF_EVM_LE_END <= 0x100000000UL && TPF_EVM_LE_END <= TPF_EVM_HEAP64,
               "the LE region between the stacks and heap64, below 4 GB");
TPF_EVM_ASSERT(TPF_EVM_HEAP64 >= 0x100000000UL && TPF_EVM_HEAP64 < TPF_EVM_HEAP64_END, "heap64 above the bar");
TPF_EVM_ASSERT(TPF_EVM_HEAP64_END <= TPF_EVM_SYSTEM64 && TPF_EVM_SYSTEM64 < TPF_EVM_SYSTEM64_END, "heap64, system64");
/* The shared area's parts likewise (lock/ checks that system.shared_size covers them). */
TPF_EVM_ASSERT(TPF_SHARED_SYSLOG_END <= TPF_SHARED_SLOCK_SLOTS, "syslog, lock slots");
TPF_EVM_ASSERT(TPF_SHARED_SLOCK_SLOTS_END <= TPF_SHARED_SLOCK_QNODES, "lock slots, lock nodes");
TPF_EVM_ASSERT(TPF_SHARED_SLOCK_QNODES_END <= TPF_SHARED_APPS, "lock nodes, apps");
TPF_EVM_ASSERT(TPF_SHARED_APPS_END <= TPF_EVM_SHARED_END - TPF_EVM_SHARED, "apps in the shared area");
#endif

#endif
