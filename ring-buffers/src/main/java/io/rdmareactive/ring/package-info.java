/**
 * Off-heap memory for RDMA and the rings laid over it.
 *
 * <ul>
 *   <li>{@link io.rdmareactive.ring.OffHeapMemory}: page-aligned native memory or a memory-mapped file, with an owned,
 *       reference-counted lifetime: nothing is freed while a lease (a registration, posted work) holds it.</li>
 *   <li>{@link io.rdmareactive.ring.RingBuffers}: Agrona's own {@code ManyToOneRingBuffer} and
 *       {@code OneToOneRingBuffer} laid over a region of that memory. Claiming, committing, aborting and reading are
 *       Agrona's; nothing of it is rewritten here. Over a file mapping, two processes share one ring.</li>
 *   <li>{@link io.rdmareactive.ring.RingPositions}, {@link io.rdmareactive.ring.RingSplit},
 *       {@link io.rdmareactive.ring.PositionCheck} and {@link io.rdmareactive.ring.SendWindow}: what Agrona lacks for
 *       a ring mirrored into a remote peer: the arithmetic of 64-bit positions (ring index, wrap, cutting a range into
 *       one piece per RDMA WRITE, free space against credit, checking positions a peer advanced, credit batching) and
 *       the sender's committed / sent / completed / credited bookkeeping. Allocation-free, lock-free and
 *       exception-free on the hot path; untrusted input yields a status.</li>
 * </ul>
 *
 * <p>How the pieces fit the mirrored ring of DESIGN.md (shown end to end, single-threaded, by {@code MirroredRingTest}):
 * producers claim and commit in an Agrona many-to-one send ring; the driver finds how far records are committed
 * (record lengths above zero from {@link io.rdmareactive.ring.SendWindow#committed()} on, up to Agrona's tail), posts
 * one RDMA WRITE per piece of {@link io.rdmareactive.ring.SendWindow#unsentPieces(RingSplit)} to the same offsets of
 * the peer's ring, and, once both the completion and the peer's credit are in, zeroes the ring up to
 * {@link io.rdmareactive.ring.SendWindow#released()} and stores that as the ring's head, as Agrona's own consumers do.
 * Two things the receiving side must not take from Agrona's {@code read}: it reads until a record length of zero,
 * but the receiver's ring does not promise one (Agrona 2.x one-to-one readers do not zero what they read, and the bytes
 * of a later WRITE may land before its completion), so the receiver reads only up to the position it checked with
 * {@link io.rdmareactive.ring.RingPositions#checkAdvance(long, long, long)}, and checks every record length it meets.
 *
 * <p>This module sees Agrona and the JDK only. Nothing here knows about providers, protocols or Reactor.
 */
package io.rdmareactive.ring;
