/**
 * Off-heap memory for RDMA and the rings laid over it.
 *
 * <ul>
 *   <li>{@link io.rdmareactive.ring.OffHeapMemory}: page-aligned native memory or a memory-mapped file, with an owned,
 *       reference-counted lifetime: nothing is freed while a lease (a registration, posted work) holds it.</li>
 *   <li>{@link io.rdmareactive.ring.RingBuffers}: Agrona's own {@code ManyToOneRingBuffer} and
 *       {@code OneToOneRingBuffer} laid over a region of that memory. Claiming, committing, aborting and reading are
 *       Agrona's; nothing of it is rewritten here. Over a file mapping, two processes share one ring.</li>
 *   <li>{@link io.rdmareactive.ring.PrivateDirectory}: the directory such files live in, which only its owner (by
 *       uid) may enter: created 0700, never a symbolic link; by default {@code /dev/shm/rdma-reactive-<user>}.</li>
 *   <li>{@link io.rdmareactive.ring.FileNames}: the one rule for names that go into file names there (1 to 64
 *       letters, digits, {@code .}, {@code _}, {@code -}).</li>
 * </ul>
 *
 * <p>The rings mirrored into a remote peer (a send ring the adapter reads, the peer's receive ring it writes, 64-bit
 * positions, credit) are the protocol's own ({@code StreamSendRing} and {@code StreamReceiveRing} in the core
 * module): there is one ring-position model, and it lives with the frames it frames.
 *
 * <p>This module sees Agrona and the JDK only. Nothing here knows about providers, protocols or Reactor.
 */
package io.rdmareactive.ring;
